"""Contains all the data models used in inputs/outputs"""

from .assistant_message import AssistantMessage
from .chat_completion import ChatCompletion
from .chat_completion_choice import ChatCompletionChoice
from .chat_completion_chunk import ChatCompletionChunk
from .chat_completion_chunk_choice import ChatCompletionChunkChoice
from .chat_completion_chunk_delta import ChatCompletionChunkDelta
from .chat_completion_chunk_tool_call import ChatCompletionChunkToolCall
from .chat_completion_chunk_tool_call_function import (
    ChatCompletionChunkToolCallFunction,
)
from .chat_completion_message import ChatCompletionMessage
from .chat_model import ChatModel
from .choice_logprobs import ChoiceLogprobs
from .completion_tokens_details import CompletionTokensDetails
from .completion_usage import CompletionUsage
from .create_chat_completion_request import CreateChatCompletionRequest
from .dynamic_tools_message import DynamicToolsMessage
from .error_detail import ErrorDetail
from .error_response import ErrorResponse
from .function_definition import FunctionDefinition
from .function_definition_parameters import FunctionDefinitionParameters
from .function_tool import FunctionTool
from .image_url import ImageUrl
from .image_url_part import ImageUrlPart
from .json_schema_format import JsonSchemaFormat
from .json_schema_format_schema import JsonSchemaFormatSchema
from .named_tool_choice import NamedToolChoice
from .named_tool_choice_function import NamedToolChoiceFunction
from .prediction_content import PredictionContent
from .prompt_cache_mode import PromptCacheMode
from .prompt_cache_options import PromptCacheOptions
from .prompt_cache_ttl import PromptCacheTtl
from .prompt_tokens_details import PromptTokensDetails
from .reasoning_effort import ReasoningEffort
from .response_format_json_object import ResponseFormatJsonObject
from .response_format_json_schema import ResponseFormatJsonSchema
from .response_format_text import ResponseFormatText
from .stream_options import StreamOptions
from .system_message import SystemMessage
from .text_part import TextPart
from .token_logprob import TokenLogprob
from .tool_call import ToolCall
from .tool_call_function import ToolCallFunction
from .tool_choice_mode import ToolChoiceMode
from .tool_message import ToolMessage
from .top_logprob import TopLogprob
from .unknown_tool_call import UnknownToolCall
from .user_message import UserMessage
from .video_url import VideoUrl
from .video_url_part import VideoUrlPart
from .web_search_tool import WebSearchTool
from .web_search_tool_function import WebSearchToolFunction

__all__ = (
    "AssistantMessage",
    "ChatCompletion",
    "ChatCompletionChoice",
    "ChatCompletionChunk",
    "ChatCompletionChunkChoice",
    "ChatCompletionChunkDelta",
    "ChatCompletionChunkToolCall",
    "ChatCompletionChunkToolCallFunction",
    "ChatCompletionMessage",
    "ChatModel",
    "ChoiceLogprobs",
    "CompletionTokensDetails",
    "CompletionUsage",
    "CreateChatCompletionRequest",
    "DynamicToolsMessage",
    "ErrorDetail",
    "ErrorResponse",
    "FunctionDefinition",
    "FunctionDefinitionParameters",
    "FunctionTool",
    "ImageUrl",
    "ImageUrlPart",
    "JsonSchemaFormat",
    "JsonSchemaFormatSchema",
    "NamedToolChoice",
    "NamedToolChoiceFunction",
    "PredictionContent",
    "PromptCacheMode",
    "PromptCacheOptions",
    "PromptCacheTtl",
    "PromptTokensDetails",
    "ReasoningEffort",
    "ResponseFormatJsonObject",
    "ResponseFormatJsonSchema",
    "ResponseFormatText",
    "StreamOptions",
    "SystemMessage",
    "TextPart",
    "TokenLogprob",
    "ToolCall",
    "ToolCallFunction",
    "ToolChoiceMode",
    "ToolMessage",
    "TopLogprob",
    "UnknownToolCall",
    "UserMessage",
    "VideoUrl",
    "VideoUrlPart",
    "WebSearchTool",
    "WebSearchToolFunction",
)
