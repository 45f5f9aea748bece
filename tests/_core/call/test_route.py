"""A format's method, path and headers come from its derived contract, and agree with the
request builder openapi-python-client generated from the same spec (the client no longer
calls that builder; this test keeps the two readings of the spec in step)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

from kimi_ext.formats import FORMATS


class _EmptyBody:
    def to_dict(self) -> dict[str, Any]:
        return {}


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_route_matches_the_generated_builder(fmt: Any) -> None:
    api = importlib.import_module(f"kimi_raw.{fmt.name}.api")
    (name,) = (
        i.name for i in pkgutil.walk_packages(api.__path__, api.__name__ + ".") if not i.ispkg
    )
    module = importlib.import_module(name)
    header_args = {k.replace("-", "_"): v for k, v in fmt.contract.headers.items()}
    kwargs = module._get_kwargs(body=_EmptyBody(), **header_args)
    generated_headers = {str(k): str(v) for k, v in kwargs.get("headers", {}).items()}
    generated_headers.pop("Content-Type", None)

    method, path, headers = fmt.route
    assert (method, path, headers) == (kwargs["method"].upper(), kwargs["url"], generated_headers)
    assert path.startswith("/v1/") and method == "POST"


def test_messages_sends_its_version_header() -> None:
    from kimi_ext.formats import MESSAGES

    assert MESSAGES.route[2] == {"anthropic-version": "2023-06-01"}
