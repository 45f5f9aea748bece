"""KimiStandIn: a real HTTP server on 127.0.0.1 that answers like the Kimi service.

::

    from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec

    with KimiStandIn() as standin:               # free port, key "test-key"
        standin.queue(Reply(text="Hi", reasoning="Say hi."))
        client = Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None)
        ...
        assert standin.requests[-1].json["model"] == "kimi-k3.1-pro"

It speaks ``POST /v1/chat/completions``, ``/v1/messages`` and ``/v1/responses`` (JSON and
SSE), rejects what the service rejects (:mod:`kimi_ext.testing.rules`) in each format's own
error envelope, reports usage with a deterministic token count and prompt cache
(:mod:`kimi_ext.testing.caching`), and injects faults on demand
(:mod:`kimi_ext.testing.faults`).

Cassettes wrap it (:mod:`kimi_ext.testing.deck`): ``KimiStandIn().replay(path)`` answers
with what was recorded, ``KimiStandIn().record(path, upstream)`` records what the real
service answers, and both together record what the cassettes do not answer.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import selectors
import socket
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal, Self, TypedDict, Unpack

from kimi_ext.contract import contract
from kimi_ext.errors import KimiError
from kimi_ext.testing.caching import PromptCache
from kimi_ext.testing.cassette import CassetteError, Interaction
from kimi_ext.testing.deck import Deck
from kimi_ext.testing.faults import Fault, FaultPlan
from kimi_ext.testing.formats import RENDERERS, Context, auth_error, error_body, new_id
from kimi_ext.testing.matching import Matcher
from kimi_ext.testing.outcome import Outcome
from kimi_ext.testing.player import Timing
from kimi_ext.testing.recorder import NEVER_KEPT
from kimi_ext.testing.recording import PATHS, RecordedRequest, last_user_text
from kimi_ext.testing.replies import (
    SEARCH_REASONING,
    PlannedOutput,
    Reply,
    TokenCounter,
    ToolCallSpec,
    count_tokens,
    cut_call,
    dump_json,
    example_for_schema,
    plan_output,
)
from kimi_ext.testing.rules import (
    RequestInfo,
    ServiceError,
    check_chat,
    check_messages,
    check_responses,
    known_models,
)
from kimi_ext.testing.script import Match, Rule, Script, as_rule, load_script
from kimi_ext.testing.scrub import REDACTED, UserScrubber
from kimi_ext.testing.sse import StreamScript, script_stream

logger = logging.getLogger("kimi_ext.testing")

WEB_SEARCH_CALL = "$web_search"

Responder = Callable[["RecordedRequest"], "Reply | None"]


class DeprecatedCassetteKeywords(TypedDict, total=False):
    """The cassette keywords ``KimiStandIn(...)`` took before :meth:`KimiStandIn.replay` and
    :meth:`KimiStandIn.record` (deprecated; removed in the next release)."""

    record: str | Path | None
    upstream: str | None
    replay: str | Path | Sequence[str | Path] | None
    timing: Timing
    matcher: Matcher | None
    allow_repeats: bool
    strict_replay: bool
    scrubbers: Sequence[UserScrubber]
    record_headers: Sequence[str]


class StandInError(KimiError, OSError):
    """The stand-in cannot listen on its address (busy, not allowed, a port outside
    0-65535): the message names the host, the port and the reason; the system's error is
    the cause."""


def default_reply(info: RequestInfo, body: Mapping[str, Any]) -> Reply:
    """Echo the last user text (or a minimal instance of the requested JSON schema); when
    ``tool_choice`` requires a tool call, call the first declared function with a minimal
    instance of its parameters schema (or, with web search the only tool, search)."""
    text = last_user_text(info.fmt, body) or "OK"
    if info.must_call_tool and info.functions:
        name, schema = info.functions[0]
        arguments = example_for_schema(schema)
        return Reply(
            tool_calls=[ToolCallSpec(name, arguments if isinstance(arguments, dict) else {})]
        )
    if info.must_call_tool and info.has_web_search:
        return Reply(text=text, web_search=text)
    if info.schema is not None:
        return Reply.structured(example_for_schema(info.schema))
    if info.json_mode:
        return Reply.structured({"echo": text})
    return Reply(text=text)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False
    # socketserver's default listen backlog (5) drops connections when many clients
    # connect at once; a test running hundreds of concurrent calls needs room.
    request_queue_size = socket.SOMAXCONN

    def __init__(self, address: tuple[str, int], standin: KimiStandIn) -> None:
        self.standin = standin
        self.lock = threading.Lock()
        self.connections: set[socket.socket] = set()
        self.threads: set[threading.Thread] = set()
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(
            target=self._serve_connection,
            args=(request, client_address),
            name="kimi-standin-connection",
            daemon=True,
        )
        with self.lock:
            self.connections.add(request)
            self.threads.add(thread)
        thread.start()

    def _serve_connection(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except OSError:
            pass  # the client went away, or stop() closed the socket
        except Exception:
            logger.exception("stand-in: unexpected error while serving a connection")
        finally:
            self.shutdown_request(request)
            with self.lock:
                self.connections.discard(request)
                self.threads.discard(threading.current_thread())

    def close_connections(self) -> list[threading.Thread]:
        with self.lock:
            connections = list(self.connections)
            threads = list(self.threads)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        return threads


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "kimi-standin/1"
    sys_version = ""
    server: _Server

    def setup(self) -> None:
        super().setup()
        # Small writes (headers, then body; one SSE event at a time) must not wait for
        # Nagle's algorithm against the client's delayed ACKs (~40 ms each).
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        deck = self.server.standin._deck
        if deck.recorder is not None and logger.isEnabledFor(logging.DEBUG):
            # Recording, a request line may hold a real key (a query string).
            logger.debug("stand-in: %s", deck.scrub(format % args))
            return
        logger.debug("stand-in: " + format, *args)

    def _read_body(self, limit: int | None) -> bytes | None:
        """The request body, or None (left unread) as soon as it is known to exceed
        ``limit``: a too large body is never held in memory."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks: list[bytes] = []
            total = 0
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                total += size
                if limit is not None and total > limit:
                    return None
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if limit is not None and length > limit:
            return None
        return self.rfile.read(length) if length > 0 else b""

    def _drain(self, most: int) -> None:
        """Read and drop up to ``most`` bytes of a body left unread, so that a client still
        writing it can finish and read the answer (nothing is kept)."""
        while most > 0:
            data = self.rfile.read1(min(most, 1 << 16))
            if not data:
                return
            most -= len(data)

    def _dispatch(self) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        peer = (str(self.client_address[0]), int(self.client_address[1]))
        standin = self.server.standin
        limit = standin.body_limit(self.path)
        body = self._read_body(limit)
        if body is None:
            assert limit is not None
            self._refuse_large(standin.too_large(self.command, self.path, headers, peer, limit))
            return
        try:
            outcome = standin.handle(self.command, self.path, headers, body, peer)
        except Exception as exc:  # a stand-in bug: say so instead of dropping the connection
            logger.exception("stand-in: internal error")
            message = f"stand-in internal error: {exc!r}"
            outcome = Outcome(500, {"error": {"message": message, "type": "server_error"}})
        if outcome.delay > 0 and standin.wait(outcome.delay):
            self.close_connection = True
            return
        if outcome.disconnect:
            self.close_connection = True
            return
        try:
            if outcome.stream is not None:
                self._send_stream(outcome)
            else:
                self._send_json(outcome)
        except OSError:
            self.close_connection = True

    def _refuse_large(self, outcome: Outcome) -> None:
        """Answer a body over the limit, then drop what the client still sends of it (a
        declared length at most, else as much again as the limit, 1 MiB at least) and
        close: closing with unread bytes resets the connection, and the client may then
        lose the answer."""
        self.close_connection = True
        outcome.headers["Connection"] = "close"
        with contextlib.suppress(OSError):
            self._send_json(outcome)
            self.wfile.flush()
            declared = self.headers.get("Content-Length")
            limit = self.server.standin.body_limit(self.path) or 0
            self._drain(int(declared) if declared and declared.isdigit() else max(limit, 1 << 20))

    do_POST = _dispatch
    do_GET = _dispatch
    do_PUT = _dispatch
    do_DELETE = _dispatch
    do_PATCH = _dispatch

    def _send_json(self, outcome: Outcome) -> None:
        data = outcome.raw if outcome.raw is not None else dump_json(outcome.body).encode("utf-8")
        self.send_response(outcome.status)
        given = {name.lower() for name in outcome.headers}
        if "content-type" not in given:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in outcome.headers.items():
            if name.lower() != "content-length":
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, outcome: Outcome) -> None:
        script = outcome.stream
        assert script is not None
        standin = self.server.standin
        chunked = standin.sse_transport == "chunked"
        self.send_response(outcome.status)
        given = {name.lower() for name in outcome.headers}
        if "content-type" not in given:
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        if "cache-control" not in given:
            self.send_header("Cache-Control", "no-cache")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        for name, value in outcome.headers.items():
            self.send_header(name, value)
        self.end_headers()
        delays = script.delays
        pieces = script.pieces
        try:
            for n, piece in enumerate(pieces):
                delay = delays[n] if delays is not None else script.event_delay
                if delay > 0 and standin.wait(delay):
                    self.close_connection = True
                    return
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
        finally:
            close = getattr(pieces, "close", None)
            if close is not None:  # a relayed stream: stop reading the upstream
                close()
        if script.hold > 0 and self._hold(script, chunked):
            self.close_connection = True
            return
        if script.ending == "close":
            self.close_connection = True
            return
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _hold(self, script: StreamScript, chunked: bool) -> bool:
        """Keep the body open after the terminal event (hold_open); True when stopping."""
        standin = self.server.standin
        end = time.monotonic() + script.hold
        comment = b": keep-alive\n\n"
        while (left := end - time.monotonic()) > 0:
            if standin.wait(min(left, 0.05) if script.keep_alive else left):
                return True
            if script.keep_alive:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(comment), comment) if chunked else comment)
                self.wfile.flush()
        return False


class KimiStandIn:
    """An offline stand-in for the Kimi API (see the module docstring).

    Parameters:
        api_key: the only key accepted (``Authorization: Bearer <key>``).
        port: 0 picks a free port.
        sse_transport: ``"chunked"`` (HTTP/1.1 chunked, keep-alive) or ``"close"`` (the
            stream ends when the connection closes).
        chunk_chars: characters per streamed text / reasoning / arguments delta.
        event_delay: seconds to wait before each SSE event (0 in tests).
        caching: report prompt-cache reads and writes.
        report_stop_sequence: on Messages, report a stop-sequence hit as
            ``stop_reason: stop_sequence`` with the matched text (Anthropic style) instead
            of the documented ``end_turn`` with ``stop_sequence: null``.
        require_anthropic_version: also refuse a Messages request without
            ``anthropic-version``, as Anthropic's own API does (the Kimi documents do not
            require it, so neither does the spec nor, by default, the stand-in).
        secret: the key that signs Messages thinking blocks (random per server by default).
        strict_fields: refuse unknown top-level fields by name instead of discarding them
            (the service discards them; each request records what it discarded).
        schema_rules: ``"strict"`` (the default) refuses a JSON Schema (tool parameters,
            an output schema) that Moonshot's validator refuses at its strict level, with
            the service's 400 and words; ``"off"`` takes any, as an older or laxer endpoint
            did (for tests of that behaviour).
        max_body_bytes: the largest request body taken (413 above it); None: each
            format's limit from its spec (``x-kimi-max-body-bytes``, 100 MB). A smaller
            one keeps tests of the limit light.
        token_counter: the rule counting tokens, text in and tokens out (default
            :func:`~kimi_ext.testing.count_tokens`, ``ceil(len / 4)``), used for every
            count the stand-in makes: input and cache tokens, output tokens, and where the
            output limit cuts an answer. Give another rule to test code that estimates
            tokens against one it does not know. Read on every request: setting
            ``standin.token_counter`` between requests changes it.
        script: a JSON script file of rules, queued replies and faults to load
            (:meth:`load_script`; :class:`~kimi_ext.testing.script.ScriptError` when it is
            broken).

    Cassettes are not settings of the server: they wrap it, before :meth:`start`, with
    :meth:`replay` and :meth:`record` (each returns the stand-in)::

        with KimiStandIn().replay("cassettes/trip.json", strict=True) as standin: ...

    The cassette keywords this constructor took (``record=``, ``upstream=``, ``replay=``,
    ``timing=``, ``matcher=``, ``allow_repeats=``, ``strict_replay=``, ``scrubbers=``,
    ``record_headers=``) still work for this release, with a :class:`DeprecationWarning`.
    """

    def __init__(
        self,
        api_key: str = "test-key",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        sse_transport: str = "chunked",
        chunk_chars: int = 16,
        event_delay: float = 0.0,
        caching: bool = True,
        report_stop_sequence: bool = False,
        require_anthropic_version: bool = False,
        secret: bytes | None = None,
        strict_fields: bool = False,
        schema_rules: Literal["strict", "off"] = "strict",
        max_body_bytes: int | None = None,
        script: str | Path | None = None,
        token_counter: TokenCounter | None = None,
        **cassettes: Unpack[DeprecatedCassetteKeywords],
    ) -> None:
        unknown = next((k for k in cassettes if k not in _CASSETTE_KEYWORDS), None)
        if unknown is not None:
            raise TypeError(f"KimiStandIn() got an unexpected keyword argument {unknown!r}")
        if sse_transport not in ("chunked", "close"):
            raise ValueError("sse_transport must be 'chunked' or 'close'")
        # The cassettes in front of the server (none until replay() or record()).
        self._deck = Deck()
        self.strict_replay = False
        # The key it accepts and the address start() binds.
        self.api_key, self.host, self._port = api_key, host, port
        # How it writes streams, then which service behaviours it copies: every request
        # reads these afresh, so a test may change them between requests.
        self.sse_transport, self.chunk_chars, self.event_delay = (
            sse_transport, chunk_chars, event_delay
        )  # fmt: skip
        self.report_stop_sequence = report_stop_sequence
        self.require_anthropic_version = require_anthropic_version
        self.strict_fields = strict_fields
        if schema_rules not in ("strict", "off"):
            raise ValueError(f"schema_rules must be 'strict' or 'off', not {schema_rules!r}")
        self.schema_rules = schema_rules
        self.max_body_bytes = max_body_bytes
        self.responder: Responder | None = None
        self.token_counter: TokenCounter = token_counter or count_tokens
        self.cache = PromptCache(counter=self.token_counter)
        self.cache.enabled = caching
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._replies: collections.deque[Reply] = collections.deque()
        self._rules: list[Rule] = []
        self._faults: list[tuple[Fault, ...]] = []
        self._requests: list[RecordedRequest] = []
        self._pending_searches: dict[str, Reply] = {}
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._wake: tuple[socket.socket, socket.socket] | None = None
        self._stopping = threading.Event()
        self.script = Path(script) if script is not None else None
        if script is not None:
            self.load_script(script)
        if cassettes:
            _deprecated_cassettes(self, cassettes)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> KimiStandIn:
        """Bind and serve in a background thread; returns self. :class:`StandInError` when
        the address cannot be listened on (a busy port...)."""
        if self._server is not None:
            return self
        self._stopping.clear()
        try:
            server = _Server((self.host, self._port), self)
        except (OSError, OverflowError) as exc:
            # bind() raises OverflowError for a port outside 0-65535.
            reason = getattr(exc, "strerror", None) or str(exc)
            raise StandInError(f"cannot listen on {self.host}:{self._port}: {reason}") from exc
        self._server = server
        self._wake = socket.socketpair()
        self._thread = threading.Thread(
            target=self._serve, args=(server, self._wake[0]), name="kimi-standin", daemon=True
        )
        self._thread.start()
        return self

    def _serve(self, server: _Server, wake: socket.socket) -> None:
        """Accept connections until stop() writes to the wake-up socket."""
        with selectors.DefaultSelector() as selector:
            selector.register(server.socket, selectors.EVENT_READ)
            selector.register(wake, selectors.EVENT_READ)
            while not self._stopping.is_set():
                for key, _ in selector.select():
                    if key.fileobj is not server.socket or self._stopping.is_set():
                        continue
                    try:
                        request, address = server.get_request()
                    except OSError:
                        continue
                    server.process_request(request, address)

    def stop(self) -> None:
        """Stop serving, close every connection and join every thread (quick)."""
        server, thread, wake = self._server, self._thread, self._wake
        if server is None:
            return
        self._stopping.set()
        if wake is not None:
            with contextlib.suppress(OSError):
                wake[1].send(b"x")
        if thread is not None:
            thread.join(timeout=5)
        server.server_close()
        for handler in server.close_connections():
            handler.join(timeout=5)
        if wake is not None:
            for end in wake:
                end.close()
        self._server = None
        self._thread = None
        self._wake = None
        self._deck.close()

    def __enter__(self) -> KimiStandIn:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
        if self.strict_replay and exc_info[0] is None:
            self.check_cassettes()

    # ------------------------------------------------------------------ cassettes

    def replay(
        self,
        cassettes: str | Path | Sequence[str | Path],
        *,
        timing: Timing = "fast",
        matcher: Matcher | None = None,
        allow_repeats: bool = False,
        strict: bool = False,
    ) -> Self:
        """Answer from recorded cassettes; returns the stand-in (call before :meth:`start`).

        ``cassettes`` are cassette files or folders (:mod:`kimi_ext.testing.player`), read
        now (:class:`CassetteError` when one is missing or broken). A request still gets
        the usual checks, and a rule (:meth:`when`) still answers first; then the
        recording that matches it answers, and one that matches none gets a 400 naming
        the closest (with :meth:`record` too: it is forwarded and recorded, new
        episodes). ``timing``: ``"fast"`` (as fast as possible) or ``"recorded"`` (the
        recorded pacing); ``matcher``: how requests match recordings
        (:class:`~kimi_ext.testing.matching.Matcher`); ``allow_repeats``: a recording may
        answer again once every match was used; ``strict``: leaving the ``with`` block
        raises :class:`CassetteError` when an interaction went unused or a request matched
        none (:meth:`check_cassettes`).
        """
        self._not_started("replay")
        self._deck.load(cassettes, timing=timing, matcher=matcher, allow_repeats=allow_repeats)
        self.strict_replay = strict
        return self

    def record(
        self,
        cassette: str | Path,
        upstream: str,
        *,
        scrubbers: Sequence[UserScrubber] = (),
        keep_headers: Sequence[str] = (),
    ) -> Self:
        """Be a recording proxy; returns the stand-in (call before :meth:`start`).

        Every request goes to ``upstream`` (https, or http on this machine; ValueError
        otherwise) with the application's key, its answer is relayed as it arrives and
        stored, scrubbed, in ``cassette`` (a ``.json`` cassette file, or a folder: one file
        per exchange; :mod:`kimi_ext.testing.recorder`). With :meth:`replay` too, only what
        the cassettes do not answer is forwarded. ``scrubbers``: more secrets to keep out
        of recordings (strings, compiled patterns, functions of the text);
        ``keep_headers``: more response and request headers to keep (fnmatch patterns; a
        credential header is never kept).
        """
        self._not_started("record")
        self._deck.attach(cassette, upstream, scrubbers=scrubbers, keep_headers=keep_headers)
        return self

    def _not_started(self, what: str) -> None:
        if self._server is not None:
            raise RuntimeError(f"{what}() wraps the stand-in before start(), not while it runs")

    @property
    def recording(self) -> bool:
        """Whether requests are forwarded and recorded (:meth:`record`)."""
        return self._deck.recorder is not None

    @property
    def replaying(self) -> bool:
        """Whether recorded interactions answer (:meth:`replay`)."""
        return self._deck.player is not None

    def unused_interactions(self) -> list[Interaction]:
        """The recorded interactions no request took (none when not replaying)."""
        return self._deck.unused()

    @property
    def mismatches(self) -> list[str]:
        """The error message of each request no recording answered (a copy)."""
        return self._deck.mismatches

    def check_cassettes(self) -> None:
        """Raise :class:`CassetteError` naming every request no recording matched and every
        interaction that went unused (what ``replay(..., strict=True)`` checks on leaving)."""
        problems = self._deck.problems()
        if problems:
            raise CassetteError("cassette replay: " + "; ".join(problems))

    @property
    def running(self) -> bool:
        """True between start() and stop()."""
        return self._server is not None

    @property
    def port(self) -> int:
        """The port it listens on (RuntimeError before start())."""
        if self._server is None:
            raise RuntimeError("the stand-in is not running; call start() first")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (paths start with ``/v1/``)."""
        return f"http://{self.host}:{self.port}"

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when the server is stopping meanwhile."""
        return self._stopping.wait(seconds)

    # ------------------------------------------------------------------ scripting

    def queue(self, *replies: Reply | str) -> None:
        """Queue replies for the next requests, in order (a string is ``Reply(text=...)``)."""
        with self._lock:
            self._replies.extend(Reply(text=r) if isinstance(r, str) else r for r in replies)

    def when(
        self,
        match: str | Match | Callable[[RecordedRequest], bool],
        *replies: Reply | str,
        times: int | None = None,
        faults: Sequence[Fault] = (),
        name: str = "",
    ) -> Rule:
        """Answer every request ``match`` accepts with ``replies``, whatever the order
        requests arrive in (concurrent tests): returns the :class:`Rule` (``rule.hits``).

        ``match`` is a text the request's last user text must contain, a :class:`Match`
        (text, format, model, tool_result), or a predicate on the :class:`RecordedRequest`.
        Successive matching requests get successive replies, the last one repeating (none:
        the queue, responder or echo answers); ``faults`` act on each request the rule
        answers; after ``times`` requests (None: no limit) the rule stops answering. Rules
        are checked in the order added, for every valid request, before the queue.
        """
        rule = as_rule(match, replies, times=times, faults=faults, name=name)
        with self._lock:
            self._rules.append(rule)
        return rule

    @property
    def rules(self) -> list[Rule]:
        """The rules added so far (a copy), in the order they are checked."""
        with self._lock:
            return list(self._rules)

    def clear_rules(self) -> None:
        """Drop every rule."""
        with self._lock:
            self._rules.clear()

    def load_script(self, path: str | Path) -> Script:
        """Add the rules, queued replies and queued faults of the JSON script at ``path``
        (schema: :func:`kimi_ext.testing.script.parse_script`); returns what it added.
        Nothing is added when the file is broken (:class:`ScriptError`)."""
        script = load_script(path)
        with self._lock:
            self._rules.extend(script.rules)
            self._replies.extend(script.queue)
            self._faults.extend(script.faults)
        return script

    def fault(self, *faults: Fault, times: int = 1) -> None:
        """Queue faults. All ``faults`` of one call act together on one request; ``times``
        queues that many such entries (for that many requests)."""
        with self._lock:
            self._faults.extend([tuple(faults)] * times)

    def clear_faults(self) -> None:
        """Drop every fault not yet used."""
        with self._lock:
            self._faults.clear()

    @property
    def pending_replies(self) -> int:
        """How many queued replies are still to be sent."""
        with self._lock:
            return len(self._replies)

    @property
    def pending_faults(self) -> int:
        """How many injected faults are still to be used."""
        with self._lock:
            return len(self._faults)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far (a copy), oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def last_request(self) -> RecordedRequest:
        """The most recent request (LookupError when none arrived yet)."""
        with self._lock:
            if not self._requests:
                raise LookupError("no request received yet")
            return self._requests[-1]

    def reset(self) -> None:
        """Forget requests, rules, queued replies and faults, the responder and the cache."""
        with self._lock:
            self._replies.clear()
            self._rules.clear()
            self._faults.clear()
            self._requests.clear()
            self._pending_searches.clear()
        self._deck.forget()
        self.responder = None
        self.cache.clear()

    def sign_thinking(self, thinking: str) -> str:
        """The signature this server gives a thinking block with text ``thinking``."""
        digest = hmac.new(
            self._secret, thinking.encode("utf-8", "surrogatepass"), hashlib.sha256
        ).digest()
        return "Es" + base64.b64encode(digest).decode("ascii")

    def verify_thinking(self, thinking: str, signature: str) -> bool:
        """Whether ``signature`` is this stand-in's signature of ``thinking``, or one the
        recorded service gave it (when replaying)."""
        if hmac.compare_digest(self.sign_thinking(thinking), signature):
            return True
        return self._deck.knows_signature(thinking, signature)

    # ------------------------------------------------------------------ requests

    def body_limit(self, raw_path: str) -> int | None:
        """The largest request body taken on ``raw_path``: ``max_body_bytes``, else the
        limit of the path's format in its spec (Chat's for another path)."""
        if self.max_body_bytes is not None:
            return self.max_body_bytes
        return contract(PATHS.get(raw_path.split("?", 1)[0], "chat")).max_body_bytes

    def too_large(
        self,
        method: str,
        raw_path: str,
        headers: dict[str, str],
        client: tuple[str, int],
        limit: int,
    ) -> Outcome:
        """The 413 for a body over ``limit`` (recorded with an empty body: it is not read;
        no queued reply or fault is used)."""
        request_id = new_id("req_", 24)
        record = RecordedRequest(
            method, raw_path.split("?", 1)[0], headers, b"", None, request_id, time.time(), client
        )
        with self._lock:
            self._requests.append(record)
        # No provider document words this refusal: an OpenAI-style error that names the
        # limit (a front end answers it before any format is read).
        body = {
            "error": {
                "message": f"Request body too large: the limit is {limit:,} bytes",
                "type": "invalid_request_error",
                "code": "request_too_large",
            }
        }
        return Outcome(413, body, {"x-request-id": request_id})

    def handle(
        self,
        method: str,
        raw_path: str,
        headers: dict[str, str],
        body: bytes,
        client: tuple[str, int] = ("", 0),
    ) -> Outcome:
        """Answer one request (called by the HTTP layer; usable directly in unit tests)."""
        path = raw_path.split("?", 1)[0]
        request_id = new_id("req_", 24)
        try:
            parsed: Any = json.loads(body) if body else None
        except ValueError:
            parsed = None
        forwarded = None
        if self._deck.recorder is not None:  # the real key: kept out of the request's repr
            forwarded = headers
            headers = {k: REDACTED if k in NEVER_KEPT else v for k, v in headers.items()}
        record = RecordedRequest(
            method, path, headers, body, parsed, request_id, time.time(), client,
            forwarded=forwarded,
        )  # fmt: skip
        with self._lock:
            self._requests.append(record)
        fmt = PATHS.get(path)
        if self._deck.relays_all:
            return self._deck.forward(record, raw_path, fmt)  # a plain recording proxy
        stream = isinstance(parsed, dict) and parsed.get("stream") is True
        faults = self._take_faults(fmt, stream)
        outcome = self._answer(record, fmt, faults, raw_path)
        # Read after answering: the rule that answered may have added faults.
        slow = faults.first("slow_first_byte")
        outcome.delay = (slow.delay if slow is not None else 0.0) + (
            outcome.delay if outcome.verbatim else 0.0
        )
        if not outcome.verbatim:
            outcome.headers = {"x-request-id": request_id, **outcome.headers}
        return outcome

    def _take_faults(self, fmt: str | None, stream: bool) -> FaultPlan:
        with self._lock:
            for n, entry in enumerate(self._faults):
                chosen = tuple(f for f in entry if f.applies_to(fmt, stream))
                if chosen:
                    del self._faults[n]
                    return FaultPlan(chosen)
        return FaultPlan()

    def _error(self, fmt: str, err: ServiceError, record: RecordedRequest) -> Outcome:
        return Outcome(err.status, error_body(fmt, err, record.request_id))

    def _status_fault(
        self, record: RecordedRequest, fmt: str | None, faults: FaultPlan
    ) -> Outcome | None:
        """The answer a disconnect or error fault gives instead of a reply, if any."""
        if faults.has("disconnect"):
            return Outcome(disconnect=True)
        fault = faults.first("error")
        if fault is not None:
            kind = fault.error_type.get(fmt or "chat", "api_error")
            err = ServiceError(fault.status, fault.message, error_type=kind, code=fault.code)
            out = self._error(fmt or "chat", err, record)
            out.headers.update(fault.headers)
            return out
        return None

    def _answer(
        self, record: RecordedRequest, fmt: str | None, faults: FaultPlan, raw_path: str = ""
    ) -> Outcome:
        status = self._status_fault(record, fmt, faults)
        if status is not None:
            return status
        if fmt is None:
            return self._other_path(record)
        if record.method != "POST":
            return self._error(
                fmt, ServiceError(405, f"Method {record.method} not allowed"), record
            )
        # Recording, the application holds the real key: the upstream checks it.
        if self._deck.recorder is None and not self._authorized(record):
            err = auth_error(fmt)
            if "x-api-key" in record.headers and "authorization" not in record.headers:
                err = ServiceError(
                    401,
                    "The x-api-key header is not accepted: send the key as "
                    "`Authorization: Bearer <key>`",
                    error_type=err.error_type,
                    code=err.code,
                )
            return self._error(fmt, err, record)
        body = record.json
        if record.json is None and record.body:
            return self._error(fmt, ServiceError(400, "The request body is not valid JSON"), record)
        if not isinstance(body, dict):
            return self._error(
                fmt, ServiceError(400, "The request body must be a JSON object"), record
            )
        try:
            info = self._check(fmt, body, record.headers)
            record.discarded.extend(info.discarded)
            reply = self._continue_search(body) if fmt == "chat" else None
            if reply is None:
                taken = self._take_rule(record)
                if taken is not None:
                    rule, reply = taken
                    chosen = tuple(f for f in rule.faults if f.applies_to(fmt, info.stream))
                    if chosen:
                        faults.add(chosen)
                        status = self._status_fault(record, fmt, faults)
                        if status is not None:
                            return status
            if reply is None and self._deck.player is not None:
                return self._deck.replay(record, fmt, faults, raw_path)
            if reply is None:
                reply = self._reply_for(record, info, body)
            ctx = self._context(info, body, reply, faults)
        except ServiceError as err:
            return self._error(fmt, err, record)
        renderer = RENDERERS[fmt](ctx)
        if not info.stream:
            return Outcome(200, renderer.json())
        script = script_stream(renderer.events(), faults, renderer.error_event, self.event_delay)
        return Outcome(200, stream=script)

    def _authorized(self, record: RecordedRequest) -> bool:
        """``Authorization: Bearer <api_key>`` (the scheme is case-insensitive)."""
        scheme, _, token = record.headers.get("authorization", "").strip().partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.strip().encode("utf-8"), self.api_key.encode("utf-8")
        )

    def _other_path(self, record: RecordedRequest) -> Outcome:
        if record.path == "/v1/models" and record.method == "GET":
            if not self._authorized(record):
                return self._error("chat", auth_error("chat"), record)
            data = [{"id": m, "object": "model", "owned_by": "moonshot"} for m in known_models()]
            return Outcome(200, {"object": "list", "data": data})
        err = ServiceError(
            404,
            f"Not found: {record.method} {record.path}",
            error_type="resource_not_found_error",
            code="not_found",
        )
        return self._error("chat", err, record)

    def _check(self, fmt: str, body: dict[str, Any], headers: Mapping[str, str]) -> RequestInfo:
        strict = self.strict_fields
        schema_rules = self.schema_rules == "strict"
        if fmt == "chat":
            return check_chat(body, strict=strict, schema_rules=schema_rules)
        if fmt == "messages":
            if self.require_anthropic_version and not headers.get("anthropic-version"):
                raise ServiceError(400, "anthropic-version: header is required")
            return check_messages(
                body, headers, self.verify_thinking, strict=strict, schema_rules=schema_rules
            )
        return check_responses(body, strict=strict, schema_rules=schema_rules)

    def _take_rule(self, record: RecordedRequest) -> tuple[Rule, Reply | None] | None:
        """The first rule that matches ``record`` and still answers, with its reply."""
        if not self._rules:  # most tests add none: no lock on the common path
            return None
        with self._lock:
            rules = list(self._rules)
        for rule in rules:
            if rule.exhausted:
                continue
            # Outside the lock: a predicate may look at the stand-in (its requests...).
            try:
                matched = rule.match(record)
            except Exception as exc:
                raise _user_code_failed(rule.describe(), exc) from None
            if matched:
                taken, reply = rule.take()
                if taken:  # else a concurrent request took its last use
                    return rule, reply
        return None

    def _reply_for(self, record: RecordedRequest, info: RequestInfo, body: dict[str, Any]) -> Reply:
        """The next queued reply, else the responder's, else the default echo."""
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        responder = self.responder
        if responder is not None:
            try:
                reply = responder(record)
            except Exception as exc:
                raise _user_code_failed("the responder", exc) from None
            if reply is not None:
                return reply
        return default_reply(info, body)

    def _continue_search(self, body: Mapping[str, Any]) -> Reply | None:
        """The rest of a scripted reply whose Chat web search is being echoed back."""
        messages = body["messages"]
        issued: dict[str, str] = {}
        for message in messages:
            for call in message.get("tool_calls") or ():
                if call.get("type") == "builtin_function":
                    issued[call["id"]] = call["function"]["arguments"]
        tail = []
        for message in reversed(messages):
            if message.get("role") != "tool":
                break
            tail.append(message)
        for message in tail:
            arguments = issued.get(message["tool_call_id"])
            if arguments is None:
                continue
            content = message["content"]
            if not isinstance(content, str):
                content = "".join(p.get("text", "") for p in content)
            if content != arguments:
                raise ServiceError(
                    400,
                    f"the tool message for {message['tool_call_id']} must carry the call's "
                    "function.arguments unchanged",
                )
            try:
                search_id = json.loads(arguments)["search_result"]["search_id"]
            except (ValueError, KeyError, TypeError):
                continue
            with self._lock:
                pending = self._pending_searches.pop(search_id, None)
            if pending is not None:
                return pending
        return None

    def _context(
        self, info: RequestInfo, body: dict[str, Any], reply: Reply, faults: FaultPlan
    ) -> Context:
        # A model whose turns may lack reasoning (kimi-k3) answers Messages with text only.
        with_reasoning = info.fmt != "messages" or contract("messages").thinking_required(
            info.model
        )
        search = reply.search
        if info.fmt == "chat" and search is not None:
            reply = self._start_chat_search(reply)
        plan = plan_output(
            reply,
            budget=info.budget,
            stops=info.stops,
            with_reasoning=with_reasoning,
            search_id=new_id("ws_" if info.fmt == "responses" else "srvtoolu_", 24),
            counter=self.token_counter,
        )
        if info.fmt == "chat" and search is not None:
            plan = _as_builtin(plan)
        plan = _with_call_faults(plan, faults)
        group = info.cache_group
        cache = self.cache.use(
            info.fmt, body, model=info.model, group=group, ttl=info.cache_ttl,
            counter=self.token_counter,
        )  # fmt: skip
        return Context(
            info=info,
            body=body,
            plan=plan,
            cache=cache,
            faults=faults,
            sign=self.sign_thinking,
            created=int(time.time()),
            chunk_chars=self.chunk_chars,
            report_stop_sequence=self.report_stop_sequence,
            with_reasoning=with_reasoning,
        )

    def _start_chat_search(self, reply: Reply) -> Reply:
        spec = reply.search
        assert spec is not None
        search_id = "ws-" + secrets.token_hex(6)
        cost = sum(self.token_counter(r.url + r.title + r.snippet) for r in spec.results)
        arguments = dump_json(
            {"search_result": {"search_id": search_id}, "usage": {"total_tokens": cost}}
        )
        rest = Reply(text=reply.text, reasoning=SEARCH_REASONING, tool_calls=reply.tool_calls)
        with self._lock:
            self._pending_searches[search_id] = rest
        call = ToolCallSpec(WEB_SEARCH_CALL, arguments, id=f"{WEB_SEARCH_CALL}:0")
        return Reply(text="", reasoning=reply.reasoning, tool_calls=[call])


def _user_code_failed(what: str, exc: Exception) -> ServiceError:
    """One log line naming the exception and where it was raised (a bug in a test's
    responder or rule, not the stand-in's: no traceback per request), and the 500 the
    client gets."""
    where = ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" at {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    logger.error("stand-in: %s raised %s%s; answering 500", what, text, where)
    return ServiceError(500, f"stand-in: {what} raised {text}", error_type="responder_error")


def _with_call_faults(plan: PlannedOutput, faults: FaultPlan) -> PlannedOutput:
    """The plan with the tool-call faults applied (raw control characters, a cut call)."""
    calls = plan.tool_calls
    if faults.has("control_characters"):
        calls = [replace(c, arguments=raw_control_characters(c.arguments)) for c in calls]
    if faults.has("cut_tool_call") and calls:
        last = calls[-1]
        calls = [*calls[:-1], cut_call(last, len(last.arguments) // 2)]
        return replace(plan, tool_calls=calls, finish="length", stop_sequence=None)
    return replace(plan, tool_calls=calls) if calls is not plan.tool_calls else plan


_ESCAPE = re.compile(r"\\(.)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_RAW = {"n": "\n", "t": "\t", "r": "\r"}


def raw_control_characters(arguments: str) -> str:
    """``arguments`` with the ``\\n``, ``\\t`` and ``\\r`` escapes inside its JSON strings
    written as the raw characters (what Kimi has sent; not strict JSON)."""
    return _STRING.sub(lambda s: _ESCAPE.sub(lambda m: _RAW.get(m[1], m[0]), s[0]), arguments)


def _as_builtin(plan: PlannedOutput) -> PlannedOutput:
    calls = [replace(c, type="builtin_function") for c in plan.tool_calls]
    return replace(plan, tool_calls=calls, search=None)


_CASSETTE_KEYWORDS = frozenset(DeprecatedCassetteKeywords.__annotations__)


def _deprecated_cassettes(
    standin: KimiStandIn, cassettes: DeprecatedCassetteKeywords, stacklevel: int = 3
) -> None:
    """Wrap ``standin`` as the old cassette keywords say, with a DeprecationWarning."""
    record, upstream = cassettes.get("record"), cassettes.get("upstream")
    replay = cassettes.get("replay")
    if (record is None) != (upstream is None):
        raise ValueError("record= and upstream= go together: where to store, and what to record")
    named = ", ".join(f"{k}=" for k in cassettes)
    warnings.warn(
        f"KimiStandIn({named}) is deprecated: wrap the stand-in instead, "
        "KimiStandIn(...).replay(path, timing=, matcher=, allow_repeats=, strict=) and "
        ".record(path, upstream, scrubbers=, keep_headers=)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    if replay is not None:
        standin.replay(
            replay,
            timing=cassettes.get("timing", "fast"),
            matcher=cassettes.get("matcher"),
            allow_repeats=cassettes.get("allow_repeats", False),
        )
    standin.strict_replay = cassettes.get("strict_replay", False)
    if record is not None and upstream is not None:
        standin.record(
            record,
            upstream,
            scrubbers=cassettes.get("scrubbers", ()),
            keep_headers=cassettes.get("record_headers", ()),
        )


def serve(standin: KimiStandIn) -> list[str]:
    """Run ``standin`` in the foreground until Ctrl-C, printing its base URL and key (and
    what it records, replays and scripts).

    :class:`StandInError` when its port cannot be listened on. Returns the problems a strict
    replay (``replay(..., strict=True)``) found: requests no recording matched,
    interactions left unused.
    """
    standin.start()
    deck = standin._deck
    try:
        print(f"Kimi stand-in listening on {standin.base_url}", flush=True)
        if deck.recorder is not None:
            upstream, target = deck.recorder.upstream, deck.recorder.target
            print(f"Recording: {upstream} -> {target} (the key is forwarded)", flush=True)
        else:
            print(f"API key: {standin.api_key}", flush=True)
        if deck.player is not None:
            count = len(standin.unused_interactions())
            sources = ", ".join(str(s) for s in deck.player.sources)
            print(f"Replaying: {sources} ({count} interactions)", flush=True)
        if standin.script is not None:
            rules, queued = len(standin.rules), standin.pending_replies
            print(f"Script: {standin.script} ({rules} rules, {queued} queued replies)", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
        while not standin.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        standin.stop()
    return deck.problems() if standin.strict_replay else []


def serve_forever(
    port: int = 0,
    api_key: str = "test-key",
    script: str | Path | None = None,
    **cassettes: Unpack[DeprecatedCassetteKeywords],
) -> list[str]:
    """Run a stand-in in the foreground until Ctrl-C, printing its base URL and key.

    ``script`` is a JSON script file (:meth:`KimiStandIn.load_script`); it is read before
    the port is bound, so a broken one raises :class:`ScriptError` and serves nothing; a port
    that cannot be listened on raises :class:`StandInError`. To serve cassettes, wrap a
    stand-in and :func:`serve` it: ``serve(KimiStandIn(port=8765).replay("cassettes"))``
    (the cassette keywords this function took are deprecated, as the constructor's).
    """
    standin = KimiStandIn(api_key=api_key, port=port, script=script)
    if cassettes:
        _deprecated_cassettes(standin, cassettes)
    return serve(standin)
