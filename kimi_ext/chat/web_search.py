"""Chat's builtin web search: the client answers a ``$web_search`` call by echoing its
arguments back as the tool result (the documented way); the service then searches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kimi_ext._core.contract.arguments import checked
from kimi_ext._core.model.result import ToolCall
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.errors import RequestValidationError

__all__ = ["WEB_SEARCH_NAMES", "echo_if_web_search", "is_web_search_call", "web_search_echo"]

# The names a function tool may declare web search under.
WEB_SEARCH_NAMES = ("$web_search", "web_search")


def is_web_search_call(call: ToolCall, names: Iterable[str] = ()) -> bool:
    """Whether a Chat tool call is the builtin web search (answered by echoing it)."""
    return call.type == "builtin_function" or call.name == "$web_search" or call.name in names


def _echo(call: ToolCall) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": call.arguments}


@checked(RequestValidationError)
def web_search_echo(
    source: ChatCompletion | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    names: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """The tool messages that answer the builtin ``$web_search`` calls, the documented way:
    each call's ``function.arguments`` unchanged as the content of a tool message with the
    same ``tool_call_id``. Append them, then send the request again.

    ``source`` is a ChatCompletion, an assistant message, or a history / list of messages
    (then the last assistant turn's calls that have no answer yet). Calls of type
    ``builtin_function`` or named ``$web_search`` (or in ``names``) count as web search.
    """
    names = frozenset(names)
    if isinstance(source, ChatCompletion):
        calls = source.tool_calls
        answered: set[Any] = set()
    elif isinstance(source, Mapping):
        calls = ChatCompletion({"choices": [{"message": dict(source)}]}).tool_calls
        answered = set()
    else:
        messages = list(source)
        calls, answered = [], set()
        for i in range(len(messages) - 1, -1, -1):
            message = messages[i]
            if message.get("role") == "assistant":
                calls = ChatCompletion({"choices": [{"message": dict(message)}]}).tool_calls
                answered = {
                    m.get("tool_call_id") for m in messages[i + 1 :] if m.get("role") == "tool"
                }
                break
    return [_echo(c) for c in calls if is_web_search_call(c, names) and c.id not in answered]


def echo_if_web_search(call: ToolCall, names: frozenset[str]) -> dict[str, Any] | None:
    """The tool message answering ``call`` when it is a web-search call, else None."""
    return _echo(call) if is_web_search_call(call, names) else None
