"""Where a request is sent and retried: one loop for plain calls and for opening streams.

:class:`SyncSender` and :class:`AsyncSender` share every decision (:class:`_SenderBase`);
only the waiting and the I/O differ. A call's attempts share one ``Idempotency-Key``.
When the default base URL cannot be reached, the fallback address is used from then on.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from . import __version__
from ._logging import logger, redact_headers
from .building import UNSET_TIMEOUT, Prepared
from .errors import (
    APIConnectionError,
    APIResponseError,
    APIStatusError,
    APITimeoutError,
    ClientConfigError,
    KimiError,
    redact,
    status_error_from_response,
)
from .retries import RetryPolicy, new_idempotency_key

USER_AGENT = f"kimi-ext/{__version__}"


def check_base_url(url: str, *, allow_insecure_http: bool) -> str:
    """Refuse plain http to anything but this machine, unless explicitly allowed."""
    parsed = httpx.URL(url)
    if parsed.scheme not in ("http", "https"):
        raise ClientConfigError(f"base_url {url!r}: scheme must be https (or http to localhost)")
    if parsed.scheme == "http" and not allow_insecure_http and not is_loopback(parsed.host):
        raise ClientConfigError(
            f"base_url {url!r}: plain http would send the API key unencrypted; use https, "
            "or pass allow_insecure_http=True if you really mean it"
        )
    return url.rstrip("/")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def connection_error(exc: httpx.RequestError, request: httpx.Request | None) -> APIConnectionError:
    """Our error for an httpx transport failure, or a body httpx could not decode (the
    original stays as ``__cause__``)."""
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"Request timed out ({type(exc).__name__}).", request=request)
    return APIConnectionError(f"Connection error ({type(exc).__name__}): {exc}", request=request)


class _SenderBase:
    """Configuration and the per-attempt decisions shared by both senders."""

    def __init__(
        self,
        *,
        api_key: str,
        base_urls: Sequence[str],
        timeout: httpx.Timeout,
        policy: RetryPolicy,
        default_headers: Mapping[str, str] | None,
    ) -> None:
        self._api_key = api_key
        self.base_urls = list(base_urls)
        self.base_index = 0
        self.timeout = timeout
        self.policy = policy
        self.default_headers = dict(default_headers or {})
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

    def build(
        self, http: httpx.Client | httpx.AsyncClient, prepared: Prepared, key: str, attempt: int
    ) -> httpx.Request:
        headers = {
            "Authorization": f"Bearer {self._api_key}",
            "Content-Type": "application/json",
            "Accept": "text/event-stream" if prepared.stream else "application/json",
            "User-Agent": USER_AGENT,
            "Idempotency-Key": key,
            "X-Kimi-Retry-Count": str(attempt),
            **self.default_headers,
            **prepared.headers,
        }
        timeout = self.timeout if prepared.timeout is UNSET_TIMEOUT else prepared.timeout
        return http.build_request(
            prepared.method,
            self.url_for(prepared.path),
            content=prepared.content,
            headers=headers,
            timeout=timeout,  # type: ignore[arg-type]
        )

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
        self, prepared: Prepared, error: KimiError, retries_done: int, headers: httpx.Headers | None
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up."""
        limit = self.policy.max_retries if prepared.max_retries is None else prepared.max_retries
        if retries_done >= limit or not self.policy.should_retry(error):
            return None
        delay = self.policy.delay(retries_done, headers)
        logger.info(
            "retrying %s %s in %.2fs after %s", prepared.method, prepared.path, delay, error
        )
        return delay

    def status_error(self, response: httpx.Response) -> APIStatusError:
        return status_error_from_response(response, secret=self._api_key)

    def log(self, request: httpx.Request, response: httpx.Response, started: float) -> None:
        if logger.isEnabledFor(20):
            logger.info(
                "%s %s -> %d in %.0f ms", request.method, request.url, response.status_code,
                (time.perf_counter() - started) * 1000,
            )  # fmt: skip
            logger.debug("request headers: %s", redact_headers(request.headers.items()))
            logger.debug("response headers: %s", redact_headers(response.headers.items()))


def parse_json_body(response: httpx.Response, secret: str) -> dict[str, Any]:
    """The JSON object of a success response; APIResponseError (with the text) otherwise."""
    try:
        data = json.loads(response.content)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        text = response.text
        raise APIResponseError(
            f"expected a JSON body, got {redact(text[:200], secret)!r}",
            response=response,
            body=text,
        ) from None
    if not isinstance(data, dict):
        raise APIResponseError("expected a JSON object", response=response, body=response.text)
    return data


class SyncSender(_SenderBase):
    """Sends with an ``httpx.Client``, retrying per the policy."""

    def __init__(
        self, http: httpx.Client, *, sleep: Callable[[float], None] = time.sleep, **config: Any
    ) -> None:
        super().__init__(**config)
        self.http = http
        self.sleep = sleep

    def send(self, prepared: Prepared) -> httpx.Response:
        """Send until success or the policy gives up. With ``prepared.stream`` the body is
        left unread for the caller (who must close the response)."""
        key = new_idempotency_key()
        retries_done = 0
        while True:
            request = self.build(self.http, prepared, key, retries_done)
            started = time.perf_counter()
            error: KimiError
            headers: httpx.Headers | None = None
            try:
                response = self.http.send(request, stream=prepared.stream, follow_redirects=False)
            except httpx.RequestError as exc:
                if self.switch_base_url(exc):
                    continue
                error = connection_error(exc, request)
                cause: BaseException = exc
            else:
                self.log(request, response, started)
                if response.is_success:
                    return response
                try:
                    response.read()
                except httpx.RequestError as exc:
                    error, cause = connection_error(exc, request), exc
                else:
                    error = cause = self.status_error(response)
                    headers = response.headers
                finally:
                    response.close()
            delay = self.next_delay(prepared, error, retries_done, headers)
            if delay is None:
                if error is cause:
                    raise error
                raise error from cause
            self.sleep(delay)
            retries_done += 1

    def close(self) -> None:
        self.http.close()


class AsyncSender(_SenderBase):
    """Sends with an ``httpx.AsyncClient``, retrying per the policy."""

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

    async def send(self, prepared: Prepared) -> httpx.Response:
        """Async twin of :meth:`SyncSender.send`."""
        key = new_idempotency_key()
        retries_done = 0
        while True:
            request = self.build(self.http, prepared, key, retries_done)
            started = time.perf_counter()
            error: KimiError
            headers: httpx.Headers | None = None
            try:
                response = await self.http.send(
                    request, stream=prepared.stream, follow_redirects=False
                )
            except httpx.RequestError as exc:
                if self.switch_base_url(exc):
                    continue
                error = connection_error(exc, request)
                cause: BaseException = exc
            else:
                self.log(request, response, started)
                if response.is_success:
                    return response
                try:
                    await response.aread()
                except httpx.RequestError as exc:
                    error, cause = connection_error(exc, request), exc
                else:
                    error = cause = self.status_error(response)
                    headers = response.headers
                finally:
                    await response.aclose()
            delay = self.next_delay(prepared, error, retries_done, headers)
            if delay is None:
                if error is cause:
                    raise error
                raise error from cause
            await self.sleep(delay)
            retries_done += 1

    async def aclose(self) -> None:
        await self.http.aclose()
