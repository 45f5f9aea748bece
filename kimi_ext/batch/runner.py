"""The batch runner: sends every line through one :class:`~kimi_ext.AsyncKimi`, writes each
result to the output as soon as it is final, and yields it.

:meth:`BatchRun.results` is the run, from start to end, in one place: the input is checked
(:mod:`.plan`), the client is made (one per run: its retries with ``Retry-After``,
idempotency keys, validation and stream accumulation apply to every line), the lines are
sent ``concurrency`` at a time under the shared :class:`~.limiter.RateLimiter`, and the
client and output are closed at the end, whatever happened.

A line's result is final when it succeeded, or failed in a way that is the line's own
(a 400, a 5xx or a cut stream after the retries...): it is written, with ``error`` set
for a failure. An exhausted quota or a rejected key is not the line's fault: the run
stops starting lines, the ones in flight finish, and the output stays resumable.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import AsyncGenerator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

import httpx

from kimi_ext.batch.checkpoint import Checkpoint, OutputWriter, drop_failed, read_checkpoint
from kimi_ext.batch.ids import fingerprint, idempotency_key, job_id_for, output_id
from kimi_ext.batch.limiter import RateLimiter
from kimi_ext.batch.lines import BatchLine, LineProblem, LineSource, RawLine, parse_line
from kimi_ext.batch.plan import RunPlan, make_plan
from kimi_ext.batch.progress import Progress, Stats
from kimi_ext.batch.summary import Prices, Summary
from kimi_ext.batch.threaded import in_thread
from kimi_ext.client import AsyncKimi
from kimi_ext.errors import (
    APIConnectionError,
    APIResponseError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    ClientConfigError,
    IncompleteStreamError,
    KimiError,
    QuotaExceededError,
    RateLimitError,
)
from kimi_ext.hooks import scope
from kimi_ext.telemetry import semconv

__all__ = ["BatchRun", "OnInterrupt"]

OnInterrupt = Literal["finish", "abandon"]
# Errors that are not a line's own: every later line would get them too.
RUN_STOPPERS = (QuotaExceededError, AuthenticationError)


class BatchRun:
    """One run of a batch (see the module docstring). ``results()`` runs it.

    ``source``: a JSONL path, or lines in memory (text or decoded objects). ``output``: the
    JSONL file that is also the checkpoint (None: results are only yielded, as in a Ray
    worker). Client arguments (``api_key``, ``base_url``, ``timeout``...) go to the one
    AsyncKimi of the run, through ``client_options``.
    """

    def __init__(
        self,
        source: str | Path | Iterable[RawLine],
        output: str | Path | None,
        *,
        concurrency: int = 16,
        rpm: int | None = None,
        tpm: int | None = None,
        max_retries: int = 2,
        retry_failed: bool = False,
        skip_invalid: bool = False,
        job_id: str | None = None,
        prices: Prices | None = None,
        on_interrupt: OnInterrupt = "finish",
        progress: Progress | None = None,
        rate_window: float = 60.0,
        **client_options: Any,
    ) -> None:
        for name, value, low in (("concurrency", concurrency, 1), ("rpm", rpm, 1),
                                 ("tpm", tpm, 1), ("max_retries", max_retries, 0)):  # fmt: skip
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < low):  # fmt: skip
                raise ClientConfigError(f"{name}={value!r}: must be a whole number >= {low}")
        if on_interrupt not in ("finish", "abandon"):
            raise ClientConfigError(f"on_interrupt={on_interrupt!r}: must be finish or abandon")
        if job_id is None and output is None:
            raise ClientConfigError("job_id: required without an output file (it names the "
                                    "job in every idempotency key)")  # fmt: skip
        self.source = LineSource(source)
        self.output = Path(output) if output is not None else None
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.retry_failed = retry_failed
        self.skip_invalid = skip_invalid
        self.job_id = job_id or job_id_for(self.output or "")
        self.on_interrupt: OnInterrupt = on_interrupt
        self.progress = progress
        self.limiter = RateLimiter(rpm, tpm, window=rate_window)
        self.client_options = client_options
        self.summary = Summary(prices=prices)
        self.plan: RunPlan | None = None
        self.problems: list[LineProblem] = []
        self.stats = Stats()
        self._stop = asyncio.Event()
        self._stopper: BaseException | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Run the batch from synchronous code (in a thread with its own event loop),
        yielding each output line as it is written; see :meth:`results`."""
        return in_thread(self.results, self.concurrency * 2)

    # --- control ----------------------------------------------------------------------

    def interrupt(self) -> None:
        """Ctrl-C: start no more lines. With ``on_interrupt="finish"`` the lines in flight
        finish and are written; with ``"abandon"`` (or on a second interrupt) they are
        cancelled and not written. The output stays resumable either way."""
        if self._stop.is_set() or self.on_interrupt == "abandon":
            for task in self._tasks:
                task.cancel()
        self.summary.stopped_by = self.summary.stopped_by or "interrupted"
        self._stop.set()

    # --- the run ----------------------------------------------------------------------

    async def results(self) -> AsyncGenerator[dict[str, Any], None]:
        """Run the batch, yielding each output line (a dict) once it is written. Raises
        BatchInputError before sending anything when the input has bad lines, and, at the
        end, the error that stopped the run early (QuotaExceededError...)."""
        started = time.monotonic()
        point = (
            read_checkpoint(self.output, retry_failed=self.retry_failed)
            if self.output is not None
            else Checkpoint()
        )
        plan = self.plan = make_plan(self.source, point, skip_invalid=self.skip_invalid)
        if self.output is not None and point.retried:
            # Only once the input is known good: the failed lines leave the output.
            drop_failed(self.output)
        self.problems = plan.problems
        s = self.summary
        s.lines, s.already_done = plan.lines, plan.already_done
        s.invalid_skipped, s.retried_failed = len(plan.skip), point.retried
        s.before = point.totals
        self.stats.total, self.stats.done = plan.lines, plan.already_done
        client = self._client()
        try:
            writer = OutputWriter(self.output) if self.output is not None else None
        except BaseException:
            await client.close()
            raise
        finished: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        ticker = self.progress.start(self.stats, self.limiter) if self.progress else None
        feeder = asyncio.create_task(self._feed(client, point, plan, writer, finished))
        try:
            while True:
                doc = await finished.get()
                if doc is None:
                    break
                yield doc
            await feeder
        finally:
            if not feeder.done():
                self.interrupt()
                self.interrupt()  # twice: abandon what is in flight
                with contextlib.suppress(BaseException):
                    await feeder
            s.seconds = time.monotonic() - started
            if ticker is not None and self.progress is not None:
                await self.progress.stop(ticker)
            if writer is not None:
                writer.close()
            await client.close()
        if self._stopper is not None:
            raise self._stopper

    def _client(self) -> AsyncKimi:
        options = dict(self.client_options)
        options.setdefault("max_retries", self.max_retries)
        options.setdefault("limits", httpx.Limits(
            max_connections=max(self.concurrency, 1), max_keepalive_connections=self.concurrency,
        ))  # fmt: skip
        # Every attempt (retries too) passes the shared limiter, and every response is
        # seen by it: the client's event_hooks option (its pool, proxy and loopback
        # settings stay as the client makes them). Event hooks given in client_options
        # run after the limiter's.
        given = options.get("event_hooks") or {}
        if isinstance(given, Mapping):  # anything else: AsyncKimi says what is wrong
            # Every key kept (a misspelt event is refused by AsyncKimi, not dropped here);
            # a value that is not a list is left for AsyncKimi to name too.
            merged = dict(given)
            for event, first in (
                ("request", self._before_attempt),
                ("response", self._after_attempt),
            ):
                own = merged.get(event, ())
                merged[event] = [first, *own] if isinstance(own, list | tuple) else own
            options["event_hooks"] = merged
        return AsyncKimi(**options)

    async def _before_attempt(self, request: httpx.Request) -> None:
        await self.limiter.acquire()

    async def _after_attempt(self, response: httpx.Response) -> None:
        self.limiter.observe(response)

    async def _feed(
        self,
        client: AsyncKimi,
        point: Checkpoint,
        plan: RunPlan,
        writer: OutputWriter | None,
        finished: asyncio.Queue[dict[str, Any] | None],
    ) -> None:
        """Start each line still to do, ``concurrency`` at a time, in input order.

        The run is one hook scope (with telemetry on, one ``kimi.batch`` parent span): it is
        entered here, in the task that creates the line tasks, so they inherit it, and left
        in the same task, as OpenTelemetry's context requires."""
        slots = asyncio.Semaphore(self.concurrency)
        started = 0
        run_scope = scope(client, semconv.BATCH_SPAN, {semconv.BATCH_SIZE: plan.todo,
                                                       semconv.BATCH_JOB_ID: self.job_id})  # fmt: skip
        await run_scope.__aenter__()
        try:
            for number, raw in self.source:
                if number in plan.skip:
                    continue
                line = parse_line(number, raw)
                if isinstance(line, LineProblem) or point.lookup(line.custom_id) is not None:
                    continue
                await slots.acquire()
                if self._stop.is_set():
                    slots.release()
                    break
                started += 1
                task = asyncio.create_task(self._one(client, line, writer, finished))
                self._tasks.add(task)
                task.add_done_callback(functools.partial(self._finished_task, slots))
            while self._tasks:
                await asyncio.wait(set(self._tasks))
        except BaseException as exc:
            await run_scope.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        else:
            await run_scope.__aexit__(None, self._stopper, None)
        finally:
            s = self.summary
            s.not_started = plan.todo - started
            finished.put_nowait(None)

    def _finished_task(self, slots: asyncio.Semaphore, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        slots.release()
        if not task.cancelled() and task.exception() is not None:
            # Not a line's failure (those are written): the output cannot be written, say.
            # The run stops, and raises it at its end.
            self._stopper = self._stopper or task.exception()
            self.summary.stopped_by = self.summary.stopped_by or repr(task.exception())
            self._stop.set()

    async def _one(
        self,
        client: AsyncKimi,
        line: BatchLine,
        writer: OutputWriter | None,
        finished: asyncio.Queue[dict[str, Any] | None],
    ) -> None:
        """Send one line and write its result, unless the run was stopped under it."""
        self.stats.in_flight += 1
        try:
            doc = await self._send(client, line)
        except asyncio.CancelledError:
            self.summary.abandoned += 1
            return
        finally:
            self.stats.in_flight -= 1
        if doc is None:  # not final: a quota or key problem stopped the run
            return
        if writer is not None:
            writer.write(doc)
        failed = doc["error"] is not None
        self.summary.record(doc)
        self.stats.done += 1
        self.stats.failed += failed
        finished.put_nowait(doc)

    async def _send(self, client: AsyncKimi, line: BatchLine) -> dict[str, Any] | None:
        fmt, body = line.fmt, line.body
        params = dict(body)
        params["extra_headers"] = {"Idempotency-Key": idempotency_key(self.job_id, line.custom_id)}
        spent = await self.limiter.reserve(estimate_tokens(line))
        resource = fmt.resource_of(client)
        line_id = output_id(fingerprint(line.custom_id, line.url, body))
        try:
            result = await self._attempts(resource, params, line.stream)
        except RUN_STOPPERS as exc:
            self._stopper = self._stopper or exc
            self.summary.stopped_by = self.summary.stopped_by or f"{type(exc).__name__}: {exc}"
            self._stop.set()
            self.limiter.settle(spent, 0)
            return None
        except KimiError as exc:
            self.limiter.settle(spent, 0)
            return failure_line(line_id, line.custom_id, exc)
        usage = result.usage
        self.limiter.settle(spent, usage.total)
        self.stats.tokens += usage.total
        response = {"status_code": result.http_response.status_code
                    if result.http_response is not None else 200,
                    "request_id": result.request_id, "body": result.to_dict()}  # fmt: skip
        return {"id": line_id, "custom_id": line.custom_id, "response": response, "error": None}

    async def _attempts(self, resource: Any, params: dict[str, Any], stream: bool) -> Any:
        """Send the line. A 429 the client gave up on (its Retry-After was longer than the
        client waits for) is not the line's fault: the limiter has paused the whole run
        for it, so the line is sent again once the pause is over (``max_retries`` times)."""
        left = self.max_retries
        while True:
            try:
                if stream:
                    return await self._stream(resource, dict(params))
                return await resource.create(**params)
            except RateLimitError as exc:
                if isinstance(exc, QuotaExceededError) or left <= 0:
                    raise
                left -= 1  # the next attempt waits in the limiter for the pause

    async def _stream(self, resource: Any, params: dict[str, Any]) -> Any:
        """A streamed line: accumulated by the client's stream code into the final object.
        A stream cut before its end is sent again (same idempotency key), up to
        ``max_retries`` times; it is never written as complete."""
        params.pop("stream", None)
        attempt = 0
        while True:
            try:
                async with resource.stream(**params) as stream:
                    return await stream.final()
            except IncompleteStreamError:
                if attempt >= self.max_retries:
                    raise
                attempt += 1


def estimate_tokens(line: BatchLine) -> int:
    """Tokens a line may use, for ``tpm``: its size / 4 (about a token per four bytes of
    JSON) plus the output limit it sets (0 when it sets none)."""
    size = line.size or len(json.dumps(line.body))
    limit = line.body.get(line.fmt.output_limit_field)
    return size // 4 + (limit if isinstance(limit, int) and not isinstance(limit, bool) else 0)


def failure_line(line_id: str, custom_id: str, exc: KimiError) -> dict[str, Any]:
    """The output line of a request that failed for good: the error's code and message,
    and the service's status and body when it answered."""
    response = None
    if isinstance(exc, APIStatusError):
        code = exc.code or exc.error_type or f"http_{exc.status_code}"
        response = {"status_code": exc.status_code, "request_id": exc.request_id,
                    "body": exc.body}  # fmt: skip
    elif isinstance(exc, IncompleteStreamError):
        code = "incomplete_stream"
    elif isinstance(exc, APITimeoutError):
        code = "timeout"
    elif isinstance(exc, APIConnectionError):
        code = "connection_error"
    elif isinstance(exc, APIResponseError):
        code = "bad_response"
    else:
        code = type(exc).__name__
    message = exc.message if isinstance(exc, APIStatusError) else str(exc)
    return {"id": line_id, "custom_id": custom_id, "response": response,
            "error": {"code": str(code), "message": message}}  # fmt: skip
