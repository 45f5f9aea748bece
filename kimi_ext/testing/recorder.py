"""The recording proxy: forward each request to the real service, relay its answer as it
arrives, and store the exchange in a cassette with no secret in it.

The request goes upstream as the application sent it (its key included), less the
hop-by-hop headers. A stream is relayed one SSE event at a time, each as soon as it is
complete, never held back; the cassette keeps each event's bytes and the delay before it.
What is stored is scrubbed (:mod:`kimi_ext.testing.scrub`): every key seen in a request
(``Authorization``, ``x-api-key``, cookies) in every form, also when a stream's frames cut
it in pieces (:mod:`kimi_ext.testing.streamtext`), and the user's own scrubbers' matches;
only allow-listed headers are kept, never a credential header.
"""

from __future__ import annotations

import base64
import fnmatch
import json
import logging
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx

from kimi_ext.keys import is_loopback
from kimi_ext.testing.cassette import Cassette, CassetteError, Frame, Interaction, RecordedReply
from kimi_ext.testing.outcome import Outcome
from kimi_ext.testing.recording import PATHS
from kimi_ext.testing.scrub import Scrubber, UserScrubber
from kimi_ext.testing.sse import StreamScript
from kimi_ext.testing.streamtext import scrub_frames

__all__ = [
    "KEEP_REQUEST_HEADERS",
    "KEEP_RESPONSE_HEADERS",
    "NEVER_KEPT",
    "Recorder",
    "UpstreamError",
    "scrub_interaction",
    "scrub_json",
    "split_frames",
]

logger = logging.getLogger("kimi_ext.testing")

# The headers worth keeping (fnmatch patterns); the user may add more.
KEEP_REQUEST_HEADERS: tuple[str, ...] = ("content-type", "anthropic-version", "anthropic-beta")
KEEP_RESPONSE_HEADERS: tuple[str, ...] = (
    "content-type",
    "x-request-id",
    "request-id",
    "x-trace-id",
    "retry-after",
    "retry-after-ms",
    "x-ratelimit-*",
    "anthropic-ratelimit-*",
)
# Never stored, whatever the allow-list says.
NEVER_KEPT = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"}
)
# Not forwarded either way: they describe one connection, not the exchange.
_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "host",
        "content-length",
        "content-encoding",
        "accept-encoding",
    }
)


class UpstreamError(Exception):
    """The upstream could not be reached (the application gets a 502)."""


def check_upstream(upstream: str) -> str:
    """``upstream`` without a trailing slash; ValueError unless it is https, or http on
    this machine (the key goes there)."""
    parts = urllib.parse.urlsplit(upstream)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"upstream {upstream!r}: must be an http(s) URL such as https://host")
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise ValueError(
            f"upstream {upstream!r}: the key would travel unencrypted; use https "
            "(plain http only to this machine)"
        )
    return upstream.rstrip("/")


def split_frames(buffer: bytes) -> tuple[list[bytes], bytes]:
    """The complete SSE events at the start of ``buffer`` (each with its blank line) and
    what is left."""
    frames: list[bytes] = []
    start = 0
    while True:
        ends = [
            (at + len(sep))
            for sep in (b"\n\n", b"\r\n\r\n", b"\r\r")
            if (at := buffer.find(sep, start)) >= 0
        ]
        if not ends:
            return frames, buffer[start:]
        end = min(ends)
        frames.append(buffer[start:end])
        start = end


def _kept(headers: Iterable[tuple[str, str]], allow: Iterable[str]) -> dict[str, str]:
    patterns = [a.lower() for a in allow]
    return {
        name.lower(): value
        for name, value in headers
        if name.lower() not in NEVER_KEPT
        and name.lower() not in _HOP  # a replay writes its own framing
        and any(fnmatch.fnmatchcase(name.lower(), p) for p in patterns)
    }


class Recorder:
    """Forwards requests to ``upstream`` and records them into ``target``.

    ``target`` is a ``.json`` cassette file (every exchange in it; with ``append`` the
    interactions already there are kept) or a folder (one new numbered file per exchange).
    """

    def __init__(
        self,
        target: str | Path,
        upstream: str,
        *,
        scrubbers: Iterable[UserScrubber] = (),
        keep_headers: Iterable[str] = (),
        append: bool = True,
        timeout: float = 600.0,
    ) -> None:
        self.upstream = check_upstream(upstream)
        self.target = Path(target)
        self.per_file = self.target.suffix.lower() != ".json"
        self.scrubber = Scrubber(scrubbers)
        self.keep_request = (*KEEP_REQUEST_HEADERS, *keep_headers)
        self.keep_response = (*KEEP_RESPONSE_HEADERS, *keep_headers)
        self._lock = threading.Lock()
        self._cassette = Cassette(self.target)
        if not self.per_file and append and self.target.exists():
            self._cassette = Cassette.load(self.target)
        self._reserved: set[int] = set()  # file numbers handed out (folder target)
        self._timeout = timeout
        self._http: httpx.Client | None = None  # made on first use (again after close())
        self.recorded = 0
        # Called with each interaction once stored (the player learns its signatures).
        self.on_recorded: Callable[[Interaction], None] | None = None

    def close(self) -> None:
        """Close the connections to the upstream (a later request opens new ones)."""
        with self._lock:
            http, self._http = self._http, None
        if http is not None:
            http.close()

    def _client(self) -> httpx.Client:
        with self._lock:
            if self._http is None:
                host = urllib.parse.urlsplit(self.upstream).hostname or ""
                self._http = httpx.Client(
                    timeout=httpx.Timeout(self._timeout, connect=min(self._timeout, 30.0)),
                    follow_redirects=False,  # a redirect would carry the key elsewhere
                    trust_env=not is_loopback(host),  # no proxy between us and this machine
                )
            return self._http

    # ------------------------------------------------------------------ forwarding

    def forward(
        self, method: str, raw_path: str, headers: Mapping[str, str], body: bytes
    ) -> Outcome:
        """Send one request upstream and return what to relay (a stream is relayed and
        recorded as it arrives)."""
        with self._lock:
            self._learn_secrets(headers)
        path, _, query = raw_path.partition("?")
        sent = {k: v for k, v in headers.items() if k.lower() not in _HOP}
        sent["accept-encoding"] = "identity"  # the frames exactly as the service writes them
        started = time.monotonic()
        http = self._client()
        request = http.build_request(method, self.upstream + raw_path, headers=sent, content=body)
        try:
            response = http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise UpstreamError(f"cannot reach the upstream {self.upstream}: {exc}") from None
        arrived = time.monotonic()
        interaction = Interaction(
            method=method,
            path=path,
            body=_parsed(body),
            reply=RecordedReply(
                status=response.status_code,
                headers=_kept(response.headers.multi_items(), self.keep_response),
                delay=arrived - started,
            ),
            query=query,
            headers=_kept(headers.items(), self.keep_request),
        )
        slot = self._reserve(path)
        # Relayed as sent, less what describes the connection (and what the stand-in's own
        # HTTP layer writes: its Server and Date).
        relayed = {
            k: v
            for k, v in response.headers.multi_items()
            if k.lower() not in _HOP and k.lower() not in ("server", "date")
        }
        is_stream = "text/event-stream" in response.headers.get("content-type", "")
        if not is_stream:
            try:
                data = response.read()
            except httpx.HTTPError as exc:
                response.close()
                raise UpstreamError(f"the upstream's answer broke off: {exc}") from None
            response.close()
            interaction.reply.body = data
            self._store(interaction, slot)
            return Outcome(response.status_code, headers=relayed, raw=data, verbatim=True)
        script = StreamScript([])
        script.pieces = self._relay(response, interaction, slot, arrived, script)
        return Outcome(response.status_code, headers=relayed, stream=script, verbatim=True)

    def _relay(
        self,
        response: httpx.Response,
        interaction: Interaction,
        slot: Path | None,
        since: float,
        script: StreamScript,
    ) -> Iterator[bytes]:
        frames: list[Frame] = []
        interaction.reply.frames = frames
        interaction.reply.ending = "close"  # until the body ends properly
        last = since
        buffer = b""
        try:
            cut = False
            try:
                for chunk in response.iter_bytes():
                    buffer += chunk
                    complete, buffer = split_frames(buffer)
                    for frame in complete:
                        now = time.monotonic()
                        frames.append(Frame(frame, now - last))
                        last = now
                        yield frame
            except httpx.HTTPError:
                cut = True  # the upstream dropped the connection: so do we
            if buffer:
                frames.append(Frame(buffer, time.monotonic() - last))
                yield buffer
            if cut:
                script.ending = "close"
            else:
                interaction.reply.ending = "end"
        finally:
            response.close()
            self._store(interaction, slot)

    # ------------------------------------------------------------------ storing

    def _learn_secrets(self, headers: Mapping[str, str]) -> None:
        for name, value in headers.items():
            name = name.lower()
            if name in ("authorization", "proxy-authorization"):
                scheme, _, token = value.strip().partition(" ")
                token = token.strip() or scheme
                self.scrubber.add_secret(token)
                if scheme.lower() == "basic":
                    try:
                        decoded = base64.b64decode(token, validate=True).decode("utf-8")
                    except ValueError:
                        continue
                    self.scrubber.add_secret(decoded)
                    self.scrubber.add_secret(decoded.partition(":")[2])
            elif name in ("x-api-key", "api-key"):
                self.scrubber.add_secret(value)
            elif name == "cookie":
                for part in value.split(";"):
                    self.scrubber.add_secret(part.partition("=")[2])

    def _reserve(self, path: str) -> Path | None:
        """A folder target: the next free file name, taken in the order requests arrive."""
        if not self.per_file:
            return None
        with self._lock:
            numbers = {int(p.name[:4]) for p in self.target.glob("[0-9][0-9][0-9][0-9]-*.json")}
            n = max(numbers | self._reserved, default=0) + 1
            self._reserved.add(n)
        return self.target / f"{n:04d}-{PATHS.get(path, 'other')}.json"

    def _store(self, interaction: Interaction, slot: Path | None) -> None:
        with self._lock:
            clean = scrub_interaction(interaction, self.scrubber)
            self.recorded += 1
            if slot is not None:
                cassette = Cassette(slot, [clean])
            else:
                self._cassette.interactions.append(clean)
                cassette = self._cassette
            try:
                self._save(cassette)
            except (OSError, CassetteError) as exc:
                logger.error("stand-in recorder: cannot write %s: %s", cassette.path, exc)
        if self.on_recorded is not None:
            self.on_recorded(clean)

    def _save(self, cassette: Cassette) -> None:
        text = cassette.dumps()
        if self.scrubber.found(text):
            # A form the per-field scrub could not see (an escape the file adds): scrub the
            # file's text too, and refuse to write when that breaks it.
            text = self.scrubber.scrub(text)
            try:
                json.loads(text)
            except ValueError:
                raise CassetteError(
                    f"{cassette.path}: a key is in a form that cannot be scrubbed; not written"
                ) from None
        cassette.save(text)


def _parsed(body: bytes) -> Any:
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


def scrub_json(value: Any, scrubber: Scrubber) -> Any:
    """``value`` (decoded JSON) with every string, keys included, scrubbed."""
    if isinstance(value, str):
        return scrubber.scrub(value)
    if isinstance(value, list):
        return [scrub_json(v, scrubber) for v in value]
    if isinstance(value, dict):
        return {scrubber.scrub(k): scrub_json(v, scrubber) for k, v in value.items()}
    return value


def _scrub_bytes(data: bytes, scrubber: Scrubber) -> bytes:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return scrubber.scrub(data.decode("latin-1")).encode("latin-1", "replace")
    scrubbed = scrubber.scrub(text)
    return data if scrubbed == text else scrubbed.encode("utf-8")


def _scrub_stream(frames: list[Frame], scrubber: Scrubber) -> list[Frame]:
    """Each frame scrubbed, then the text the stream sends in pieces, joined (a piece of
    the key cut in two by a frame boundary)."""
    # Joined first: a user pattern matched on one frame alone could leave the rest of its
    # match (acct-12 | 345) in the next.
    data = scrub_frames([f.data for f in frames], scrubber)
    return [Frame(_scrub_bytes(d, scrubber), f.delay) for d, f in zip(data, frames, strict=True)]


def scrub_interaction(interaction: Interaction, scrubber: Scrubber) -> Interaction:
    """A copy of ``interaction`` with every secret scrubbed from every string in it."""
    reply = interaction.reply
    frames = reply.frames
    return Interaction(
        method=interaction.method,
        path=scrubber.scrub(interaction.path),
        body=scrub_json(interaction.body, scrubber),
        reply=RecordedReply(
            status=reply.status,
            headers=scrub_json(reply.headers, scrubber),
            body=None if reply.body is None else _scrub_bytes(reply.body, scrubber),
            frames=None if frames is None else _scrub_stream(frames, scrubber),
            ending=reply.ending,
            delay=reply.delay,
        ),
        query=scrubber.scrub(urllib.parse.unquote_plus(interaction.query))
        if scrubber.found(urllib.parse.unquote_plus(interaction.query))
        else scrubber.scrub(interaction.query),
        headers=scrub_json(interaction.headers, scrubber),
    )
