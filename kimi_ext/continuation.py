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
from typing import TYPE_CHECKING, Any, overload

from kimi_ext.errors import IncompleteStreamError
from kimi_ext.results import ChatCompletion, Message, Result

if TYPE_CHECKING:
    from kimi_ext.client import AsyncKimi, Kimi

__all__ = [
    "ContinuedChatCompletion",
    "ContinuedMessage",
    "acontinue_answer",
    "continue_answer",
    "resume",
]


class ContinuedChatCompletion(ChatCompletion):
    """A Chat continuation whose message content is ``prefix`` + the continuation."""

    __slots__ = ("continuation", "prefix")

    def __init__(self, prefix: str, continuation: ChatCompletion) -> None:
        data = dict(continuation.to_dict())
        choices = data.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            first = dict(choices[0])
            message = dict(first.get("message") or {})
            content = message.get("content")
            message["content"] = prefix + (content if isinstance(content, str) else "")
            first["message"] = message
            data["choices"] = [first, *choices[1:]]
        else:
            data["choices"] = [{"index": 0, "message": {"role": "assistant", "content": prefix}}]
        super().__init__(data, continuation.http_response)
        self.prefix = prefix
        self.continuation = continuation


class ContinuedMessage(Message):
    """A Messages continuation whose first text block starts with ``prefix``."""

    __slots__ = ("continuation", "prefix")

    def __init__(self, prefix: str, continuation: Message) -> None:
        data = dict(continuation.to_dict())
        content = list(continuation.content)
        if prefix:
            for i, block in enumerate(content):
                if isinstance(block, dict) and block.get("type") == "text":
                    text = block.get("text")
                    content[i] = {**block, "text": prefix + (text if isinstance(text, str) else "")}
                    break
            else:
                at = 0
                while (
                    at < len(content)
                    and isinstance(content[at], dict)
                    and content[at].get("type") in ("thinking", "redacted_thinking")
                ):
                    at += 1
                content.insert(at, {"type": "text", "text": prefix})
        data["content"] = content
        super().__init__(data, continuation.http_response)
        self.prefix = prefix
        self.continuation = continuation


def _wire(messages: Any) -> list[Any]:
    if messages is None:
        raise TypeError("messages= is required")
    to_wire = getattr(messages, "to_wire", None)
    return list(to_wire() if to_wire is not None else messages)


def _chat_request(prefix: str, params: dict[str, Any]) -> dict[str, Any]:
    messages = _wire(params.get("messages"))
    if prefix:
        messages.append({"role": "assistant", "content": prefix, "partial": True})
    return {**params, "messages": messages}


def _messages_request(prefix: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    sent = prefix.rstrip()
    messages = _wire(params.get("messages"))
    if sent:
        messages.append({"role": "assistant", "content": sent})
    history = params.get("messages")
    extra = {} if params.get("system") is not None else {"system": getattr(history, "system", None)}
    return sent, {**params, **extra, "messages": messages}


def continue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Sync body of ``client.chat.completions.continue_`` / ``client.messages.continue_``."""
    if resource.endpoint.name == "chat":
        return ContinuedChatCompletion(prefix, resource.create(**_chat_request(prefix, params)))
    if resource.endpoint.name == "messages":
        sent, request = _messages_request(prefix, params)
        return ContinuedMessage(sent, resource.create(**request))
    raise TypeError("only Chat (partial mode) and Messages can continue an answer")


async def acontinue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Async body of ``continue_``."""
    if resource.endpoint.name == "chat":
        return ContinuedChatCompletion(
            prefix, await resource.create(**_chat_request(prefix, params))
        )
    if resource.endpoint.name == "messages":
        sent, request = _messages_request(prefix, params)
        return ContinuedMessage(sent, await resource.create(**request))
    raise TypeError("only Chat (partial mode) and Messages can continue an answer")


def _plan(
    client: Any, error: IncompleteStreamError | Result, params: dict[str, Any]
) -> tuple[Any, str, dict[str, Any]]:
    partial = error.partial if isinstance(error, IncompleteStreamError) else error
    if isinstance(partial, ChatCompletion):
        resource = client.chat.completions
    elif isinstance(partial, Message):
        resource = client.messages
    else:
        raise TypeError(
            f"cannot resume a {type(partial).__name__}: only Chat (partial mode) and Messages "
            "(continuation) can continue an answer; send the request again"
        )
    params = dict(params)
    params.pop("stream", None)
    if params.get("model") is None and partial.model:
        params["model"] = partial.model
    return resource, partial.text, params


def _combine(resource: Any, prefix: str, result: Result) -> Result:
    if resource.endpoint.name == "chat":
        assert isinstance(result, ChatCompletion)
        return ContinuedChatCompletion(prefix, result)
    assert isinstance(result, Message)
    return ContinuedMessage(prefix, result)


def _resume_sync(client: Kimi, error: Any, stream: bool, params: dict[str, Any]) -> Result:
    resource, prefix, params = _plan(client, error, params)
    if not stream:
        return continue_answer(resource, prefix=prefix, **params)
    if resource.endpoint.name == "chat":
        sent, request = prefix, _chat_request(prefix, params)
    else:
        sent, request = _messages_request(prefix, params)
    try:
        with resource.stream(**request) as s:
            if resource.endpoint.name == "chat":
                final = s.get_final_completion()
            else:
                final = s.get_final_message()
    except IncompleteStreamError as broken:
        raise IncompleteStreamError(
            str(broken), partial=_combine(resource, sent, broken.partial), request=broken.request
        ) from broken
    return _combine(resource, sent, final)


async def _resume_async(
    client: AsyncKimi, error: Any, stream: bool, params: dict[str, Any]
) -> Result:
    resource, prefix, params = _plan(client, error, params)
    if not stream:
        return await acontinue_answer(resource, prefix=prefix, **params)
    if resource.endpoint.name == "chat":
        sent, request = prefix, _chat_request(prefix, params)
    else:
        sent, request = _messages_request(prefix, params)
    try:
        async with resource.stream(**request) as s:
            if resource.endpoint.name == "chat":
                final = await s.get_final_completion()
            else:
                final = await s.get_final_message()
    except IncompleteStreamError as broken:
        raise IncompleteStreamError(
            str(broken), partial=_combine(resource, sent, broken.partial), request=broken.request
        ) from broken
    return _combine(resource, sent, final)


@overload
def resume(
    client: Kimi, error: IncompleteStreamError | Result, *, stream: bool = False, **params: Any
) -> Result: ...
@overload
def resume(
    client: AsyncKimi,
    error: IncompleteStreamError | Result,
    *,
    stream: bool = False,
    **params: Any,
) -> Awaitable[Result]: ...
def resume(
    client: Kimi | AsyncKimi,
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
    from kimi_ext.client import AsyncKimi

    if isinstance(client, AsyncKimi):
        return _resume_async(client, error, stream, params)
    return _resume_sync(client, error, stream, params)
