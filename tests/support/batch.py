"""Helpers of the batch tests: input lines in every format, files, and the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kimi_ext.testing import KimiStandIn

CLI = [sys.executable, "-m", "kimi_ext.cli", "batch"]
URLS = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}
FORMATS = tuple(URLS)


def body(fmt: str, text: str, *, stream: bool = False, **extra: Any) -> dict[str, Any]:
    """A small valid body of ``fmt`` asking ``text``."""
    if fmt == "chat":
        out: dict[str, Any] = {"model": "kimi-k3.1-pro",
                               "messages": [{"role": "user", "content": text}]}  # fmt: skip
    elif fmt == "messages":
        out = {"model": "kimi-k3.1-pro", "max_tokens": 256,
               "messages": [{"role": "user", "content": text}]}  # fmt: skip
    else:
        out = {"model": "kimi-k3.1-pro", "input": text}
    if stream:
        out["stream"] = True
    out.update(extra)
    return out


def line(cid: str, fmt: str = "chat", text: str | None = None, **kw: Any) -> dict[str, Any]:
    """One input line (the text defaults to ``ask <cid>``, which the stand-in echoes)."""
    return {"custom_id": cid, "method": "POST", "url": URLS[fmt],
            "body": body(fmt, text or f"ask {cid}", **kw)}  # fmt: skip


def mixed(n: int, *, stream_every: int = 2) -> list[dict[str, Any]]:
    """``n`` lines cycling through the three formats, every ``stream_every``-th streamed."""
    return [
        line(f"id-{i:05d}", FORMATS[i % 3], stream=(stream_every > 0 and i % stream_every == 0))
        for i in range(n)
    ]


def write_jsonl(path: Path, docs: Iterable[dict[str, Any] | str]) -> Path:
    path.write_text(
        "".join((d if isinstance(d, str) else json.dumps(d)) + "\n" for d in docs),
        encoding="utf-8",
    )
    return path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every line parsed (a torn line fails the test here)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    assert text == "" or text.endswith("\n"), "the last line is cut"
    return [json.loads(raw) for raw in text.splitlines() if raw.strip()]


def env_for(standin: KimiStandIn | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    if standin is not None:
        env["KIMI_API_KEY"] = standin.api_key
        env["KIMI_BASE_URL"] = standin.base_url
    env["PYTHONUNBUFFERED"] = "1"
    return env


def kimi_batch(
    standin: KimiStandIn | None, *args: str | Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``kimi batch ARGS`` to its end."""
    return subprocess.run(
        [*CLI, *map(str, args)], capture_output=True, text=True, env=env_for(standin),
        timeout=timeout,
    )  # fmt: skip


def answered(standin: KimiStandIn) -> list[str]:
    """The custom_ids of the requests the stand-in received, in order (the text asked is
    ``ask <cid>``)."""
    return [r.last_user_text.removeprefix("ask ") for r in standin.requests]
