"""Contains all the data models used in inputs/outputs"""

from .apply_patch_tool import ApplyPatchTool
from .create_response_request import CreateResponseRequest
from .create_response_request_model import CreateResponseRequestModel
from .custom_tool_call_item import CustomToolCallItem
from .custom_tool_call_output_item import CustomToolCallOutputItem
from .custom_tool_format import CustomToolFormat
from .error_detail import ErrorDetail
from .error_event import ErrorEvent
from .error_response import ErrorResponse
from .function_call_item import FunctionCallItem
from .function_call_output_item import FunctionCallOutputItem
from .function_tool import FunctionTool
from .function_tool_parameters import FunctionToolParameters
from .include_value import IncludeValue
from .incomplete_details import IncompleteDetails
from .input_image_part import InputImagePart
from .input_image_part_detail import InputImagePartDetail
from .input_message import InputMessage
from .input_message_role import InputMessageRole
from .input_text_part import InputTextPart
from .namespace_tool import NamespaceTool
from .output_message import OutputMessage
from .output_text_part import OutputTextPart
from .output_text_part_logprobs_item import OutputTextPartLogprobsItem
from .prompt_cache_options import PromptCacheOptions
from .prompt_cache_options_mode import PromptCacheOptionsMode
from .prompt_cache_options_ttl import PromptCacheOptionsTtl
from .reasoning_config import ReasoningConfig
from .reasoning_config_effort import ReasoningConfigEffort
from .reasoning_config_summary import ReasoningConfigSummary
from .reasoning_item import ReasoningItem
from .reasoning_text_part import ReasoningTextPart
from .refusal_part import RefusalPart
from .response_completed_event import ResponseCompletedEvent
from .response_content_part_added_event import ResponseContentPartAddedEvent
from .response_content_part_done_event import ResponseContentPartDoneEvent
from .response_created_event import ResponseCreatedEvent
from .response_custom_tool_call_input_delta_event import (
    ResponseCustomToolCallInputDeltaEvent,
)
from .response_custom_tool_call_input_done_event import (
    ResponseCustomToolCallInputDoneEvent,
)
from .response_error import ResponseError
from .response_failed_event import ResponseFailedEvent
from .response_function_call_arguments_delta_event import (
    ResponseFunctionCallArgumentsDeltaEvent,
)
from .response_function_call_arguments_done_event import (
    ResponseFunctionCallArgumentsDoneEvent,
)
from .response_in_progress_event import ResponseInProgressEvent
from .response_incomplete_event import ResponseIncompleteEvent
from .response_metadata import ResponseMetadata
from .response_object import ResponseObject
from .response_object_text import ResponseObjectText
from .response_output_item_added_event import ResponseOutputItemAddedEvent
from .response_output_item_done_event import ResponseOutputItemDoneEvent
from .response_output_text_delta_event import ResponseOutputTextDeltaEvent
from .response_output_text_delta_event_logprobs_item import (
    ResponseOutputTextDeltaEventLogprobsItem,
)
from .response_output_text_done_event import ResponseOutputTextDoneEvent
from .response_output_text_done_event_logprobs_item import (
    ResponseOutputTextDoneEventLogprobsItem,
)
from .response_prompt_cache_options import ResponsePromptCacheOptions
from .response_queued_event import ResponseQueuedEvent
from .response_reasoning import ResponseReasoning
from .response_reasoning_summary_part_added_event import (
    ResponseReasoningSummaryPartAddedEvent,
)
from .response_reasoning_summary_part_done_event import (
    ResponseReasoningSummaryPartDoneEvent,
)
from .response_reasoning_summary_text_delta_event import (
    ResponseReasoningSummaryTextDeltaEvent,
)
from .response_reasoning_summary_text_done_event import (
    ResponseReasoningSummaryTextDoneEvent,
)
from .response_reasoning_text_delta_event import ResponseReasoningTextDeltaEvent
from .response_reasoning_text_done_event import ResponseReasoningTextDoneEvent
from .response_refusal_delta_event import ResponseRefusalDeltaEvent
from .response_refusal_done_event import ResponseRefusalDoneEvent
from .response_tool_choice import ResponseToolChoice
from .response_usage import ResponseUsage
from .response_usage_input_tokens_details import ResponseUsageInputTokensDetails
from .response_usage_output_tokens_details import ResponseUsageOutputTokensDetails
from .summary_text_part import SummaryTextPart
from .text_config import TextConfig
from .text_format_json_schema import TextFormatJsonSchema
from .text_format_json_schema_schema import TextFormatJsonSchemaSchema
from .text_format_text import TextFormatText
from .tool_choice_mode import ToolChoiceMode
from .tool_choice_object import ToolChoiceObject
from .tool_choice_object_type import ToolChoiceObjectType
from .unknown_annotation import UnknownAnnotation
from .unknown_event import UnknownEvent
from .unknown_item import UnknownItem
from .unknown_part import UnknownPart
from .unknown_tool import UnknownTool
from .url_citation_annotation import UrlCitationAnnotation
from .web_search_action import WebSearchAction
from .web_search_action_sources_item import WebSearchActionSourcesItem
from .web_search_call_item import WebSearchCallItem
from .web_search_call_item_results_item import WebSearchCallItemResultsItem
from .web_search_tool import WebSearchTool

__all__ = (
    "ApplyPatchTool",
    "CreateResponseRequest",
    "CreateResponseRequestModel",
    "CustomToolCallItem",
    "CustomToolCallOutputItem",
    "CustomToolFormat",
    "ErrorDetail",
    "ErrorEvent",
    "ErrorResponse",
    "FunctionCallItem",
    "FunctionCallOutputItem",
    "FunctionTool",
    "FunctionToolParameters",
    "IncludeValue",
    "IncompleteDetails",
    "InputImagePart",
    "InputImagePartDetail",
    "InputMessage",
    "InputMessageRole",
    "InputTextPart",
    "NamespaceTool",
    "OutputMessage",
    "OutputTextPart",
    "OutputTextPartLogprobsItem",
    "PromptCacheOptions",
    "PromptCacheOptionsMode",
    "PromptCacheOptionsTtl",
    "ReasoningConfig",
    "ReasoningConfigEffort",
    "ReasoningConfigSummary",
    "ReasoningItem",
    "ReasoningTextPart",
    "RefusalPart",
    "ResponseCompletedEvent",
    "ResponseContentPartAddedEvent",
    "ResponseContentPartDoneEvent",
    "ResponseCreatedEvent",
    "ResponseCustomToolCallInputDeltaEvent",
    "ResponseCustomToolCallInputDoneEvent",
    "ResponseError",
    "ResponseFailedEvent",
    "ResponseFunctionCallArgumentsDeltaEvent",
    "ResponseFunctionCallArgumentsDoneEvent",
    "ResponseInProgressEvent",
    "ResponseIncompleteEvent",
    "ResponseMetadata",
    "ResponseObject",
    "ResponseObjectText",
    "ResponseOutputItemAddedEvent",
    "ResponseOutputItemDoneEvent",
    "ResponseOutputTextDeltaEvent",
    "ResponseOutputTextDeltaEventLogprobsItem",
    "ResponseOutputTextDoneEvent",
    "ResponseOutputTextDoneEventLogprobsItem",
    "ResponsePromptCacheOptions",
    "ResponseQueuedEvent",
    "ResponseReasoning",
    "ResponseReasoningSummaryPartAddedEvent",
    "ResponseReasoningSummaryPartDoneEvent",
    "ResponseReasoningSummaryTextDeltaEvent",
    "ResponseReasoningSummaryTextDoneEvent",
    "ResponseReasoningTextDeltaEvent",
    "ResponseReasoningTextDoneEvent",
    "ResponseRefusalDeltaEvent",
    "ResponseRefusalDoneEvent",
    "ResponseToolChoice",
    "ResponseUsage",
    "ResponseUsageInputTokensDetails",
    "ResponseUsageOutputTokensDetails",
    "SummaryTextPart",
    "TextConfig",
    "TextFormatJsonSchema",
    "TextFormatJsonSchemaSchema",
    "TextFormatText",
    "ToolChoiceMode",
    "ToolChoiceObject",
    "ToolChoiceObjectType",
    "UnknownAnnotation",
    "UnknownEvent",
    "UnknownItem",
    "UnknownPart",
    "UnknownTool",
    "UrlCitationAnnotation",
    "WebSearchAction",
    "WebSearchActionSourcesItem",
    "WebSearchCallItem",
    "WebSearchCallItemResultsItem",
    "WebSearchTool",
)
