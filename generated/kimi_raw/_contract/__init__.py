"""Request contracts derived from openapi/*.yaml by `make generate`. Do not edit.

Each <format>.json holds the request body's JSON Schema (2020-12), its top-level fields,
defaults and the spec's x-kimi-* extensions. kimi_ext and its stand-in read these.
"""

import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load(fmt: str) -> dict[str, Any]:
    """The derived contract of one format ("chat", "messages" or "responses")."""
    text = files(__name__).joinpath(f"{fmt}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
