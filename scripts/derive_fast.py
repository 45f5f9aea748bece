"""Write the fast check of one format's request body (run by scripts/generate.sh).

    python scripts/derive_fast.py OUT_DIR/_contract/chat.json

Reads the contract scripts/derive_contract.py derived and writes, beside it, one module per
mode of :data:`kimi_ext._core.contract.Closed` (``chat_fast_as_written.py``,
``chat_fast_strict.py``, ``chat_fast_lenient.py``; a process imports only the modes it
uses): plain Python functions that ``kimi_ext._core.contract.fast.load`` imports and binds,
so the client compiles nothing at run time. The generator itself is
:func:`kimi_ext._core.contract.fast.source`; the output is deterministic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kimi_ext._core.contract import Contract
from kimi_ext._core.contract.fast import MODES, source

HEADER = '''"""The fast yes/no check of a {fmt} request body in mode {mode!r} of
kimi_ext._core.contract.Closed, written by `make generate` from openapi/{fmt}.yaml
(scripts/derive_fast.py, kimi_ext._core.contract.fast). Do not edit.

build() returns the check of the request: it raises on anything it cannot pass, and the
reference validator then decides.
"""

# ruff: noqa
# mypy: ignore-errors
'''


def main(contract_json: str) -> None:
    """Write the fast check modules of the contract in ``contract_json``, beside it."""
    path = Path(contract_json)
    data = json.loads(path.read_text(encoding="utf-8"))
    contract = Contract(data)
    for closed, mode in MODES.items():
        text = source(contract._compiler(closed), data["request"], "build")
        header = HEADER.format(fmt=contract.format, mode=closed)
        out = path.with_name(f"{contract.format}_fast_{mode}.py")
        out.write_text(f"{header}\n\n{text}", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
