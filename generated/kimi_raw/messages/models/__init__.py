"""Contains all the data models used in inputs/outputs"""

from .base_64_image_source import Base64ImageSource
from .base_64_image_source_media_type import Base64ImageSourceMediaType
from .cache_control import CacheControl
from .cache_control_ttl import CacheControlTtl
from .cache_creation_usage import CacheCreationUsage
from .citations_delta import CitationsDelta
from .citations_delta_citation import CitationsDeltaCitation
from .content_block_delta_event import ContentBlockDeltaEvent
from .content_block_start_event import ContentBlockStartEvent
from .content_block_stop_event import ContentBlockStopEvent
from .create_message_request import CreateMessageRequest
from .create_message_request_model import CreateMessageRequestModel
from .custom_tool import CustomTool
from .custom_tool_input_schema import CustomToolInputSchema
from .error_detail import ErrorDetail
from .error_event import ErrorEvent
from .error_response import ErrorResponse
from .image_block import ImageBlock
from .input_json_delta import InputJsonDelta
from .message_delta import MessageDelta
from .message_delta_event import MessageDeltaEvent
from .message_param import MessageParam
from .message_param_role import MessageParamRole
from .message_response import MessageResponse
from .message_start_event import MessageStartEvent
from .message_stop_event import MessageStopEvent
from .message_usage import MessageUsage
from .output_config import OutputConfig
from .output_config_effort import OutputConfigEffort
from .output_format import OutputFormat
from .output_format_schema import OutputFormatSchema
from .output_tokens_details import OutputTokensDetails
from .ping_event import PingEvent
from .request_metadata import RequestMetadata
from .server_tool_usage import ServerToolUsage
from .server_tool_use_block import ServerToolUseBlock
from .server_tool_use_block_input import ServerToolUseBlockInput
from .signature_delta import SignatureDelta
from .text_block import TextBlock
from .text_delta import TextDelta
from .thinking_block import ThinkingBlock
from .thinking_delta import ThinkingDelta
from .tool_choice import ToolChoice
from .tool_choice_type import ToolChoiceType
from .tool_result_block import ToolResultBlock
from .tool_use_block import ToolUseBlock
from .tool_use_block_input import ToolUseBlockInput
from .unknown_block import UnknownBlock
from .unknown_delta import UnknownDelta
from .unknown_event import UnknownEvent
from .url_image_source import UrlImageSource
from .web_search_result import WebSearchResult
from .web_search_tool import WebSearchTool
from .web_search_tool_result_block import WebSearchToolResultBlock
from .web_search_tool_result_error import WebSearchToolResultError

__all__ = (
    "Base64ImageSource",
    "Base64ImageSourceMediaType",
    "CacheControl",
    "CacheControlTtl",
    "CacheCreationUsage",
    "CitationsDelta",
    "CitationsDeltaCitation",
    "ContentBlockDeltaEvent",
    "ContentBlockStartEvent",
    "ContentBlockStopEvent",
    "CreateMessageRequest",
    "CreateMessageRequestModel",
    "CustomTool",
    "CustomToolInputSchema",
    "ErrorDetail",
    "ErrorEvent",
    "ErrorResponse",
    "ImageBlock",
    "InputJsonDelta",
    "MessageDelta",
    "MessageDeltaEvent",
    "MessageParam",
    "MessageParamRole",
    "MessageResponse",
    "MessageStartEvent",
    "MessageStopEvent",
    "MessageUsage",
    "OutputConfig",
    "OutputConfigEffort",
    "OutputFormat",
    "OutputFormatSchema",
    "OutputTokensDetails",
    "PingEvent",
    "RequestMetadata",
    "ServerToolUsage",
    "ServerToolUseBlock",
    "ServerToolUseBlockInput",
    "SignatureDelta",
    "TextBlock",
    "TextDelta",
    "ThinkingBlock",
    "ThinkingDelta",
    "ToolChoice",
    "ToolChoiceType",
    "ToolResultBlock",
    "ToolUseBlock",
    "ToolUseBlockInput",
    "UnknownBlock",
    "UnknownDelta",
    "UnknownEvent",
    "UrlImageSource",
    "WebSearchResult",
    "WebSearchTool",
    "WebSearchToolResultBlock",
    "WebSearchToolResultError",
)
