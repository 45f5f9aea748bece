"""TypedDicts of the JSON bodies of openapi/chat.yaml (Kimi K3.1 Pro - Chat Completions).

Derived by scripts/derive_types.py. Do not edit: run `make generate`.

``*Param`` classes type what a request sends (nested shapes included, each object also
accepting a mapping built at run time); the other classes are views of what the service
sends, as received. See scripts/derive_types.py for the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NotRequired, Required, TypeAlias, TypedDict, TypeGuard


class RuntimeValue:
    """A value of a mapping built at run time (``dict[str, Any]``); no literal is one."""


RuntimeMapping: TypeAlias = Mapping[str, RuntimeValue]
"""A JSON object built at run time: ``dict[str, Any]`` fits; a dict literal does not (it
must match its TypedDict, so a misspelt key is flagged)."""


class SystemMessageParam(TypedDict):
    """Instructions for the model."""

    role: Required[Literal['system']]
    content: Required[str | Sequence[TextPartParam | RuntimeMapping]]
    name: NotRequired[str]


class TextPartParam(TypedDict):
    type: Required[Literal['text']]
    text: Required[str]


class DynamicToolsMessageParam(TypedDict):
    """A system message without content that makes tools available from this point of the conversation on."""

    role: Required[Literal['system']]
    tools: Required[Sequence[ChatToolParam | RuntimeMapping]]


class FunctionToolParam(TypedDict):
    """A function the caller implements; the model returns calls with JSON arguments."""

    type: Required[Literal['function']]
    function: Required[FunctionDefinitionParam | RuntimeMapping]


class FunctionDefinitionParam(TypedDict):
    name: Required[str]
    description: NotRequired[str]
    parameters: NotRequired[Mapping[str, Any]]
    strict: NotRequired[bool]


class WebSearchToolParam(TypedDict):
    """The service's built-in web search."""

    type: Required[Literal['web_search']]
    function: NotRequired[WebSearchToolFunctionParam | RuntimeMapping]


class WebSearchToolFunctionParam(TypedDict):
    """Optional function-style settings some gateways accept next to `type` (for example a `name`)."""

    name: NotRequired[str]


class UserMessageParam(TypedDict):
    """A user turn; text, images and videos."""

    role: Required[Literal['user']]
    content: Required[str | Sequence[UserContentPartParam | RuntimeMapping]]
    name: NotRequired[str]


class ImageUrlPartParam(TypedDict):
    """An image as a base64 `data:` URL or an accepted `ms://` file reference (arbitrary public URLs are not fetched)."""

    type: Required[Literal['image_url']]
    image_url: Required[ImageUrlParam | RuntimeMapping]


class ImageUrlParam(TypedDict):
    url: Required[str]
    detail: NotRequired[str]


class VideoUrlPartParam(TypedDict):
    """A video as a base64 `data:` URL or an accepted `ms://` file reference."""

    type: Required[Literal['video_url']]
    video_url: Required[VideoUrlParam | RuntimeMapping]


class VideoUrlParam(TypedDict):
    url: Required[str]


class AssistantMessageParam(TypedDict):
    """An earlier assistant turn, replayed exactly as it was received: keep `reasoning_content` (an empty string stays empty) and `tool_calls` with their ids unchanged."""

    role: Required[Literal['assistant']]
    content: NotRequired[str | Sequence[TextPartParam | RuntimeMapping] | None]
    reasoning_content: NotRequired[str]
    tool_calls: NotRequired[Sequence[ToolCallParam | RuntimeMapping]]
    name: NotRequired[str]
    partial: NotRequired[bool]


class ToolCallParam(TypedDict):
    """A tool call made by the model."""

    id: Required[str]
    type: Required[str]
    function: Required[ToolCallFunctionParam | RuntimeMapping]


class ToolCallFunctionParam(TypedDict):
    name: Required[str]
    arguments: Required[str]


class ToolMessageParam(TypedDict):
    """The result of one tool call, matched by `tool_call_id` (sent back exactly as received)."""

    role: Required[Literal['tool']]
    tool_call_id: Required[str]
    content: Required[str | Sequence[TextPartParam | RuntimeMapping]]
    name: NotRequired[str]


class StreamOptionsParam(TypedDict):
    """Streaming options; only meaningful with `stream: true`."""

    include_usage: NotRequired[bool]


class NamedToolChoiceParam(TypedDict):
    """Force one function."""

    type: Required[Literal['function']]
    function: Required[NamedToolChoiceFunctionParam | RuntimeMapping]


class NamedToolChoiceFunctionParam(TypedDict):
    name: Required[str]


class ResponseFormatTextParam(TypedDict):
    """Plain text (the default behaviour)."""

    type: Required[Literal['text']]


class ResponseFormatJsonObjectParam(TypedDict):
    """Any JSON object."""

    type: Required[Literal['json_object']]


class ResponseFormatJsonSchemaParam(TypedDict):
    """JSON that follows the given schema (structured output)."""

    type: Required[Literal['json_schema']]
    json_schema: Required[JsonSchemaFormatParam | RuntimeMapping]


class JsonSchemaFormatParam(TypedDict):
    """The schema the answer must follow."""

    name: Required[str]
    description: NotRequired[str]
    schema: Required[Mapping[str, Any]]
    strict: NotRequired[bool]


class PredictionContentParam(TypedDict):
    """Predicted output: text the answer is expected to mostly repeat (for example a file that receives a small edit), which speeds generation up."""

    type: Required[Literal['content']]
    content: Required[str | Sequence[TextPartParam | RuntimeMapping]]


class PromptCacheOptionsParam(TypedDict):
    """How the prompt prefix is written to the context cache (K3.1 models only; `kimi-k3` rejects this field)."""

    mode: NotRequired[Literal['implicit']]
    ttl: NotRequired[Literal['5m', '1h']]


class ChatCreateFields(TypedDict, total=False):
    """The body fields of one ``chat`` request, as keyword arguments."""

    model: str | None
    messages: Sequence[ChatMessageParam | RuntimeMapping] | None
    reasoning_effort: Literal['low', 'high', 'max', 'medium', 'xhigh', 'minimal', 'none'] | None
    max_completion_tokens: int | Literal['auto'] | None
    max_tokens: int | Literal['auto'] | None
    stream_options: StreamOptionsParam | RuntimeMapping | None
    tools: Sequence[Callable[..., Any] | ChatToolParam | RuntimeMapping] | None
    tool_choice: ToolChoiceParam | RuntimeMapping | None
    response_format: ResponseFormatParam | RuntimeMapping | None
    prediction: PredictionContentParam | RuntimeMapping | None
    prompt_cache_key: str | None
    prompt_cache_options: PromptCacheOptionsParam | RuntimeMapping | None
    safety_identifier: str | None
    logprobs: bool | None
    top_logprobs: int | None
    stop: StopSequencesParam | None
    temperature: float | None
    top_p: float | None
    n: int | None
    frequency_penalty: float | None
    presence_penalty: float | None


class CreateChatCompletionRequestParam(TypedDict):
    """Body of a chat completion request."""

    model: Required[str]
    messages: Required[Sequence[ChatMessageParam | RuntimeMapping]]
    reasoning_effort: NotRequired[Literal['low', 'high', 'max', 'medium', 'xhigh', 'minimal', 'none']]
    max_completion_tokens: NotRequired[int]
    max_tokens: NotRequired[int]
    stream: NotRequired[bool]
    stream_options: NotRequired[StreamOptionsParam | RuntimeMapping]
    tools: NotRequired[Sequence[ChatToolParam | RuntimeMapping]]
    tool_choice: NotRequired[ToolChoiceParam | RuntimeMapping]
    response_format: NotRequired[ResponseFormatParam | RuntimeMapping]
    prediction: NotRequired[PredictionContentParam | RuntimeMapping]
    prompt_cache_key: NotRequired[str]
    prompt_cache_options: NotRequired[PromptCacheOptionsParam | RuntimeMapping]
    safety_identifier: NotRequired[str]
    logprobs: NotRequired[bool]
    top_logprobs: NotRequired[int]
    stop: NotRequired[StopSequencesParam]
    temperature: NotRequired[float]
    top_p: NotRequired[float]
    n: NotRequired[int]
    frequency_penalty: NotRequired[float]
    presence_penalty: NotRequired[float]


class ChatCompletion(TypedDict):
    """A finished (non-streamed) completion."""

    id: Required[str]
    object: Required[str]
    created: Required[int]
    model: Required[str]
    choices: Required[list[ChatCompletionChoice]]
    usage: NotRequired[CompletionUsage | None]
    system_fingerprint: NotRequired[str | None]


class ChatCompletionChoice(TypedDict):
    index: Required[int]
    message: Required[ChatCompletionMessage]
    finish_reason: NotRequired[str | None]
    logprobs: NotRequired[ChoiceLogprobs | None]


class ChatCompletionMessage(TypedDict):
    """The generated message."""

    role: NotRequired[str]
    content: NotRequired[str | None]
    reasoning_content: NotRequired[str | None]
    tool_calls: NotRequired[list[ToolCall | dict[str, Any]] | None]
    tool_call_id: NotRequired[str]


class ToolCall(TypedDict):
    """A tool call made by the model."""

    id: Required[str]
    type: Required[str]
    function: Required[ToolCallFunction]


class ToolCallFunction(TypedDict):
    name: Required[str]
    arguments: Required[str]


class ChoiceLogprobs(TypedDict):
    content: NotRequired[list[TokenLogprob] | None]


class TokenLogprob(TypedDict):
    token: Required[str]
    logprob: Required[float]
    bytes: NotRequired[list[int] | None]
    top_logprobs: NotRequired[list[TopLogprob]]


class TopLogprob(TypedDict):
    token: Required[str]
    logprob: Required[float]
    bytes: NotRequired[list[int] | None]


class CompletionUsage(TypedDict):
    """Token counts."""

    prompt_tokens: Required[int]
    completion_tokens: Required[int]
    total_tokens: Required[int]
    prompt_tokens_details: NotRequired[PromptTokensDetails | None]
    completion_tokens_details: NotRequired[CompletionTokensDetails | None]


class PromptTokensDetails(TypedDict):
    cached_tokens: NotRequired[int]
    cache_write_tokens: NotRequired[int]


class CompletionTokensDetails(TypedDict):
    reasoning_tokens: NotRequired[int]


class ChatCompletionChunk(TypedDict):
    """One `data:` payload of a streamed completion."""

    id: Required[str]
    object: Required[str]
    created: Required[int]
    model: Required[str]
    choices: Required[list[ChatCompletionChunkChoice]]
    usage: NotRequired[CompletionUsage | None]
    system_fingerprint: NotRequired[str | None]


class ChatCompletionChunkChoice(TypedDict):
    index: Required[int]
    delta: NotRequired[ChatCompletionChunkDelta]
    finish_reason: NotRequired[str | None]
    logprobs: NotRequired[ChoiceLogprobs | None]
    usage: NotRequired[CompletionUsage | None]


class ChatCompletionChunkDelta(TypedDict):
    """The new piece of the message; every field is optional."""

    role: NotRequired[str | None]
    content: NotRequired[str | None]
    reasoning_content: NotRequired[str | None]
    tool_calls: NotRequired[list[ChatCompletionChunkToolCall] | None]


class ChatCompletionChunkToolCall(TypedDict):
    """A piece of a tool call."""

    index: NotRequired[int | None]
    id: NotRequired[str | None]
    type: NotRequired[str | None]
    function: NotRequired[ChatCompletionChunkToolCallFunction | None]


class ChatCompletionChunkToolCallFunction(TypedDict):
    name: NotRequired[str | None]
    arguments: NotRequired[str | None]


ChatToolParam: TypeAlias = FunctionToolParam | WebSearchToolParam
"""A tool the model may call."""


UserContentPartParam: TypeAlias = TextPartParam | ImageUrlPartParam | VideoUrlPartParam
"""One part of a user message."""


ChatMessageParam: TypeAlias = SystemMessageParam | DynamicToolsMessageParam | UserMessageParam | AssistantMessageParam | ToolMessageParam
"""One conversation message."""


ToolChoiceParam: TypeAlias = Literal['auto', 'none', 'required'] | NamedToolChoiceParam
"""Whether the model calls tools: `auto`, `none`, or `required` (needs at least one tool), or an object naming one function."""


ResponseFormatParam: TypeAlias = ResponseFormatTextParam | ResponseFormatJsonObjectParam | ResponseFormatJsonSchemaParam
"""Shape of the answer text."""


StopSequencesParam: TypeAlias = str | Sequence[str]
"""Up to 5 stop sequences."""
