"""TypedDicts of the JSON bodies of openapi/responses.yaml (Kimi K3.1 Pro - Responses format).

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


class InputMessageParam(TypedDict):
    """A conversation message."""

    type: NotRequired[Literal['message']]
    id: NotRequired[str]
    role: Required[Literal['user', 'system', 'developer', 'assistant']]
    content: Required[str | Sequence[InputContentPartParam | RuntimeMapping]]
    status: NotRequired[str]


class InputTextPartParam(TypedDict):
    type: Required[Literal['input_text']]
    text: Required[str]


class InputImagePartParam(TypedDict):
    """An image given as a base64 data URL (data:image/png;base64,...)."""

    type: Required[Literal['input_image']]
    image_url: NotRequired[str]
    file_id: NotRequired[str]
    detail: NotRequired[Literal['auto', 'low', 'high']]


class OutputTextPartParam(TypedDict):
    type: Required[Literal['output_text']]
    text: Required[str]
    annotations: NotRequired[Sequence[AnnotationParam | RuntimeMapping]]
    logprobs: NotRequired[Sequence[Mapping[str, Any]]]


class UrlCitationAnnotationParam(TypedDict):
    type: Required[Literal['url_citation']]
    url: NotRequired[str]
    title: NotRequired[str]
    start_index: NotRequired[int]
    end_index: NotRequired[int]


class RefusalPartParam(TypedDict):
    type: Required[Literal['refusal']]
    refusal: Required[str]


class ReasoningItemParam(TypedDict):
    """The model's reasoning."""

    type: Required[Literal['reasoning']]
    id: NotRequired[str]
    summary: NotRequired[Sequence[ReasoningSummaryPartParam | RuntimeMapping]]
    content: NotRequired[Sequence[ReasoningContentPartParam | RuntimeMapping]]
    encrypted_content: NotRequired[str | None]
    status: NotRequired[str]


class SummaryTextPartParam(TypedDict):
    type: Required[Literal['summary_text']]
    text: Required[str]


class ReasoningTextPartParam(TypedDict):
    type: Required[Literal['reasoning_text']]
    text: Required[str]


class FunctionCallItemParam(TypedDict):
    """A function call requested by the model."""

    type: Required[Literal['function_call']]
    id: NotRequired[str]
    call_id: Required[str]
    name: Required[str]
    namespace: NotRequired[str]
    arguments: Required[str]
    status: NotRequired[str]


class FunctionCallOutputItemParam(TypedDict):
    """The result of a function call, matched by `call_id`."""

    type: Required[Literal['function_call_output']]
    id: NotRequired[str]
    call_id: Required[str]
    output: Required[str | Sequence[ToolOutputPartParam | RuntimeMapping]]
    status: NotRequired[str]


class CustomToolCallItemParam(TypedDict):
    """A call of a custom tool (e.g. apply_patch); `input` is free text."""

    type: Required[Literal['custom_tool_call']]
    id: NotRequired[str]
    call_id: Required[str]
    name: Required[str]
    input: Required[str]
    status: NotRequired[str]


class CustomToolCallOutputItemParam(TypedDict):
    """The result of a custom tool call (e.g. apply_patch), matched by `call_id`."""

    type: Required[Literal['custom_tool_call_output']]
    id: NotRequired[str]
    call_id: Required[str]
    output: Required[str | Sequence[ToolOutputPartParam | RuntimeMapping]]


class WebSearchCallItemParam(TypedDict):
    """A web search the service ran."""

    type: Required[Literal['web_search_call']]
    id: NotRequired[str]
    status: NotRequired[str]
    action: NotRequired[WebSearchActionParam | RuntimeMapping]
    results: NotRequired[Sequence[Mapping[str, Any]]]


class WebSearchActionParam(TypedDict):
    """What the search did (type search, open_page, find ...)."""

    type: NotRequired[str]
    query: NotRequired[str]
    sources: NotRequired[Sequence[Mapping[str, Any]]]


class ReasoningConfigParam(TypedDict):
    """Reasoning settings."""

    effort: NotRequired[Literal['low', 'high', 'max', 'medium', 'xhigh', 'minimal', 'none']]
    summary: NotRequired[Literal['auto', 'concise', 'detailed']]


class TextConfigParam(TypedDict):
    """Output text settings."""

    format: NotRequired[TextFormatParam | RuntimeMapping]


class TextFormatTextParam(TypedDict):
    type: Required[Literal['text']]


class TextFormatJsonSchemaParam(TypedDict):
    """Structured output."""

    type: Required[Literal['json_schema']]
    name: NotRequired[str]
    description: NotRequired[str]
    schema: Required[Mapping[str, Any]]
    strict: NotRequired[bool]


class FunctionToolParam(TypedDict):
    type: Required[Literal['function']]
    name: Required[str]
    description: NotRequired[str]
    parameters: NotRequired[Mapping[str, Any]]
    strict: NotRequired[bool]


class NamespaceToolParam(TypedDict):
    """A named group of function tools."""

    type: Required[Literal['namespace']]
    name: Required[str]
    description: NotRequired[str]
    tools: Required[Sequence[FunctionToolParam | RuntimeMapping]]


class ApplyPatchToolParam(TypedDict):
    """The apply_patch tool, declared as a custom (free-form input) tool."""

    type: Required[Literal['custom']]
    name: Required[Literal['apply_patch']]
    description: NotRequired[str]
    format: NotRequired[CustomToolFormatParam | RuntimeMapping]


class CustomToolFormatParam(TypedDict):
    """Input format of a custom tool: {"type":"text"} for free text, or {"type":"grammar","syntax":"lark"|"regex","definition":"..."}."""

    type: NotRequired[str]
    syntax: NotRequired[str]
    definition: NotRequired[str]


class WebSearchToolParam(TypedDict):
    """The built-in web search."""

    type: Required[Literal['web_search']]


class ToolChoiceObjectParam(TypedDict):
    """Object form of tool_choice, e.g. {"type":"auto"}."""

    type: Required[Literal['auto', 'none', 'required', 'function', 'custom', 'web_search']]
    name: NotRequired[str]


class PromptCacheOptionsParam(TypedDict):
    """Cache-write options (K3.1 series only; kimi-k3 rejects it)."""

    mode: NotRequired[Literal['implicit']]
    ttl: NotRequired[Literal['5m', '1h']]


class ResponsesCreateFields(TypedDict, total=False):
    """The body fields of one ``responses`` request, as keyword arguments."""

    model: str | None
    input: str | Sequence[InputItemParam | RuntimeMapping] | None
    instructions: str | None
    max_output_tokens: int | Literal['auto'] | None
    reasoning: ReasoningConfigParam | RuntimeMapping | None
    text: TextConfigParam | RuntimeMapping | None
    tools: Sequence[Callable[..., Any] | RequestToolParam | RuntimeMapping] | None
    tool_choice: Literal['auto', 'none', 'required'] | ToolChoiceObjectParam | RuntimeMapping | None
    include: Sequence[Literal['web_search_call.results', 'web_search_call.action.sources']] | None
    prompt_cache_key: str | None
    prompt_cache_options: PromptCacheOptionsParam | RuntimeMapping | None
    safety_identifier: str | None


class CreateResponseRequestParam(TypedDict):
    """Body of POST /v1/responses."""

    model: Required[str]
    input: Required[str | Sequence[InputItemParam | RuntimeMapping]]
    instructions: NotRequired[str]
    stream: NotRequired[bool]
    max_output_tokens: NotRequired[int]
    reasoning: NotRequired[ReasoningConfigParam | RuntimeMapping]
    text: NotRequired[TextConfigParam | RuntimeMapping]
    tools: NotRequired[Sequence[RequestToolParam | RuntimeMapping]]
    tool_choice: NotRequired[Literal['auto', 'none', 'required'] | ToolChoiceObjectParam | RuntimeMapping]
    include: NotRequired[Sequence[Literal['web_search_call.results', 'web_search_call.action.sources']]]
    prompt_cache_key: NotRequired[str]
    prompt_cache_options: NotRequired[PromptCacheOptionsParam | RuntimeMapping]
    safety_identifier: NotRequired[str]


class ResponseObject(TypedDict):
    """The response object (`object: response`)."""

    id: Required[str]
    object: Required[str]
    created_at: Required[int]
    model: Required[str]
    status: Required[str]
    incomplete_details: NotRequired[IncompleteDetails | None]
    error: NotRequired[ResponseError | None]
    output: Required[list[OutputItem]]
    usage: NotRequired[ResponseUsage | None]
    instructions: NotRequired[str | None]
    max_output_tokens: NotRequired[int | None]
    reasoning: NotRequired[ResponseReasoning | None]
    text: NotRequired[dict[str, Any]]
    tools: NotRequired[list[Tool]]
    tool_choice: NotRequired[str | dict[str, Any]]
    parallel_tool_calls: NotRequired[bool]
    temperature: NotRequired[float | None]
    top_p: NotRequired[float | None]
    prompt_cache_key: NotRequired[str | None]
    prompt_cache_options: NotRequired[ResponsePromptCacheOptions | None]
    safety_identifier: NotRequired[str | None]
    metadata: NotRequired[dict[str, Any] | None]


class IncompleteDetails(TypedDict):
    reason: NotRequired[str]


class ResponseError(TypedDict):
    code: NotRequired[str | None]
    message: NotRequired[str]


class OutputMessage(TypedDict):
    """The visible answer."""

    type: Required[Literal['message']]
    id: NotRequired[str]
    role: NotRequired[str]
    status: NotRequired[str]
    content: Required[list[OutputContentPart]]


class OutputTextPart(TypedDict):
    type: Required[Literal['output_text']]
    text: Required[str]
    annotations: NotRequired[list[Annotation]]
    logprobs: NotRequired[list[dict[str, Any]]]


class UrlCitationAnnotation(TypedDict):
    type: Required[Literal['url_citation']]
    url: NotRequired[str]
    title: NotRequired[str]
    start_index: NotRequired[int]
    end_index: NotRequired[int]


class UnknownAnnotation(TypedDict, total=False):
    """Its ``type`` is any string; its other keys are kept as received."""

    type: str


class RefusalPart(TypedDict):
    type: Required[Literal['refusal']]
    refusal: Required[str]


class ReasoningTextPart(TypedDict):
    type: Required[Literal['reasoning_text']]
    text: Required[str]


class UnknownPart(TypedDict, total=False):
    """A content part of a type this document does not know, kept as received. Its ``type`` is any string; its other keys are kept as received."""

    type: str


class ReasoningItem(TypedDict):
    """The model's reasoning."""

    type: Required[Literal['reasoning']]
    id: NotRequired[str]
    summary: NotRequired[list[ReasoningSummaryPart]]
    content: NotRequired[list[ReasoningContentPart]]
    encrypted_content: NotRequired[str | None]
    status: NotRequired[str]


class SummaryTextPart(TypedDict):
    type: Required[Literal['summary_text']]
    text: Required[str]


class FunctionCallItem(TypedDict):
    """A function call requested by the model."""

    type: Required[Literal['function_call']]
    id: NotRequired[str]
    call_id: Required[str]
    name: Required[str]
    namespace: NotRequired[str]
    arguments: Required[str]
    status: NotRequired[str]


class CustomToolCallItem(TypedDict):
    """A call of a custom tool (e.g. apply_patch); `input` is free text."""

    type: Required[Literal['custom_tool_call']]
    id: NotRequired[str]
    call_id: Required[str]
    name: Required[str]
    input: Required[str]
    status: NotRequired[str]


class WebSearchCallItem(TypedDict):
    """A web search the service ran."""

    type: Required[Literal['web_search_call']]
    id: NotRequired[str]
    status: NotRequired[str]
    action: NotRequired[WebSearchAction]
    results: NotRequired[list[dict[str, Any]]]


class WebSearchAction(TypedDict):
    """What the search did (type search, open_page, find ...)."""

    type: NotRequired[str]
    query: NotRequired[str]
    sources: NotRequired[list[dict[str, Any]]]


class UnknownItem(TypedDict, total=False):
    """An item of a type this document does not know, kept as received. Its ``type`` is any string; its other keys are kept as received."""

    type: str


class ResponseUsage(TypedDict):
    """Token counts. input_tokens already includes cached reads and cache writes (the three are disjoint parts of it); output_tokens includes reasoning."""

    input_tokens: NotRequired[int]
    input_tokens_details: NotRequired[ResponseUsageInputTokensDetails]
    output_tokens: NotRequired[int]
    output_tokens_details: NotRequired[ResponseUsageOutputTokensDetails]
    total_tokens: NotRequired[int]


class ResponseUsageInputTokensDetails(TypedDict):
    cached_tokens: NotRequired[int]
    cache_write_tokens: NotRequired[int]


class ResponseUsageOutputTokensDetails(TypedDict):
    reasoning_tokens: NotRequired[int]


class ResponseReasoning(TypedDict):
    """The reasoning settings that applied."""

    effort: NotRequired[str | None]
    summary: NotRequired[str | None]


class FunctionTool(TypedDict):
    type: Required[Literal['function']]
    name: Required[str]
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    strict: NotRequired[bool]


class NamespaceTool(TypedDict):
    """A named group of function tools."""

    type: Required[Literal['namespace']]
    name: Required[str]
    description: NotRequired[str]
    tools: Required[list[FunctionTool]]


class ApplyPatchTool(TypedDict):
    """The apply_patch tool, declared as a custom (free-form input) tool."""

    type: Required[Literal['custom']]
    name: Required[Literal['apply_patch']]
    description: NotRequired[str]
    format: NotRequired[CustomToolFormat]


class CustomToolFormat(TypedDict):
    """Input format of a custom tool: {"type":"text"} for free text, or {"type":"grammar","syntax":"lark"|"regex","definition":"..."}."""

    type: NotRequired[str]
    syntax: NotRequired[str]
    definition: NotRequired[str]


class WebSearchTool(TypedDict):
    """The built-in web search."""

    type: Required[Literal['web_search']]


class UnknownTool(TypedDict, total=False):
    """Any other tool shape, kept as received. Its ``type`` is any string; its other keys are kept as received."""

    type: str


class ResponsePromptCacheOptions(TypedDict):
    """The cache options that applied (mode implicit; ttl 5m or 1h)."""

    mode: NotRequired[str]
    ttl: NotRequired[str]


class ResponseCreatedEvent(TypedDict):
    type: Required[Literal['response.created']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ResponseInProgressEvent(TypedDict):
    type: Required[Literal['response.in_progress']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ResponseOutputItemAddedEvent(TypedDict):
    type: Required[Literal['response.output_item.added']]
    sequence_number: NotRequired[int]
    output_index: NotRequired[int]
    item: Required[OutputItem]


class ResponseOutputItemDoneEvent(TypedDict):
    type: Required[Literal['response.output_item.done']]
    sequence_number: NotRequired[int]
    output_index: NotRequired[int]
    item: Required[OutputItem]


class ResponseContentPartAddedEvent(TypedDict):
    type: Required[Literal['response.content_part.added']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    part: Required[OutputContentPart]


class ResponseContentPartDoneEvent(TypedDict):
    type: Required[Literal['response.content_part.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    part: Required[OutputContentPart]


class ResponseOutputTextDeltaEvent(TypedDict):
    type: Required[Literal['response.output_text.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    delta: Required[str]
    logprobs: NotRequired[list[dict[str, Any]]]


class ResponseOutputTextDoneEvent(TypedDict):
    type: Required[Literal['response.output_text.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    text: Required[str]
    logprobs: NotRequired[list[dict[str, Any]]]


class ResponseReasoningTextDeltaEvent(TypedDict):
    type: Required[Literal['response.reasoning_text.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    delta: Required[str]


class ResponseReasoningTextDoneEvent(TypedDict):
    type: Required[Literal['response.reasoning_text.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    text: Required[str]


class ResponseReasoningSummaryTextDeltaEvent(TypedDict):
    """A piece of a reasoning summary; `summary_index` selects the summary part."""

    type: Required[Literal['response.reasoning_summary_text.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    summary_index: NotRequired[int]
    delta: Required[str]


class ResponseQueuedEvent(TypedDict):
    """The response is queued; carries the response snapshot."""

    type: Required[Literal['response.queued']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ResponseRefusalDeltaEvent(TypedDict):
    """A piece of a refusal part of a message item."""

    type: Required[Literal['response.refusal.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    delta: Required[str]


class ResponseRefusalDoneEvent(TypedDict):
    """The whole refusal text of a message item's part."""

    type: Required[Literal['response.refusal.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    content_index: NotRequired[int]
    refusal: Required[str]


class ResponseReasoningSummaryPartAddedEvent(TypedDict):
    """A reasoning summary part begins."""

    type: Required[Literal['response.reasoning_summary_part.added']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    summary_index: NotRequired[int]
    part: Required[ReasoningSummaryPart]


class ResponseReasoningSummaryPartDoneEvent(TypedDict):
    """A reasoning summary part is complete."""

    type: Required[Literal['response.reasoning_summary_part.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    summary_index: NotRequired[int]
    part: Required[ReasoningSummaryPart]


class ResponseReasoningSummaryTextDoneEvent(TypedDict):
    """The whole text of a reasoning summary part."""

    type: Required[Literal['response.reasoning_summary_text.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    summary_index: NotRequired[int]
    text: Required[str]


class ResponseCustomToolCallInputDeltaEvent(TypedDict):
    """A piece of a custom tool call's input (apply_patch)."""

    type: Required[Literal['response.custom_tool_call_input.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    delta: Required[str]


class ResponseCustomToolCallInputDoneEvent(TypedDict):
    """The whole input of a custom tool call."""

    type: Required[Literal['response.custom_tool_call_input.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    input: Required[str]


class ResponseFunctionCallArgumentsDeltaEvent(TypedDict):
    type: Required[Literal['response.function_call_arguments.delta']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    delta: Required[str]


class ResponseFunctionCallArgumentsDoneEvent(TypedDict):
    type: Required[Literal['response.function_call_arguments.done']]
    sequence_number: NotRequired[int]
    item_id: NotRequired[str]
    output_index: NotRequired[int]
    name: NotRequired[str]
    arguments: Required[str]


class ResponseCompletedEvent(TypedDict):
    """Terminal event of a successful stream; carries the whole response and usage."""

    type: Required[Literal['response.completed']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ResponseIncompleteEvent(TypedDict):
    """Terminal event of a stream cut short (see response.incomplete_details)."""

    type: Required[Literal['response.incomplete']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ResponseFailedEvent(TypedDict):
    """Terminal event of a failed generation (see response.error)."""

    type: Required[Literal['response.failed']]
    sequence_number: NotRequired[int]
    response: Required[ResponseObject]


class ErrorEvent(TypedDict):
    """An error reported inside a stream (after a 200 status)."""

    type: Required[Literal['error']]
    sequence_number: NotRequired[int]
    code: NotRequired[str | None]
    message: NotRequired[str]
    param: NotRequired[str | None]


class UnknownEvent(TypedDict, total=False):
    """An event of a type this document does not know, kept as received. Its ``type`` is any string; its other keys are kept as received."""

    type: str


AnnotationParam: TypeAlias = UrlCitationAnnotationParam | RuntimeMapping


InputContentPartParam: TypeAlias = InputTextPartParam | InputImagePartParam | OutputTextPartParam | RefusalPartParam


ReasoningSummaryPartParam: TypeAlias = SummaryTextPartParam | RuntimeMapping


ReasoningContentPartParam: TypeAlias = ReasoningTextPartParam | RuntimeMapping


ToolOutputPartParam: TypeAlias = InputTextPartParam | InputImagePartParam


InputItemParam: TypeAlias = InputMessageParam | ReasoningItemParam | FunctionCallItemParam | FunctionCallOutputItemParam | CustomToolCallItemParam | CustomToolCallOutputItemParam | WebSearchCallItemParam
"""One item of the request's `input` list."""


TextFormatParam: TypeAlias = TextFormatTextParam | TextFormatJsonSchemaParam
"""Plain text, or JSON that follows a JSON Schema."""


RequestToolParam: TypeAlias = FunctionToolParam | NamespaceToolParam | ApplyPatchToolParam | WebSearchToolParam
"""A tool offered in a request: a function, a namespace of functions, the apply_patch custom tool or web search."""


_ANNOTATION_TYPES = frozenset(['url_citation'])
Annotation: TypeAlias = UrlCitationAnnotation

KnownAnnotation: TypeAlias = Annotation
"""Annotation itself (kept for code that narrowed with ``is_known_annotation``)."""


def is_unknown_annotation(value: Annotation) -> TypeGuard[UnknownAnnotation]:
    """True when ``value`` has a ``type`` the spec does not name for a Annotation (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _ANNOTATION_TYPES


def is_known_annotation(value: Annotation) -> TypeGuard[KnownAnnotation]:
    """True when ``value`` is one of the Annotation members the spec names."""
    return value.get('type') in _ANNOTATION_TYPES


_OUTPUT_CONTENT_PART_TYPES = frozenset(['output_text', 'reasoning_text', 'refusal'])
OutputContentPart: TypeAlias = OutputTextPart | RefusalPart | ReasoningTextPart

KnownOutputContentPart: TypeAlias = OutputContentPart
"""OutputContentPart itself (kept for code that narrowed with ``is_known_output_content_part``)."""


def is_unknown_output_content_part(value: OutputContentPart) -> TypeGuard[UnknownPart]:
    """True when ``value`` has a ``type`` the spec does not name for a OutputContentPart (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _OUTPUT_CONTENT_PART_TYPES


def is_known_output_content_part(value: OutputContentPart) -> TypeGuard[KnownOutputContentPart]:
    """True when ``value`` is one of the OutputContentPart members the spec names."""
    return value.get('type') in _OUTPUT_CONTENT_PART_TYPES


_REASONING_SUMMARY_PART_TYPES = frozenset(['summary_text'])
ReasoningSummaryPart: TypeAlias = SummaryTextPart

KnownReasoningSummaryPart: TypeAlias = ReasoningSummaryPart
"""ReasoningSummaryPart itself (kept for code that narrowed with ``is_known_reasoning_summary_part``)."""


def is_unknown_reasoning_summary_part(value: ReasoningSummaryPart) -> TypeGuard[UnknownPart]:
    """True when ``value`` has a ``type`` the spec does not name for a ReasoningSummaryPart (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _REASONING_SUMMARY_PART_TYPES


def is_known_reasoning_summary_part(value: ReasoningSummaryPart) -> TypeGuard[KnownReasoningSummaryPart]:
    """True when ``value`` is one of the ReasoningSummaryPart members the spec names."""
    return value.get('type') in _REASONING_SUMMARY_PART_TYPES


_REASONING_CONTENT_PART_TYPES = frozenset(['reasoning_text'])
ReasoningContentPart: TypeAlias = ReasoningTextPart

KnownReasoningContentPart: TypeAlias = ReasoningContentPart
"""ReasoningContentPart itself (kept for code that narrowed with ``is_known_reasoning_content_part``)."""


def is_unknown_reasoning_content_part(value: ReasoningContentPart) -> TypeGuard[UnknownPart]:
    """True when ``value`` has a ``type`` the spec does not name for a ReasoningContentPart (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _REASONING_CONTENT_PART_TYPES


def is_known_reasoning_content_part(value: ReasoningContentPart) -> TypeGuard[KnownReasoningContentPart]:
    """True when ``value`` is one of the ReasoningContentPart members the spec names."""
    return value.get('type') in _REASONING_CONTENT_PART_TYPES


_OUTPUT_ITEM_TYPES = frozenset(['custom_tool_call', 'function_call', 'message', 'reasoning', 'web_search_call'])
OutputItem: TypeAlias = OutputMessage | ReasoningItem | FunctionCallItem | CustomToolCallItem | WebSearchCallItem
"""One item of a response's `output` list."""

KnownOutputItem: TypeAlias = OutputItem
"""OutputItem itself (kept for code that narrowed with ``is_known_output_item``)."""


def is_unknown_output_item(value: OutputItem) -> TypeGuard[UnknownItem]:
    """True when ``value`` has a ``type`` the spec does not name for a OutputItem (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _OUTPUT_ITEM_TYPES


def is_known_output_item(value: OutputItem) -> TypeGuard[KnownOutputItem]:
    """True when ``value`` is one of the OutputItem members the spec names."""
    return value.get('type') in _OUTPUT_ITEM_TYPES


_TOOL_TYPES = frozenset(['custom', 'function', 'namespace', 'web_search'])
Tool: TypeAlias = FunctionTool | NamespaceTool | ApplyPatchTool | WebSearchTool
"""A tool definition."""

KnownTool: TypeAlias = Tool
"""Tool itself (kept for code that narrowed with ``is_known_tool``)."""


def is_unknown_tool(value: Tool) -> TypeGuard[UnknownTool]:
    """True when ``value`` has a ``type`` the spec does not name for a Tool (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _TOOL_TYPES


def is_known_tool(value: Tool) -> TypeGuard[KnownTool]:
    """True when ``value`` is one of the Tool members the spec names."""
    return value.get('type') in _TOOL_TYPES


_RESPONSE_STREAM_EVENT_TYPES = frozenset(['error', 'response.completed', 'response.content_part.added', 'response.content_part.done', 'response.created', 'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done', 'response.failed', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.in_progress', 'response.incomplete', 'response.output_item.added', 'response.output_item.done', 'response.output_text.delta', 'response.output_text.done', 'response.queued', 'response.reasoning_summary_part.added', 'response.reasoning_summary_part.done', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done', 'response.reasoning_text.delta', 'response.reasoning_text.done', 'response.refusal.delta', 'response.refusal.done'])
ResponseStreamEvent: TypeAlias = ResponseCreatedEvent | ResponseInProgressEvent | ResponseOutputItemAddedEvent | ResponseOutputItemDoneEvent | ResponseContentPartAddedEvent | ResponseContentPartDoneEvent | ResponseOutputTextDeltaEvent | ResponseOutputTextDoneEvent | ResponseReasoningTextDeltaEvent | ResponseReasoningTextDoneEvent | ResponseReasoningSummaryTextDeltaEvent | ResponseQueuedEvent | ResponseRefusalDeltaEvent | ResponseRefusalDoneEvent | ResponseReasoningSummaryPartAddedEvent | ResponseReasoningSummaryPartDoneEvent | ResponseReasoningSummaryTextDoneEvent | ResponseCustomToolCallInputDeltaEvent | ResponseCustomToolCallInputDoneEvent | ResponseFunctionCallArgumentsDeltaEvent | ResponseFunctionCallArgumentsDoneEvent | ResponseCompletedEvent | ResponseIncompleteEvent | ResponseFailedEvent | ErrorEvent
"""The `data:` payload of one SSE event of a streaming response."""

KnownResponseStreamEvent: TypeAlias = ResponseStreamEvent
"""ResponseStreamEvent itself (kept for code that narrowed with ``is_known_response_stream_event``)."""


def is_unknown_response_stream_event(value: ResponseStreamEvent) -> TypeGuard[UnknownEvent]:
    """True when ``value`` has a ``type`` the spec does not name for a ResponseStreamEvent (it is then read as received, as a mapping); test it before narrowing on ``type``."""
    return value.get('type') not in _RESPONSE_STREAM_EVENT_TYPES


def is_known_response_stream_event(value: ResponseStreamEvent) -> TypeGuard[KnownResponseStreamEvent]:
    """True when ``value`` is one of the ResponseStreamEvent members the spec names."""
    return value.get('type') in _RESPONSE_STREAM_EVENT_TYPES
