"""``python -m kimi_ext.cli``: the ``kimi`` command."""

import os

from kimi_ext.cli import main

if __name__ == "__main__":
    # Only processes started from here read it (this one's streams are set up already).
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
