"""Where a request is sent and retried: one loop for plain calls and for opening streams.

:class:`SyncSender` and :class:`AsyncSender` share every decision (:class:`_SenderBase`);
only the waiting and the I/O differ. A call's attempts share one ``Idempotency-Key``.
When the default base URL cannot be reached, the fallback address is used from then on.

Limits every call keeps: a success body (decompressed) holds at most ``max_body_size``
bytes and an error body is read up to ``MAX_ERROR_BODY`` bytes (held once); with a
``deadline`` the call, its retries and (for a stream) the whole stream end by then. Once a
request has been sent, its key is redacted from the kept ``httpx.Request``, so results and
errors that keep it can be logged or pickled.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import httpx

from kimi_ext._core.transport import httpx_compat
from kimi_ext._core.transport.config import DEFAULT_MAX_BODY_SIZE, MAX_ERROR_BODY
from kimi_ext._core.transport.httpx_compat import drop_body, set_body
from kimi_ext._core.transport.log import SENSITIVE_HEADERS, logger, redact_headers
from kimi_ext._core.transport.request import UNSET_TIMEOUT, Prepared
from kimi_ext._core.transport.retries import RetryPolicy, new_idempotency_key, retry_after_seconds
from kimi_ext._core.transport.secret import Secret, redact, redact_bytes
from kimi_ext._core.transport.version import __version__
from kimi_ext._core.transport.wire_errors import status_error_from_response
from kimi_ext.errors import (
    APIConnectionError,
    APIResponseError,
    APIStatusError,
    APITimeoutError,
    ClientConfigError,
    ClientStateError,
    KimiError,
)

if TYPE_CHECKING:
    from kimi_ext._core.transport.hooking import CallHooks

USER_AGENT = f"kimi-ext/{__version__}"


def check_base_url(url: str, *, allow_insecure_http: bool, name: str = "base_url") -> str:
    """Refuse plain http to anything but this machine, unless explicitly allowed; a URL
    httpx cannot parse is a ClientConfigError (naming the option ``name``)."""
    if not isinstance(url, str):
        raise ClientConfigError(f"{name}={url!r}: must be a string")
    try:
        parsed = httpx.URL(url)
        host = parsed.host
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise ClientConfigError(f"{name} {url!r}: not a valid URL ({exc})") from None
    if not host and parsed.scheme in ("http", "https"):
        raise ClientConfigError(f"{name} {url!r}: has no host")
    if parsed.scheme not in ("http", "https"):
        raise ClientConfigError(f"{name} {url!r}: scheme must be https (or http to localhost)")
    # httpx takes these; the socket layer would refuse them at every call.
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ClientConfigError(f"{name} {url!r}: port {parsed.port} is not in 1-65535")
    labels = parsed.raw_host.removesuffix(b".").split(b".")
    if len(parsed.raw_host) > 253 or not all(0 < len(label) <= 63 for label in labels):
        raise ClientConfigError(
            f"{name} {url!r}: not a host name (at most 253 characters, in labels of "
            "1 to 63 between dots)"
        )
    if parsed.scheme == "http" and not allow_insecure_http and not is_loopback(host):
        raise ClientConfigError(
            f"{name} {url!r}: plain http would send the API key unencrypted; use https, "
            "or pass allow_insecure_http=True if you really mean it"
        )
    return url.rstrip("/")


def is_loopback(host: str) -> bool:
    """True for localhost and loopback IP addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_http_origins(urls: Sequence[str]) -> list[str]:
    """The ``http://host:port`` origins of plain-http loopback URLs: these must never go
    through a proxy from the environment (it would see the key in clear)."""
    out = []
    for url in urls:
        parsed = httpx.URL(url)
        if parsed.scheme == "http" and is_loopback(parsed.host):
            port = parsed.port or 80
            host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
            out.append(f"http://{host}:{port}")
    return out


def connection_error(
    exc: httpx.RequestError, request: httpx.Request | None, secret: Secret | str | None = None
) -> APIConnectionError:
    """Our error for an httpx transport failure, or a body httpx could not decode (the
    original stays as ``__cause__``, except for a local protocol error, whose text may
    quote a header). A local protocol error is marked ``local`` and never retried."""
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"Request timed out ({type(exc).__name__}).", request=request)
    if isinstance(exc, httpx.LocalProtocolError | httpx.UnsupportedProtocol):
        # h11 refused what we would send (it quotes the header value, which may be the
        # key): deterministic, so a retry would fail the same way.
        error = APIConnectionError(
            f"Connection error ({type(exc).__name__}): the request could not be sent "
            "as built (a header or the URL is not valid HTTP)",
            request=request,
        )
        error.local = True  # type: ignore[attr-defined]
        return error
    text = redact(f"Connection error ({type(exc).__name__}): {exc}", secret)
    return APIConnectionError(text, request=request)


# What the network layer under httpx may raise unmapped: a socket call refusing its
# arguments (OverflowError for a port, UnicodeError from the IDNA codec), or, async, anyio's
# group of such errors from its connection attempts. A bare OSError is httpcore's to map: one
# that reaches the sender came from the caller's event hook, and ends the call as it is.
_UNMAPPED = (OverflowError, UnicodeError, ExceptionGroup)


def _request_error(exc: BaseException, request: httpx.Request) -> httpx.RequestError | None:
    """``exc`` as the httpx error it stands for (a connection failure for the network
    layer's own), or None when it is not a network failure (it is then raised as it is)."""
    if isinstance(exc, httpx.RequestError):
        return exc
    leaves = exc.exceptions if isinstance(exc, ExceptionGroup) else [exc]
    if not all(isinstance(leaf, OSError | OverflowError | UnicodeError) for leaf in leaves):
        return None
    error = httpx.ConnectError(f"{type(leaves[0]).__name__}: {leaves[0]}", request=request)
    error.__cause__ = exc
    return error


class CallState:
    """One call's state, made by its caller (``start``) and passed to whatever needs it
    (each send and retry, the stream that reads the reply): the idempotency key and retry
    count, the deadline, the body and line cap, the hooks, and whether the deadline has
    passed. Nothing of it rides on the response.

    In the sync client a watchdog thread shuts the socket down when the deadline passes,
    so a read blocked on a trickling server returns at once.
    """

    __slots__ = (
        "_lock", "_timer", "call", "deadline", "end", "expired", "key", "max_line", "response",
        "retries",
    )  # fmt: skip

    def __init__(self, deadline: float | None, end: float | None, max_line: int) -> None:
        self.key = new_idempotency_key()  # shared by every attempt of the call
        self.retries = 0  # the retries done so far (a stream's own included)
        self.deadline = deadline
        self.end = end  # time.monotonic() at which the call must be over
        self.max_line = max_line
        self.expired = False
        self.response: httpx.Response | None = None
        self.call: CallHooks | None = None  # the call's hooks (None: the client has none)
        self._timer: threading.Timer | None = None
        # Only a call with a deadline has a watchdog to race with (most calls: none).
        self._lock = threading.Lock() if end is not None else None

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without one)."""
        return None if self.end is None else self.end - time.monotonic()

    def arm(self, response: httpx.Response) -> None:
        """Watch ``response`` (sync only): at the deadline, shut its socket down."""
        self.response = response
        left = self.remaining()
        if left is None:
            return
        timer = threading.Timer(max(left, 0.0), self._fire)
        timer.daemon = True
        self._timer = timer
        timer.start()

    def disarm(self) -> None:
        """The response is being closed: the watchdog must not touch the socket after
        this (it may go back to the pool and serve another call)."""
        if self._lock is None:
            return
        with self._lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    def _fire(self) -> None:
        if self._lock is None:  # never: only a call with a deadline is armed
            return
        with self._lock:
            if self._timer is None or self.response is None:
                return
            self._timer = None
            self.expired = True
            _shut_down(self.response.extensions.get("network_stream"))


def _shut_down(stream: Any) -> None:
    """Shut down the socket under an httpcore network stream (None: nothing to do)."""
    sock = stream.get_extra_info("socket") if stream is not None else None
    if isinstance(sock, socket.socket):
        # The plain socket's shutdown, also under TLS: it wakes a blocked read.
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)


# Trace events (httpcore's documented "trace" extension) whose return value is the
# network stream of a connection being opened (the last one is the one read from).
_STREAM_EVENTS = ("connect_tcp.complete", "start_tls.complete", "connect_unix_socket.complete")


class _HeadPhase:
    """One sync attempt's send and response head, run in a worker thread so that the
    caller can return at the deadline (only when the call has one).

    At the deadline the caller abandons it: the socket of a connection this attempt
    opened (seen through the trace extension) is shut down at once, so the worker ends
    too; a response that still arrives is closed unread, so its connection is closed,
    never put back in the pool. A reused keep-alive connection's socket cannot be known
    without httpcore internals: its worker ends when the server answers or closes, or
    at the read timeout, and that connection is closed then.
    """

    __slots__ = ("_abandoned", "_lock", "done", "error", "response", "stream")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._abandoned = False
        self.done = threading.Event()
        self.response: httpx.Response | None = None
        self.error: BaseException | None = None
        self.stream: Any = None

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        """The trace callback: keep the stream of a connection as it is opened."""
        if not event.endswith(_STREAM_EVENTS):
            return
        stream = info.get("return_value")
        with self._lock:
            self.stream = stream
            abandoned = self._abandoned
        if abandoned:  # opened after the deadline passed
            _shut_down(stream)

    def run(self, http: httpx.Client, request: httpx.Request) -> None:
        """The worker: send, keep the response (or the error) unless abandoned."""
        try:
            response = http.send(request, stream=True, follow_redirects=False)
        except BaseException as exc:  # handed to the caller, who re-raises it
            with self._lock:
                if not self._abandoned:
                    self.error = exc
            del exc
            self.done.set()
            return
        with self._lock:
            abandoned = self._abandoned
            if not abandoned:
                self.response = response
        if abandoned:
            response.close()  # unread: its connection is closed, not reused
        self.done.set()

    def abandon(self) -> None:
        """The caller has gone (the deadline passed): cut what can be cut."""
        with self._lock:
            self._abandoned = True
            stream, response = self.stream, self.response
            self.response = self.error = None
        if response is not None:  # it arrived just as the wait ended
            response.close()
        else:
            _shut_down(stream)


def deadline_error(state: CallState, request: httpx.Request | None) -> APITimeoutError:
    """The error for a call whose deadline has passed."""
    return APITimeoutError(
        f"Request timed out (the call's deadline of {state.deadline:g} s passed).",
        request=request,
    )


def _clamp_timeout(timeout: Any, left: float) -> httpx.Timeout:
    """``timeout`` with no part longer than ``left`` seconds."""
    base = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
    left = max(left, 0.001)

    def part(value: float | None) -> float:
        return left if value is None else min(value, left)

    return httpx.Timeout(
        connect=part(base.connect), read=part(base.read), write=part(base.write),
        pool=part(base.pool),
    )  # fmt: skip


_SENSITIVE_RAW = frozenset(name.encode() for name in SENSITIVE_HEADERS)


def _scrub(request: httpx.Request, key: bytes | None) -> None:
    """Redact the key from a request that has been sent (results and errors keep it).
    ``key`` is the key as bytes (None when too short to search for)."""
    names = [
        name
        for name, value in request.headers.raw
        if name.lower() in _SENSITIVE_RAW or (key is not None and key in value)
    ]
    for name in names:
        request.headers[name.decode("latin-1")] = "<redacted>"


def _scrub_response(response: httpx.Response, key: bytes | None) -> None:
    """Redact response headers that echo the key (a gateway's debug header, say)."""
    if key is None:
        return
    names = [name for name, value in response.headers.raw if key in value]
    for name in names:
        response.headers[name.decode("latin-1")] = "<redacted>"


def _raw_is_decoded(response: httpx.Response) -> bool:
    """Whether the raw body chunks are already what ``iter_bytes`` would give: no
    Content-Encoding to undo, and not read yet (a transport may hand over a response whose
    content is set). Measured: iter_bytes costs ~3 us more per small body than iter_raw."""
    return not response.is_stream_consumed and "content-encoding" not in response.headers


class _SenderBase:
    """Configuration and the per-attempt decisions shared by both senders."""

    def __init__(
        self,
        *,
        api_key: Secret | str,
        base_urls: Sequence[str],
        timeout: httpx.Timeout,
        policy: RetryPolicy,
        default_headers: Mapping[str, str] | None,
        deadline: float | None = None,
        max_body_size: int = DEFAULT_MAX_BODY_SIZE,
    ) -> None:
        self._api_key = api_key if isinstance(api_key, Secret) else Secret(api_key)
        self.base_urls = list(base_urls)
        self.base_index = 0
        self.timeout = timeout
        self.policy = policy
        self.default_headers = dict(default_headers or {})
        self.deadline = deadline
        self.max_body_size = max_body_size
        self._urls: dict[str, httpx.URL] = {}

    def url_for(self, path: str) -> httpx.URL:
        """The URL of ``path`` on the current base URL, parsed once (parsing a URL string
        costs httpx about as much as the rest of building a small request)."""
        text = self.base_url + path
        url = self._urls.get(text)
        if url is None:
            url = self._urls[text] = httpx.URL(text)
        return url

    @property
    def base_url(self) -> str:
        return self.base_urls[self.base_index]

    def start(self, prepared: Prepared, call: CallHooks | None = None) -> CallState:
        """The state of one call, made by its caller and passed to each step that needs
        it (the sends, the stream): its deadline (per call, else the client's), caps and
        hooks (``call``; None: the client has none)."""
        deadline = self.deadline if prepared.deadline is UNSET_TIMEOUT else prepared.deadline
        if not isinstance(deadline, int | float):
            deadline = None
        end = None if deadline is None else time.monotonic() + deadline
        state = CallState(deadline, end, self.max_body_size)
        state.call = call
        return state

    def build(
        self,
        http: httpx.Client | httpx.AsyncClient,
        prepared: Prepared,
        key: str,
        attempt: int,
        left: float | None = None,
    ) -> httpx.Request:
        headers = {
            "Authorization": f"Bearer {self._api_key.get()}",
            "Content-Type": "application/json",
            "Accept": "text/event-stream" if prepared.stream else "application/json",
            "User-Agent": USER_AGENT,
            "Idempotency-Key": key,
            "X-Kimi-Retry-Count": str(attempt),
            **self.default_headers,
            **prepared.headers,
        }
        timeout = self.timeout if prepared.timeout is UNSET_TIMEOUT else prepared.timeout
        if left is not None:
            timeout = _clamp_timeout(timeout, left)  # no single wait outlasts the deadline
        return httpx_compat.build_request(
            http, prepared.method, self.url_for(prepared.path), prepared.content, headers,
            timeout,
        )  # fmt: skip

    def switch_base_url(self, exc: httpx.RequestError) -> bool:
        """Move to the next base URL when this one cannot be reached at all."""
        if not isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
            return False
        if self.base_index + 1 >= len(self.base_urls):
            return False
        logger.warning(
            "cannot reach %s; switching to %s", self.base_url, self.base_urls[self.base_index + 1]
        )
        self.base_index += 1
        return True

    def next_delay(
        self,
        prepared: Prepared,
        error: KimiError,
        retries_done: int,
        headers: httpx.Headers | None,
        state: CallState | None = None,
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up (no retry left,
        not retryable, a server hint beyond the cap, or the deadline would pass)."""
        limit = self.policy.max_retries if prepared.max_retries is None else prepared.max_retries
        if retries_done >= limit or not self.policy.should_retry(error):
            return None
        delay = self.policy.delay(retries_done, headers)
        if delay is None:
            logger.info("not retrying %s %s: the server asks to wait longer than %gs",
                        prepared.method, prepared.path, self.policy.max_retry_after)  # fmt: skip
            return None
        left = state.remaining() if state is not None else None
        if left is not None and delay >= left:
            return None
        logger.info(
            "retrying %s %s in %.2fs after %s", prepared.method, prepared.path, delay, error
        )
        return delay

    def status_error(
        self, response: httpx.Response, content: bytes | None = None, cut: bool = False
    ) -> APIStatusError:
        error = status_error_from_response(
            response, secret=self._api_key, content=content, cut_at=MAX_ERROR_BODY if cut else None
        )
        error.retry_after = retry_after_seconds(response.headers)
        return error

    def failed(
        self, exc: httpx.RequestError, request: httpx.Request, state: CallState
    ) -> tuple[KimiError, BaseException | None]:
        """The error (and the cause to chain) for a transport failure of one attempt."""
        left = state.remaining()
        if state.expired or (left is not None and left <= 0):
            return deadline_error(state, request), exc
        error = connection_error(exc, request, self._api_key)
        # A local protocol error's text quotes what h11 refused (maybe the key): not chained.
        return error, (None if getattr(error, "local", False) else exc)

    def too_large(self, response: httpx.Response, limit: int) -> APIResponseError:
        return APIResponseError(
            f"the response body is larger than max_body_size={limit} bytes (decompressed); "
            "it was not read further (raise max_body_size if this answer is real)",
            response=response,
            body="",
        )

    def log(self, request: httpx.Request, response: httpx.Response, started: float) -> None:
        if logger.isEnabledFor(20):
            logger.info(
                "%s %s -> %d in %.0f ms", request.method, request.url, response.status_code,
                (time.perf_counter() - started) * 1000,
            )  # fmt: skip
            secret = self._api_key
            logger.debug("request headers: %s", redact_headers(request.headers.items(), secret))
            logger.debug("response headers: %s", redact_headers(response.headers.items(), secret))


def parse_json_body(response: httpx.Response, secret: Secret | str) -> dict[str, Any]:
    """The JSON object of a success response; APIResponseError (with the text) otherwise."""
    try:
        data = json.loads(response.content)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        # The body is kept (nothing lost), but not a key it may echo.
        set_body(response, redact_bytes(response.content, secret))
        text = response.text
        head = redact(text[:1000], secret)[:200]  # redacted before it is cut
        raise APIResponseError(
            f"expected a JSON body, got {head!r}", response=response, body=text
        ) from None
    if not isinstance(data, dict):
        raise APIResponseError("expected a JSON object", response=response, body=response.text)
    return data


# What one attempt gives: the response to use, or (error, cause, headers) to retry or
# raise, or None to try again at once (on the fallback base URL).
_Outcome = httpx.Response | tuple[KimiError, BaseException | None, httpx.Headers | None] | None


def _discard(error: KimiError) -> None:
    """Drop the body of an attempt that will be retried, now: httpx responses sit in a
    reference cycle, so it would otherwise be held until the next garbage collection."""
    response = getattr(error, "response", None)
    if isinstance(response, httpx.Response):
        drop_body(response)
    if isinstance(error, APIStatusError):
        error.body = None


def _headers_of(error: APIStatusError) -> httpx.Headers | None:
    """The headers of the response that reported ``error`` (its retry hints), if any."""
    return error.response.headers if error.response is not None else None


def _give_up(error: KimiError, cause: BaseException | None) -> KimiError:
    """``error``, chained to ``cause`` as ``raise error from cause`` would."""
    if cause is not None and cause is not error:
        error.__cause__ = cause
    error.__suppress_context__ = True
    return error


# twin: AsyncSender
class SyncSender(_SenderBase):
    """Sends with an ``httpx.Client``, retrying per the policy."""

    # twin: differs (the default sleep: time.sleep; async: asyncio.sleep, imported late)
    def __init__(
        self, http: httpx.Client, *, sleep: Callable[[float], None] = time.sleep, **config: Any
    ) -> None:
        super().__init__(**config)
        self.http = http
        self.sleep = sleep

    def send(
        self, prepared: Prepared, state: CallState, *, failure: APIStatusError | None = None
    ) -> httpx.Response:
        """Send the call (``state``, from :meth:`start`) until success or the policy gives
        up. With ``prepared.stream`` the body is left unread for the caller (who must close
        the response). The call's hooks (``state.call``) are told of each attempt, retry and
        fallback.

        ``failure``: a failure that the call's stream received before any event was
        delivered; it is decided on as a failed attempt of that call (the same policy,
        retry count, key and deadline): the next attempt's response, or the error raised
        when it is not retried."""
        if self.http.is_closed:
            # twin: differs (the message names the with block)
            raise ClientStateError("the client was closed (close() or its with block); "
                                   "make a new one")  # fmt: skip
        pending = None if failure is None else (failure, None, _headers_of(failure))
        while True:
            if pending is None:
                # twin: differs (async: the deadline bounds the whole attempt here)
                outcome = self._attempt(prepared, state.key, state.retries, state)
                if outcome is None:
                    continue
                if isinstance(outcome, httpx.Response):
                    return outcome
            else:
                outcome, pending = pending, None
            error, cause, headers = outcome
            del outcome  # the failed attempt's body is not held through the next one
            delay = self.next_delay(prepared, error, state.retries, headers, state)
            if delay is None:
                raise _give_up(error, cause)
            if state.call is not None:
                state.call.retry(error, delay)
            _discard(error)
            del error, cause, headers
            self.sleep(delay)
            state.retries += 1

    def _attempt(
        self, prepared: Prepared, key: str, retries_done: int, state: CallState
    ) -> _Outcome:
        left = state.remaining()
        if left is not None and left <= 0:
            return deadline_error(state, None), None, None
        request = self.build(self.http, prepared, key, retries_done, left)
        call = state.call
        if call is not None:
            call.request(request, retries_done)
        started = time.perf_counter()
        try:
            # twin: differs (the deadline bounds the head in a thread; async: in send)
            if left is None:
                response = self.http.send(request, stream=True, follow_redirects=False)
            else:
                response = self._send_by_deadline(request, state, left)
        except (httpx.RequestError, *_UNMAPPED) as caught:
            exc = _request_error(caught, request)
            if exc is None:
                raise
            _scrub(request, self._api_key.searched_bytes())
            if self.switch_base_url(exc):
                if call is not None:
                    call.fallback(self.base_urls[self.base_index - 1], self.base_url, exc)
                return None
            error, cause = self.failed(exc, request, state)
            return error, cause, None
        except RuntimeError as exc:
            if self.http.is_closed:
                raise ClientStateError("the client was closed while a call was starting") from exc
            raise
        searched = self._api_key.searched_bytes()
        _scrub(request, searched)
        _scrub_response(response, searched)
        self.log(request, response, started)
        if call is not None:
            call.response(response, retries_done)
        # twin: differs (the deadline's timer closes a sync body; async reads are bounded)
        state.arm(response)
        success = response.is_success
        if success and prepared.stream:
            return response  # the stream disarms the watchdog when it closes
        limit = state.max_line if success else MAX_ERROR_BODY
        try:
            pieces: list[bytes] = []
            size = 0
            chunks = response.iter_raw() if _raw_is_decoded(response) else response.iter_bytes()
            for chunk in chunks:
                size += len(chunk)
                if size > limit:
                    break
                pieces.append(chunk)
        except httpx.RequestError as exc:
            error, cause = self.failed(exc, request, state)
            return error, cause, None
        finally:
            # twin: differs (as state.arm above)
            state.disarm()
            response.close()
        content = b"".join(pieces)
        del pieces
        if not success:
            content = redact_bytes(content, self._api_key)  # an error may echo the key
        set_body(response, content)  # what response.read() would have set
        if success:
            if size > limit:
                return self.too_large(response, limit), None, None
            return response
        error = self.status_error(response, content, cut=size > limit)
        return error, None, response.headers

    # twin: differs (the sync way to bound the head by the deadline)
    def _send_by_deadline(
        self, request: httpx.Request, state: CallState, left: float
    ) -> httpx.Response:
        """``http.send`` for a call with a deadline: the head phase (connecting, sending,
        the status line and headers) runs in a worker thread, so a server that trickles
        the head is left at the deadline (httpx.ReadTimeout, with ``state.expired``)."""
        phase = _HeadPhase()
        request.extensions["trace"] = phase.trace
        worker = threading.Thread(
            target=phase.run, args=(self.http, request), name="kimi-ext-head", daemon=True
        )
        worker.start()
        finished = False
        try:
            finished = phase.done.wait(max(left, 0.0))
        finally:
            if not finished:  # the deadline passed, or the caller was interrupted
                phase.abandon()
        if phase.error is not None:
            error, phase.error = phase.error, None
            try:
                raise error
            finally:
                del error
        if phase.response is None:  # the deadline passed before the head arrived
            state.expired = True
            raise httpx.ReadTimeout("the call's deadline passed", request=request)
        return phase.response

    def close(self) -> None:
        self.http.close()


# twin: SyncSender
class AsyncSender(_SenderBase):
    """Sends with an ``httpx.AsyncClient``, retrying per the policy."""

    # twin: differs (the default sleep: asyncio.sleep, imported late; the loop it is bound to)
    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        sleep: Callable[[float], Any] | None = None,
        **config: Any,
    ) -> None:
        super().__init__(**config)
        self.http = http
        if sleep is None:
            import asyncio  # here, not at the top: sync users never pay its import time

            sleep = asyncio.sleep
        self.sleep = sleep
        self._loop: Any = None

    # twin: differs (only async connections belong to an event loop)
    def _check_loop(self) -> None:
        """Refuse a second event loop: the pool's connections belong to the first one."""
        import asyncio

        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif loop is not self._loop:
            raise ClientStateError(
                "this AsyncKimi was first used on another event loop; make one client per "
                "event loop (for example inside each asyncio.run()), since its connections "
                "belong to the loop that opened them"
            )

    async def send(
        self, prepared: Prepared, state: CallState, *, failure: APIStatusError | None = None
    ) -> httpx.Response:
        """Async twin of :meth:`SyncSender.send`."""
        if self.http.is_closed:
            # twin: differs (the message names the async with block)
            raise ClientStateError("the client was closed (close() or its async with block); "
                                   "make a new one")  # fmt: skip
        # twin: differs (see _check_loop)
        self._check_loop()
        pending = None if failure is None else (failure, None, _headers_of(failure))
        while True:
            if pending is None:
                # twin: differs (the deadline bounds the whole attempt; sync: the head, in _attempt)
                left = state.remaining()
                # twin: differs (as above)
                if left is None:
                    outcome = await self._attempt(prepared, state.key, state.retries, state)
                else:
                    import asyncio

                    try:
                        # The whole attempt (head and body) ends by the deadline.
                        async with asyncio.timeout(max(left, 0.0)):
                            outcome = await self._attempt(prepared, state.key, state.retries, state)
                    except TimeoutError:
                        state.expired = True
                        outcome = deadline_error(state, None), None, None
                if outcome is None:
                    continue
                if isinstance(outcome, httpx.Response):
                    return outcome
            else:
                outcome, pending = pending, None
            error, cause, headers = outcome
            del outcome
            delay = self.next_delay(prepared, error, state.retries, headers, state)
            if delay is None:
                raise _give_up(error, cause)
            if state.call is not None:
                state.call.retry(error, delay)
            _discard(error)
            del error, cause, headers
            await self.sleep(delay)
            state.retries += 1

    async def _attempt(
        self, prepared: Prepared, key: str, retries_done: int, state: CallState
    ) -> _Outcome:
        left = state.remaining()
        if left is not None and left <= 0:
            return deadline_error(state, None), None, None
        request = self.build(self.http, prepared, key, retries_done, left)
        call = state.call
        if call is not None:
            call.request(request, retries_done)
        started = time.perf_counter()
        try:
            # twin: differs (the deadline is kept in send)
            response = await self.http.send(request, stream=True, follow_redirects=False)
        except (httpx.RequestError, *_UNMAPPED) as caught:
            exc = _request_error(caught, request)
            if exc is None:
                raise
            _scrub(request, self._api_key.searched_bytes())
            if self.switch_base_url(exc):
                if call is not None:
                    call.fallback(self.base_urls[self.base_index - 1], self.base_url, exc)
                return None
            error, cause = self.failed(exc, request, state)
            return error, cause, None
        except RuntimeError as exc:
            if self.http.is_closed:
                raise ClientStateError("the client was closed while a call was starting") from exc
            raise
        searched = self._api_key.searched_bytes()
        _scrub(request, searched)
        _scrub_response(response, searched)
        self.log(request, response, started)
        if call is not None:
            call.response(response, retries_done)
        success = response.is_success
        if success and prepared.stream:
            return response
        limit = state.max_line if success else MAX_ERROR_BODY
        try:
            pieces: list[bytes] = []
            size = 0
            achunks = response.aiter_raw() if _raw_is_decoded(response) else response.aiter_bytes()
            async for chunk in achunks:
                size += len(chunk)
                if size > limit:
                    break
                pieces.append(chunk)
        except httpx.RequestError as exc:
            error, cause = self.failed(exc, request, state)
            return error, cause, None
        finally:
            await response.aclose()
        content = b"".join(pieces)
        del pieces
        if not success:
            content = redact_bytes(content, self._api_key)  # an error may echo the key
        set_body(response, content)
        if success:
            if size > limit:
                return self.too_large(response, limit), None, None
            return response
        error = self.status_error(response, content, cut=size > limit)
        return error, None, response.headers

    async def aclose(self) -> None:
        await self.http.aclose()
