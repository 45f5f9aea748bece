"""Run by test_contract_flow.py in a fresh interpreter, with ``kimi_raw`` on PYTHONPATH
either the committed package or one regenerated from edited specs.

For each format it sends the probe values through the kimi_ext client to a strict
stand-in (and, for values the client refuses, straight to the stand-in with httpx), and
prints one JSON object: per format and probe, whether the client accepted it and whether
the stand-in did, with the error text of each refusal.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import httpx

from kimi_ext import Kimi, RequestValidationError
from kimi_ext.errors import APIStatusError
from kimi_ext.testing import KimiStandIn

PATHS = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}
BASE: dict[str, dict[str, Any]] = {
    "chat": {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "Hi"}]},
    "messages": {
        "model": "kimi-k3.1-pro",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
    },
    "responses": {"model": "kimi-k3.1-pro", "input": "Hi"},
}
PNG = "iVBORw0KGgo="


def image(media_type: str) -> dict[str, Any]:
    source = {"type": "base64", "media_type": media_type, "data": PNG}
    blocks = [{"type": "image", "source": source}, {"type": "text", "text": "What is it?"}]
    return {"messages": [{"role": "user", "content": blocks}]}


# The edited value of an enum each spec gets, and a value no spec allows.
ENUM = {
    "chat": lambda v: {"prompt_cache_options": {"mode": v}},
    "messages": lambda v: image(v),
    "responses": lambda v: {"prompt_cache_options": {"mode": v}},
}
ENUM_VALUES = {"chat": "explicit", "messages": "image/bmp", "responses": "explicit"}
EFFORT = {
    "chat": lambda v: {"reasoning_effort": v},
    "messages": lambda v: {"output_config": {"effort": v}},
    "responses": lambda v: {"reasoning": {"effort": v}},
}
REMOVED = {"chat": "safety_identifier", "messages": "metadata", "responses": "safety_identifier"}
REMOVED_VALUE: dict[str, Any] = {
    "chat": "user-1",
    "messages": {"user_id": "user-1"},
    "responses": "user-1",
}


def probes(fmt: str) -> dict[str, dict[str, Any]]:
    return {
        "new_field": {"new_flag": True},
        "new_field_wrong_type": {"new_flag": "yes"},
        "new_enum_value": ENUM[fmt](ENUM_VALUES[fmt]),
        "wrong_enum_value": ENUM[fmt]("nonsense"),
        "new_model_allowed_effort": {"model": "kimi-k4", **EFFORT[fmt]("high")},
        "new_model_refused_effort": {"model": "kimi-k4", **EFFORT[fmt]("low")},
        "removed_field": {REMOVED[fmt]: REMOVED_VALUE[fmt]},
    }


def main() -> None:
    out: dict[str, Any] = {"models": []}
    with KimiStandIn(strict_fields=True) as standin:
        client = Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None)
        create = {
            "chat": client.chat.completions.create,
            "messages": client.messages.create,
            "responses": client.responses.create,
        }
        headers = {"Authorization": f"Bearer {standin.api_key}", "anthropic-version": "2023-06-01"}
        with httpx.Client(base_url=standin.base_url, headers=headers) as http:
            out["models"] = [m["id"] for m in http.get("/v1/models").json()["data"]]
            for fmt in PATHS:
                results: dict[str, Any] = {}
                for name, extra in probes(fmt).items():
                    body = {**BASE[fmt], **extra}
                    before = len(standin.requests)
                    entry: dict[str, Any] = {}
                    try:
                        create[fmt](**body)
                    except RequestValidationError as exc:
                        entry["client"] = str(exc)
                        entry["sent"] = len(standin.requests) != before
                        # The stand-in judges the same body on its own.
                        response = http.post(PATHS[fmt], json=body)
                        entry["standin"] = (
                            "ok"
                            if response.status_code == 200
                            else response.json()["error"]["message"]
                        )
                    except APIStatusError as exc:
                        entry["client"] = "ok"  # validated and sent; the stand-in refused it
                        entry["standin"] = f"{exc.status_code}: {exc}"
                    else:
                        entry["client"] = "ok"
                        entry["standin"] = "ok"
                        entry["received"] = standin.requests[-1].json
                    results[name] = entry
                out[fmt] = results
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
