"""TypedDicts of the JSON bodies of openapi/messages.yaml (Kimi K3.1 Pro - Messages format).

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


class MessageParam(TypedDict):
    """One turn of the conversation sent in `messages`."""

    role: Required[Literal['user', 'assistant']]
    content: Required[str | Sequence[ContentBlockParam | RuntimeMapping]]


class TextBlockParam(TypedDict):
    """Visible text (a request refuses blank text; see ContentBlockParam)."""

    type: Required[Literal['text']]
    text: Required[str]


class ImageBlockParam(TypedDict):
    """An input image (user turns and tool results)."""

    type: Required[Literal['image']]
    source: Required[ImageSourceParam | RuntimeMapping]


class Base64ImageSourceParam(TypedDict):
    """Inline image data."""

    type: Required[Literal['base64']]
    media_type: Required[Literal['image/jpeg', 'image/png', 'image/gif', 'image/webp']]
    data: Required[str]


class UrlImageSourceParam(TypedDict):
    """A reference to an image the service can fetch (for example an `ms://` file reference)."""

    type: Required[Literal['url']]
    url: Required[str]


class ThinkingBlockParam(TypedDict):
    """The model's reasoning."""

    type: Required[Literal['thinking']]
    thinking: Required[str]
    signature: NotRequired[str]


class ToolUseBlockParam(TypedDict):
    """A call of a custom tool."""

    type: Required[Literal['tool_use']]
    id: Required[str]
    name: Required[str]
    input: Required[Mapping[str, Any]]


class ToolResultBlockParam(TypedDict):
    """The caller's answer to a tool_use block, sent in a user turn."""

    type: Required[Literal['tool_result']]
    tool_use_id: Required[str]
    content: Required[str | Sequence[ToolResultContentBlockParam | RuntimeMapping]]
    is_error: NotRequired[bool]


class ServerToolUseBlockParam(TypedDict):
    """A call of a server-side tool (web search) that the service ran itself."""

    type: Required[Literal['server_tool_use']]
    id: Required[str]
    name: Required[str]
    input: Required[Mapping[str, Any]]


class WebSearchToolResultBlockParam(TypedDict):
    """What a server web search returned; keep it in the history unchanged."""

    type: Required[Literal['web_search_tool_result']]
    tool_use_id: Required[str]
    content: Required[Sequence[WebSearchResultParam | RuntimeMapping] | WebSearchToolResultErrorParam | RuntimeMapping]


class WebSearchResultParam(TypedDict):
    """One search hit; fields beyond those listed are kept."""

    type: NotRequired[str]
    url: NotRequired[str]
    title: NotRequired[str]
    encrypted_content: NotRequired[str]
    page_age: NotRequired[str | None]


class WebSearchToolResultErrorParam(TypedDict):
    """A failed server web search."""

    type: Required[Literal['web_search_tool_result_error']]
    error_code: NotRequired[str]


class WebSearchToolParam(TypedDict):
    """The service's built-in web search; results come back as server blocks."""

    type: Required[Literal['web_search_20250305']]
    name: Required[Literal['web_search']]
    max_uses: NotRequired[int]


class CustomToolParam(TypedDict):
    """A function the caller implements; the model asks for it with a tool_use block."""

    name: Required[str]
    description: NotRequired[str]
    input_schema: Required[Mapping[str, Any]]


class ToolChoiceParam(TypedDict):
    """How the model may use the offered tools."""

    type: Required[Literal['auto', 'any', 'none']]


class RequestMetadataParam(TypedDict):
    """Request metadata."""

    user_id: NotRequired[str]


class CacheControlParam(TypedDict):
    """Top-level prompt-cache write options (K3.1 models only)."""

    type: Required[Literal['ephemeral']]
    ttl: NotRequired[Literal['5m', '1h']]


class OutputConfigParam(TypedDict):
    """Reasoning effort and structured output settings."""

    effort: NotRequired[Literal['low', 'high', 'max', 'medium', 'xhigh', 'minimal', 'none']]
    format: NotRequired[OutputFormatParam | RuntimeMapping]


class OutputFormatParam(TypedDict):
    """Structured output: the answer is JSON that satisfies `schema` (K3.1 models only)."""

    type: Required[Literal['json_schema']]
    schema: Required[Mapping[str, Any]]


class MessagesCreateFields(TypedDict, total=False):
    """The body fields of one ``messages`` request, as keyword arguments."""

    model: str | None
    max_tokens: int | Literal['auto'] | None
    messages: Sequence[MessageParam | RuntimeMapping] | None
    system: str | Sequence[TextBlockParam | RuntimeMapping] | None
    tools: Sequence[Callable[..., Any] | ToolDefinitionParam | RuntimeMapping] | None
    tool_choice: ToolChoiceParam | RuntimeMapping | None
    stop_sequences: Sequence[str] | None
    metadata: RequestMetadataParam | RuntimeMapping | None
    cache_control: CacheControlParam | RuntimeMapping | None
    output_config: OutputConfigParam | RuntimeMapping | None
    temperature: float | None
    top_p: float | None


class CreateMessageRequestParam(TypedDict):
    """Body of `POST /v1/messages`."""

    model: Required[str]
    max_tokens: Required[int]
    messages: Required[Sequence[MessageParam | RuntimeMapping]]
    system: NotRequired[str | Sequence[TextBlockParam | RuntimeMapping]]
    stream: NotRequired[bool]
    tools: NotRequired[Sequence[ToolDefinitionParam | RuntimeMapping]]
    tool_choice: NotRequired[ToolChoiceParam | RuntimeMapping]
    stop_sequences: NotRequired[Sequence[str]]
    metadata: NotRequired[RequestMetadataParam | RuntimeMapping]
    cache_control: NotRequired[CacheControlParam | RuntimeMapping]
    output_config: NotRequired[OutputConfigParam | RuntimeMapping]
    temperature: NotRequired[float]
    top_p: NotRequired[float]


class MessageResponse(TypedDict):
    """A generated assistant message (also the `message` of message_start)."""

    id: Required[str]
    type: Required[str]
    role: Required[str]
    model: NotRequired[str]
    content: Required[list[ContentBlock]]
    stop_reason: NotRequired[str | None]
    stop_sequence: NotRequired[str | None]
    usage: NotRequired[MessageUsage]


class TextBlock(TypedDict):
    """Visible text (a request refuses blank text; see ContentBlockParam)."""

    type: Required[Literal['text']]
    text: Required[str]


class ImageBlock(TypedDict):
    """An input image (user turns and tool results)."""

    type: Required[Literal['image']]
    source: Required[ImageSource]


class Base64ImageSource(TypedDict):
    """Inline image data."""

    type: Required[Literal['base64']]
    media_type: Required[Literal['image/jpeg', 'image/png', 'image/gif', 'image/webp']]
    data: Required[str]


class UrlImageSource(TypedDict):
    """A reference to an image the service can fetch (for example an `ms://` file reference)."""

    type: Required[Literal['url']]
    url: Required[str]


class ThinkingBlock(TypedDict):
    """The model's reasoning."""

    type: Required[Literal['thinking']]
    thinking: Required[str]
    signature: NotRequired[str]


class ToolUseBlock(TypedDict):
    """A call of a custom tool."""

    type: Required[Literal['tool_use']]
    id: Required[str]
    name: Required[str]
    input: Required[dict[str, Any]]


class ToolResultBlock(TypedDict):
    """The caller's answer to a tool_use block, sent in a user turn."""

    type: Required[Literal['tool_result']]
    tool_use_id: Required[str]
    content: Required[str | list[ToolResultContentBlock]]
    is_error: NotRequired[bool]


class ServerToolUseBlock(TypedDict):
    """A call of a server-side tool (web search) that the service ran itself."""

    type: Required[Literal['server_tool_use']]
    id: Required[str]
    name: Required[str]
    input: Required[dict[str, Any]]


class WebSearchToolResultBlock(TypedDict):
    """What a server web search returned; keep it in the history unchanged."""

    type: Required[Literal['web_search_tool_result']]
    tool_use_id: Required[str]
    content: Required[list[WebSearchResult] | WebSearchToolResultError | UnknownBlock]


class WebSearchResult(TypedDict):
    """One search hit; fields beyond those listed are kept."""

    type: NotRequired[str]
    url: NotRequired[str]
    title: NotRequired[str]
    encrypted_content: NotRequired[str]
    page_age: NotRequired[str | None]


class WebSearchToolResultError(TypedDict):
    """A failed server web search."""

    type: Required[Literal['web_search_tool_result_error']]
    error_code: NotRequired[str]


class UnknownBlock(TypedDict, total=False):
    """Any block (or object) this spec does not know, kept verbatim. Its ``type`` is any string; its other keys are kept as received."""

    type: str


class MessageUsage(TypedDict):
    """Token accounting."""

    input_tokens: NotRequired[int]
    cache_read_input_tokens: NotRequired[int | None]
    cache_creation_input_tokens: NotRequired[int | None]
    cache_creation: NotRequired[CacheCreationUsage | None]
    output_tokens: NotRequired[int]
    output_tokens_details: NotRequired[OutputTokensDetails | None]
    server_tool_use: NotRequired[ServerToolUsage | None]


class CacheCreationUsage(TypedDict):
    """Cache writes split by the TTL actually applied (they sum to cache_creation_input_tokens)."""

    ephemeral_5m_input_tokens: NotRequired[int]
    ephemeral_1h_input_tokens: NotRequired[int]


class OutputTokensDetails(TypedDict):
    """Breakdown of output tokens."""

    thinking_tokens: NotRequired[int]


class ServerToolUsage(TypedDict):
    """Server-side tool usage of this response."""

    web_search_requests: NotRequired[int]


class MessageStartEvent(TypedDict):
    """First event; carries the message shell with empty content and the input usage."""

    type: Required[Literal['message_start']]
    message: Required[MessageResponse]


class ContentBlockStartEvent(TypedDict):
    """A new content block begins at `index`."""

    type: Required[Literal['content_block_start']]
    index: Required[int]
    content_block: Required[ContentBlock]


class ContentBlockDeltaEvent(TypedDict):
    """A piece of the content block at `index`."""

    type: Required[Literal['content_block_delta']]
    index: Required[int]
    delta: Required[ContentBlockDelta]


class TextDelta(TypedDict):
    """More text for a text block."""

    type: Required[Literal['text_delta']]
    text: Required[str]


class ThinkingDelta(TypedDict):
    """More reasoning for a thinking block."""

    type: Required[Literal['thinking_delta']]
    thinking: Required[str]


class SignatureDelta(TypedDict):
    """The signature of a thinking block, sent just before the block stops."""

    type: Required[Literal['signature_delta']]
    signature: Required[str]


class InputJsonDelta(TypedDict):
    """A fragment of a tool_use / server_tool_use block's input, as raw JSON text; the fragments concatenate to the whole input object."""

    type: Required[Literal['input_json_delta']]
    partial_json: Required[str]


class CitationsDelta(TypedDict):
    """A citation to append to a text block's `citations` (the Anthropic-style delta the client reads; the Kimi documents do not show it)."""

    type: Required[Literal['citations_delta']]
    citation: Required[dict[str, Any]]


class UnknownDelta(TypedDict, total=False):
    """A delta this spec does not know, kept verbatim. Its ``type`` is any string; its other keys are kept as received."""

    type: str


class ContentBlockStopEvent(TypedDict):
    """The content block at `index` is complete."""

    type: Required[Literal['content_block_stop']]
    index: Required[int]


class MessageDeltaEvent(TypedDict):
    """Top-level changes near the end of the stream (stop reason, final usage)."""

    type: Required[Literal['message_delta']]
    delta: Required[MessageDelta]
    usage: NotRequired[MessageUsage]


class MessageDelta(TypedDict):
    """Fields of the message that changed."""

    stop_reason: NotRequired[str | None]
    stop_sequence: NotRequired[str | None]


class MessageStopEvent(TypedDict):
    """Last event of a complete stream."""

    type: Required[Literal['message_stop']]


class PingEvent(TypedDict):
    """Keep-alive; carries nothing."""

    type: Required[Literal['ping']]


class ErrorEvent(TypedDict):
    """An error reported inside a stream that had already started with status 200 (for example `overloaded_error`); the stream ends without message_stop."""

    type: Required[Literal['error']]
    error: Required[ErrorDetail]


class ErrorDetail(TypedDict):
    """What went wrong."""

    type: NotRequired[str]
    message: NotRequired[str]


class UnknownEvent(TypedDict, total=False):
    """A stream event this spec does not know, kept verbatim. Its ``type`` is any string; its other keys are kept as received."""

    type: str


ImageSourceParam: TypeAlias = Base64ImageSourceParam | UrlImageSourceParam
"""Where the image bytes come from."""


ToolResultContentBlockParam: TypeAlias = TextBlockParam | ImageBlockParam
"""A block inside a tool result (requests only, so the union is closed)."""


ContentBlockParam: TypeAlias = TextBlockParam | ImageBlockParam | ThinkingBlockParam | ToolUseBlockParam | ToolResultBlockParam | ServerToolUseBlockParam | WebSearchToolResultBlockParam
"""A content block in a request: one of the documented block types, told apart by `type` (a closed union; an unknown block type is refused before sending)."""


ToolDefinitionParam: TypeAlias = WebSearchToolParam | CustomToolParam
"""A tool offered to the model."""


ImageSource: TypeAlias = Base64ImageSource | UrlImageSource
"""Where the image bytes come from."""


ToolResultContentBlock: TypeAlias = TextBlock | ImageBlock
"""A block inside a tool result (requests only, so the union is closed)."""


_CONTENT_BLOCK_TYPES = frozenset(['image', 'server_tool_use', 'text', 'thinking', 'tool_result', 'tool_use', 'web_search_tool_result'])
ContentBlock: TypeAlias = TextBlock | ImageBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ServerToolUseBlock | WebSearchToolResultBlock
"""A content block of a response."""

KnownContentBlock: TypeAlias = ContentBlock
"""ContentBlock itself (kept for code that narrowed with ``is_known_content_block``)."""


def is_unknown_content_block(value: ContentBlock) -> TypeGuard[UnknownBlock]:
    """True when ``value`` has a ``type`` the spec does not name for a ContentBlock (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _CONTENT_BLOCK_TYPES


def is_known_content_block(value: ContentBlock) -> TypeGuard[KnownContentBlock]:
    """True when ``value`` is one of the ContentBlock members the spec names."""
    return value.get('type') in _CONTENT_BLOCK_TYPES


_CONTENT_BLOCK_DELTA_TYPES = frozenset(['citations_delta', 'input_json_delta', 'signature_delta', 'text_delta', 'thinking_delta'])
ContentBlockDelta: TypeAlias = TextDelta | ThinkingDelta | SignatureDelta | InputJsonDelta | CitationsDelta
"""One increment of a content block, matched by its `type` constant."""

KnownContentBlockDelta: TypeAlias = ContentBlockDelta
"""ContentBlockDelta itself (kept for code that narrowed with ``is_known_content_block_delta``)."""


def is_unknown_content_block_delta(value: ContentBlockDelta) -> TypeGuard[UnknownDelta]:
    """True when ``value`` has a ``type`` the spec does not name for a ContentBlockDelta (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _CONTENT_BLOCK_DELTA_TYPES


def is_known_content_block_delta(value: ContentBlockDelta) -> TypeGuard[KnownContentBlockDelta]:
    """True when ``value`` is one of the ContentBlockDelta members the spec names."""
    return value.get('type') in _CONTENT_BLOCK_DELTA_TYPES


_MESSAGE_STREAM_EVENT_TYPES = frozenset(['content_block_delta', 'content_block_start', 'content_block_stop', 'error', 'message_delta', 'message_start', 'message_stop', 'ping'])
MessageStreamEvent: TypeAlias = MessageStartEvent | ContentBlockStartEvent | ContentBlockDeltaEvent | ContentBlockStopEvent | MessageDeltaEvent | MessageStopEvent | PingEvent | ErrorEvent
"""The JSON `data:` payload of one SSE event of a streaming response, matched by its `type` constant; unknown events are kept as UnknownEvent."""

KnownMessageStreamEvent: TypeAlias = MessageStreamEvent
"""MessageStreamEvent itself (kept for code that narrowed with ``is_known_message_stream_event``)."""


def is_unknown_message_stream_event(value: MessageStreamEvent) -> TypeGuard[UnknownEvent]:
    """True when ``value`` has a ``type`` the spec does not name for a MessageStreamEvent (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _MESSAGE_STREAM_EVENT_TYPES


def is_known_message_stream_event(value: MessageStreamEvent) -> TypeGuard[KnownMessageStreamEvent]:
    """True when ``value`` is one of the MessageStreamEvent members the spec names."""
    return value.get('type') in _MESSAGE_STREAM_EVENT_TYPES
