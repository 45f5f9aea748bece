"""The identities a batch line carries across runs: its fingerprint and its idempotency key.

Both are derived, never stored beside the output: a resumed run computes them again from the
input line and the job id, so a request re-sent after a crash carries the same
``Idempotency-Key`` as before, and an output line whose ``id`` no longer matches its input
line reveals that the line was changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

__all__ = ["fingerprint", "idempotency_key", "job_id_for", "key_hash", "output_id"]

_ID_PREFIX = "batch_req_"


def fingerprint(custom_id: str, url: str, body: Any) -> str:
    """A short hex digest of one request: its custom_id, URL and body (keys sorted, so a
    reformatted line keeps its fingerprint; any changed value changes it)."""
    text = json.dumps([custom_id, url, body], sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))  # fmt: skip
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def output_id(print_: str) -> str:
    """The output line's ``id`` for a request of fingerprint ``print_`` (the batch-line
    format leaves ``id`` opaque; carrying the fingerprint there keeps the format exact)."""
    return _ID_PREFIX + print_


def fingerprint_of_id(line_id: Any) -> str | None:
    """The fingerprint an output line's ``id`` carries (None for an id of another tool)."""
    if isinstance(line_id, str) and line_id.startswith(_ID_PREFIX):
        return line_id[len(_ID_PREFIX) :]
    return None


def job_id_for(output: str | os.PathLike[str]) -> str:
    """The default job id: derived from the output file's absolute path, so running the
    same command again is the same job (pass ``job_id=`` to keep it when the file moves)."""
    where = os.path.abspath(os.fspath(output))
    return hashlib.blake2b(where.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()


def idempotency_key(job_id: str, custom_id: str) -> str:
    """The ``Idempotency-Key`` of a line: the same for every attempt and every run of the job."""
    digest = hashlib.blake2b(
        f"{job_id}\0{custom_id}".encode("utf-8", "surrogatepass"), digest_size=16
    ).hexdigest()
    return f"kimi-batch-{digest}"


def key_hash(custom_id: str) -> int:
    """A 64-bit hash of a custom_id: the sets of seen and finished ids hold these (8 bytes
    each), so memory does not grow with the ids' length."""
    digest = hashlib.blake2b(custom_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little")
