"""Continue an assistant answer from a prefix (Chat partial mode, Messages continuation), and
resume a stream that broke before it finished.

    # Make the model go on from text you supply (or that it wrote before):
    reply = client.chat.completions.continue_(
        prefix="| Item | Why |\\n|---|---|\\n", model="kimi-k3.1-pro", messages=history,
    )
    reply.text            # the prefix followed by the continuation, as one text

    # A long generation cut by the network is not thrown away:
    try:
        with client.messages.stream(**request) as stream:
            final = stream.get_final_message()
    except kimi_ext.IncompleteStreamError as error:
        final = kimi_ext.resume(client, error, **request)   # partial text + continuation

Chat sends ``{"role": "assistant", "content": prefix, "partial": true}`` as the final
message; Messages sends the prefix as a final assistant message, which the model continues
(trailing whitespace is not sent: the format rejects a final assistant turn ending in
whitespace, and the model writes it again). The service returns only the new text; the
result you get (:class:`ContinuedChatCompletion` / :class:`ContinuedMessage`) is the
continuation with the prefix put in front of its text, so ``.text`` is the whole answer
and ``history.add(result)`` records the whole turn. ``.prefix`` is the text sent and
``.continuation`` the result exactly as received.

:func:`resume` takes an :class:`~kimi_ext.IncompleteStreamError` (or its ``.partial``) and
the request that was cut; the visible text received so far becomes the prefix. When the
stream broke before any visible text (during reasoning), there is nothing to continue and
the request is simply sent again. With ``stream=True`` the continuation is streamed too; if
it breaks as well, the IncompleteStreamError raised carries the combined partial, so
``resume`` can be called again with it. Responses has no partial mode: resume raises
TypeError for a Response.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Literal, Protocol, overload

from kimi_ext._core.format import Continuation, Format
from kimi_ext._core.result import Result
from kimi_ext.chat.continued import ContinuedChatCompletion
from kimi_ext.errors import IncompleteStreamError
from kimi_ext.formats import format_of
from kimi_ext.messages.continued import ContinuedMessage


class _SyncClient(Protocol):
    @property
    def is_async(self) -> Literal[False]: ...


class _AsyncClient(Protocol):
    @property
    def is_async(self) -> Literal[True]: ...


__all__ = [
    "ContinuedChatCompletion",
    "ContinuedMessage",
    "acontinue_answer",
    "continue_answer",
    "resume",
]


def _rules(fmt: Format[Any, Any, Any]) -> Continuation:
    if fmt.continuation is None:
        raise TypeError("only Chat (partial mode) and Messages can continue an answer")
    return fmt.continuation


def continue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Sync body of ``client.chat.completions.continue_`` / ``client.messages.continue_``."""
    rules = _rules(resource.format)
    sent, request = rules.request(prefix, params)
    return rules.joined(sent, resource.create(**request))


async def acontinue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Async body of ``continue_``."""
    rules = _rules(resource.format)
    sent, request = rules.request(prefix, params)
    return rules.joined(sent, await resource.create(**request))


def _plan(
    client: Any, error: IncompleteStreamError | Result, params: dict[str, Any]
) -> tuple[Any, Continuation, str, dict[str, Any]]:
    partial = error.partial if isinstance(error, IncompleteStreamError) else error
    fmt = format_of(partial) if isinstance(partial, Result) else None
    if fmt is None or fmt.continuation is None:
        raise TypeError(
            f"cannot resume a {type(partial).__name__}: only Chat (partial mode) and Messages "
            "(continuation) can continue an answer; send the request again"
        )
    params = dict(params)
    params.pop("stream", None)
    if params.get("model") is None and partial.model:
        params["model"] = partial.model
    return fmt.resource_of(client), fmt.continuation, partial.text, params


def _broken(broken: IncompleteStreamError, rules: Continuation, sent: str) -> IncompleteStreamError:
    """The error of a continuation stream that broke too: its partial joined to the prefix,
    so ``resume`` can be called again with it."""
    return IncompleteStreamError(
        str(broken), partial=rules.joined(sent, broken.partial), request=broken.request
    )


def _resume_sync(client: Any, error: Any, stream: bool, params: dict[str, Any]) -> Result:
    resource, rules, prefix, params = _plan(client, error, params)
    if not stream:
        return continue_answer(resource, prefix=prefix, **params)
    sent, request = rules.request(prefix, params)
    try:
        with resource.stream(**request) as s:
            final = getattr(s, resource.format.final_getter)()
    except IncompleteStreamError as broken:
        raise _broken(broken, rules, sent) from broken
    return rules.joined(sent, final)


async def _resume_async(client: Any, error: Any, stream: bool, params: dict[str, Any]) -> Result:
    resource, rules, prefix, params = _plan(client, error, params)
    if not stream:
        return await acontinue_answer(resource, prefix=prefix, **params)
    sent, request = rules.request(prefix, params)
    try:
        async with resource.stream(**request) as s:
            final = await getattr(s, resource.format.final_getter)()
    except IncompleteStreamError as broken:
        raise _broken(broken, rules, sent) from broken
    return rules.joined(sent, final)


@overload
def resume(
    client: _SyncClient,
    error: IncompleteStreamError | Result,
    *,
    stream: bool = False,
    **params: Any,
) -> Result: ...
@overload
def resume(
    client: _AsyncClient,
    error: IncompleteStreamError | Result,
    *,
    stream: bool = False,
    **params: Any,
) -> Awaitable[Result]: ...
def resume(
    client: _SyncClient | _AsyncClient,
    error: IncompleteStreamError | Result,
    *,
    stream: bool = False,
    **params: Any,
) -> Result | Awaitable[Result]:
    """Continue the answer a broken stream left in ``error.partial``.

    ``params`` are the original request's (``messages=``, ``max_tokens=``...; ``model``
    defaults to the partial's). Returns a :class:`ContinuedChatCompletion` or
    :class:`ContinuedMessage` whose text is the partial text followed by the continuation.
    With an :class:`~kimi_ext.AsyncKimi`, returns an awaitable: ``await resume(...)``.
    """
    if client.is_async:
        return _resume_async(client, error, stream, params)
    return _resume_sync(client, error, stream, params)
