from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.chat_model import ChatModel
from ..models.reasoning_effort import ReasoningEffort
from ..models.tool_choice_mode import ToolChoiceMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.assistant_message import AssistantMessage
    from ..models.dynamic_tools_message import DynamicToolsMessage
    from ..models.function_tool import FunctionTool
    from ..models.named_tool_choice import NamedToolChoice
    from ..models.prediction_content import PredictionContent
    from ..models.prompt_cache_options import PromptCacheOptions
    from ..models.response_format_json_object import ResponseFormatJsonObject
    from ..models.response_format_json_schema import ResponseFormatJsonSchema
    from ..models.response_format_text import ResponseFormatText
    from ..models.stream_options import StreamOptions
    from ..models.system_message import SystemMessage
    from ..models.tool_message import ToolMessage
    from ..models.user_message import UserMessage
    from ..models.web_search_tool import WebSearchTool


T = TypeVar("T", bound="CreateChatCompletionRequest")


@_attrs_define
class CreateChatCompletionRequest:
    """Body of a chat completion request. Only `model` and `messages` are required; every
    other field is left out of the JSON unless the caller sets it. The five sampling
    fields are fixed by the service and are best omitted.

        Attributes:
            model (ChatModel | str): A model id; the known ones are listed in `ChatModel`.
            messages (list[AssistantMessage | DynamicToolsMessage | SystemMessage | ToolMessage | UserMessage]): The
                conversation so far, oldest first. Replay earlier assistant turns whole,
                including `reasoning_content` and `tool_calls`, and keep dynamic tool messages
                where they were.
            reasoning_effort (ReasoningEffort | Unset): How hard the model thinks; reasoning cannot be turned off. The K3.1
                models take
                `low`, `high` or `max` (default `max`). For compatibility the service also accepts
                `medium` (treated as `high`), `xhigh` (as `max`) and `minimal` / `none` (as `low`;
                `none` still reasons). `kimi-k3` supports only `max`. Reasoning tokens count as
                output tokens.
            max_completion_tokens (int | Unset): Output budget, reasoning included (default 131072, at most 1048576). The
                service may
                shrink it to the room left in the context window; a very small budget can end
                before any visible answer.
            max_tokens (int | Unset): Deprecated spelling of the output limit. Prefer `max_completion_tokens`; do not
                send both.
            stream (bool | Unset): Stream the answer as server-sent events (`ChatCompletionChunk` objects).
            stream_options (StreamOptions | Unset): Streaming options; only meaningful with `stream: true`.
            tools (list[FunctionTool | WebSearchTool] | Unset): Function tools and/or the built-in web search tool (at most
                128).
            tool_choice (NamedToolChoice | ToolChoiceMode | Unset): Whether the model calls tools: `auto`, `none`, or
                `required` (needs at least one
                tool), or an object naming one function. Forcing a named function conflicts with the
                always-on reasoning and is expected to be rejected.
            response_format (ResponseFormatJsonObject | ResponseFormatJsonSchema | ResponseFormatText | Unset): Shape of the
                answer text.
            prediction (PredictionContent | Unset): Predicted output: text the answer is expected to mostly repeat (for
                example a file
                that receives a small edit), which speeds generation up.
            prompt_cache_key (str | Unset): Caller-chosen key that groups requests sharing a prompt prefix for caching.
            prompt_cache_options (PromptCacheOptions | Unset): How the prompt prefix is written to the context cache (K3.1
                models only; `kimi-k3`
                rejects this field). Without it a 5-minute cache is written. A prefix that is already
                cached keeps its original lifetime. Cache writes and reads are billed separately.
            safety_identifier (str | Unset): Stable, privacy-preserving identifier of the end user (for abuse detection).
            logprobs (bool | Unset): Return log probabilities of the output tokens.
            top_logprobs (int | Unset): Number of most likely alternatives to return per token (0-20); needs `logprobs`.
            stop (list[str] | str | Unset): Up to 5 stop sequences. Each may be at most 32 bytes once encoded as UTF-8
                (count
                bytes, not characters; the `maxLength: 32` here is only the character bound this
                implies). Generation stops at an exact match and the match itself is not returned.
            temperature (float | Unset): Fixed at 1; leave it out. The K3.1 models ignore other values, `kimi-k3` (and some
                gateways) reject them.
            top_p (float | Unset): Fixed at 0.95; leave it out. The K3.1 models ignore other values, `kimi-k3` (and some
                gateways) reject them.
            n (int | Unset): Fixed at 1 (one choice per request); leave it out. Other values are invalid.
            frequency_penalty (float | Unset): Fixed at 0; leave it out. Other values are invalid.
            presence_penalty (float | Unset): Fixed at 0; leave it out. Other values are invalid.
    """

    model: ChatModel | str
    messages: list[
        AssistantMessage
        | DynamicToolsMessage
        | SystemMessage
        | ToolMessage
        | UserMessage
    ]
    reasoning_effort: ReasoningEffort | Unset = UNSET
    max_completion_tokens: int | Unset = UNSET
    max_tokens: int | Unset = UNSET
    stream: bool | Unset = UNSET
    stream_options: StreamOptions | Unset = UNSET
    tools: list[FunctionTool | WebSearchTool] | Unset = UNSET
    tool_choice: NamedToolChoice | ToolChoiceMode | Unset = UNSET
    response_format: (
        ResponseFormatJsonObject | ResponseFormatJsonSchema | ResponseFormatText | Unset
    ) = UNSET
    prediction: PredictionContent | Unset = UNSET
    prompt_cache_key: str | Unset = UNSET
    prompt_cache_options: PromptCacheOptions | Unset = UNSET
    safety_identifier: str | Unset = UNSET
    logprobs: bool | Unset = UNSET
    top_logprobs: int | Unset = UNSET
    stop: list[str] | str | Unset = UNSET
    temperature: float | Unset = UNSET
    top_p: float | Unset = UNSET
    n: int | Unset = UNSET
    frequency_penalty: float | Unset = UNSET
    presence_penalty: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.assistant_message import AssistantMessage
        from ..models.dynamic_tools_message import DynamicToolsMessage
        from ..models.function_tool import FunctionTool
        from ..models.response_format_json_object import ResponseFormatJsonObject
        from ..models.response_format_text import ResponseFormatText
        from ..models.system_message import SystemMessage
        from ..models.user_message import UserMessage

        model: str
        if isinstance(self.model, ChatModel):
            model = self.model.value
        else:
            model = self.model

        messages = []
        for messages_item_data in self.messages:
            messages_item: dict[str, Any]
            if (
                isinstance(messages_item_data, SystemMessage)
                or isinstance(messages_item_data, DynamicToolsMessage)
                or isinstance(messages_item_data, UserMessage)
                or isinstance(messages_item_data, AssistantMessage)
            ):
                messages_item = messages_item_data.to_dict()
            else:
                messages_item = messages_item_data.to_dict()

            messages.append(messages_item)

        reasoning_effort: str | Unset = UNSET
        if not isinstance(self.reasoning_effort, Unset):
            reasoning_effort = self.reasoning_effort.value

        max_completion_tokens = self.max_completion_tokens

        max_tokens = self.max_tokens

        stream = self.stream

        stream_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.stream_options, Unset):
            stream_options = self.stream_options.to_dict()

        tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = []
            for tools_item_data in self.tools:
                tools_item: dict[str, Any]
                if isinstance(tools_item_data, FunctionTool):
                    tools_item = tools_item_data.to_dict()
                else:
                    tools_item = tools_item_data.to_dict()

                tools.append(tools_item)

        tool_choice: dict[str, Any] | str | Unset
        if isinstance(self.tool_choice, Unset):
            tool_choice = UNSET
        elif isinstance(self.tool_choice, ToolChoiceMode):
            tool_choice = self.tool_choice.value
        else:
            tool_choice = self.tool_choice.to_dict()

        response_format: dict[str, Any] | Unset
        if isinstance(self.response_format, Unset):
            response_format = UNSET
        elif isinstance(self.response_format, ResponseFormatText) or isinstance(
            self.response_format, ResponseFormatJsonObject
        ):
            response_format = self.response_format.to_dict()
        else:
            response_format = self.response_format.to_dict()

        prediction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.prediction, Unset):
            prediction = self.prediction.to_dict()

        prompt_cache_key = self.prompt_cache_key

        prompt_cache_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.prompt_cache_options, Unset):
            prompt_cache_options = self.prompt_cache_options.to_dict()

        safety_identifier = self.safety_identifier

        logprobs = self.logprobs

        top_logprobs = self.top_logprobs

        stop: list[str] | str | Unset
        if isinstance(self.stop, Unset):
            stop = UNSET
        elif isinstance(self.stop, list):
            stop = self.stop

        else:
            stop = self.stop

        temperature = self.temperature

        top_p = self.top_p

        n = self.n

        frequency_penalty = self.frequency_penalty

        presence_penalty = self.presence_penalty

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "model": model,
                "messages": messages,
            }
        )
        if reasoning_effort is not UNSET:
            field_dict["reasoning_effort"] = reasoning_effort
        if max_completion_tokens is not UNSET:
            field_dict["max_completion_tokens"] = max_completion_tokens
        if max_tokens is not UNSET:
            field_dict["max_tokens"] = max_tokens
        if stream is not UNSET:
            field_dict["stream"] = stream
        if stream_options is not UNSET:
            field_dict["stream_options"] = stream_options
        if tools is not UNSET:
            field_dict["tools"] = tools
        if tool_choice is not UNSET:
            field_dict["tool_choice"] = tool_choice
        if response_format is not UNSET:
            field_dict["response_format"] = response_format
        if prediction is not UNSET:
            field_dict["prediction"] = prediction
        if prompt_cache_key is not UNSET:
            field_dict["prompt_cache_key"] = prompt_cache_key
        if prompt_cache_options is not UNSET:
            field_dict["prompt_cache_options"] = prompt_cache_options
        if safety_identifier is not UNSET:
            field_dict["safety_identifier"] = safety_identifier
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs
        if top_logprobs is not UNSET:
            field_dict["top_logprobs"] = top_logprobs
        if stop is not UNSET:
            field_dict["stop"] = stop
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if top_p is not UNSET:
            field_dict["top_p"] = top_p
        if n is not UNSET:
            field_dict["n"] = n
        if frequency_penalty is not UNSET:
            field_dict["frequency_penalty"] = frequency_penalty
        if presence_penalty is not UNSET:
            field_dict["presence_penalty"] = presence_penalty

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.assistant_message import AssistantMessage
        from ..models.dynamic_tools_message import DynamicToolsMessage
        from ..models.function_tool import FunctionTool
        from ..models.named_tool_choice import NamedToolChoice
        from ..models.prediction_content import PredictionContent
        from ..models.prompt_cache_options import PromptCacheOptions
        from ..models.response_format_json_object import ResponseFormatJsonObject
        from ..models.response_format_json_schema import ResponseFormatJsonSchema
        from ..models.response_format_text import ResponseFormatText
        from ..models.stream_options import StreamOptions
        from ..models.system_message import SystemMessage
        from ..models.tool_message import ToolMessage
        from ..models.user_message import UserMessage
        from ..models.web_search_tool import WebSearchTool

        d = dict(src_dict)

        def _parse_model(data: object) -> ChatModel | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                model_type_0 = ChatModel(data)

                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChatModel | str, data)

        model = _parse_model(d.pop("model"))

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:

            def _parse_messages_item(
                data: object,
            ) -> (
                AssistantMessage
                | DynamicToolsMessage
                | SystemMessage
                | ToolMessage
                | UserMessage
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_message_type_0 = SystemMessage.from_dict(
                        data
                    )

                    return componentsschemas_chat_message_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_message_type_1 = (
                        DynamicToolsMessage.from_dict(data)
                    )

                    return componentsschemas_chat_message_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_message_type_2 = UserMessage.from_dict(data)

                    return componentsschemas_chat_message_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_message_type_3 = AssistantMessage.from_dict(
                        data
                    )

                    return componentsschemas_chat_message_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_chat_message_type_4 = ToolMessage.from_dict(data)

                return componentsschemas_chat_message_type_4

            messages_item = _parse_messages_item(messages_item_data)

            messages.append(messages_item)

        _reasoning_effort = d.pop("reasoning_effort", UNSET)
        reasoning_effort: ReasoningEffort | Unset
        if isinstance(_reasoning_effort, Unset):
            reasoning_effort = UNSET
        else:
            reasoning_effort = ReasoningEffort(_reasoning_effort)

        max_completion_tokens = d.pop("max_completion_tokens", UNSET)

        max_tokens = d.pop("max_tokens", UNSET)

        stream = d.pop("stream", UNSET)

        _stream_options = d.pop("stream_options", UNSET)
        stream_options: StreamOptions | Unset
        if isinstance(_stream_options, Unset):
            stream_options = UNSET
        else:
            stream_options = StreamOptions.from_dict(_stream_options)

        _tools = d.pop("tools", UNSET)
        tools: list[FunctionTool | WebSearchTool] | Unset = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:

                def _parse_tools_item(data: object) -> FunctionTool | WebSearchTool:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_chat_tool_type_0 = FunctionTool.from_dict(
                            data
                        )

                        return componentsschemas_chat_tool_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_tool_type_1 = WebSearchTool.from_dict(data)

                    return componentsschemas_chat_tool_type_1

                tools_item = _parse_tools_item(tools_item_data)

                tools.append(tools_item)

        def _parse_tool_choice(
            data: object,
        ) -> NamedToolChoice | ToolChoiceMode | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_tool_choice_type_0 = ToolChoiceMode(data)

                return componentsschemas_tool_choice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_tool_choice_type_1 = NamedToolChoice.from_dict(data)

            return componentsschemas_tool_choice_type_1

        tool_choice = _parse_tool_choice(d.pop("tool_choice", UNSET))

        def _parse_response_format(
            data: object,
        ) -> (
            ResponseFormatJsonObject
            | ResponseFormatJsonSchema
            | ResponseFormatText
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_response_format_type_0 = ResponseFormatText.from_dict(
                    data
                )

                return componentsschemas_response_format_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_response_format_type_1 = (
                    ResponseFormatJsonObject.from_dict(data)
                )

                return componentsschemas_response_format_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_response_format_type_2 = (
                ResponseFormatJsonSchema.from_dict(data)
            )

            return componentsschemas_response_format_type_2

        response_format = _parse_response_format(d.pop("response_format", UNSET))

        _prediction = d.pop("prediction", UNSET)
        prediction: PredictionContent | Unset
        if isinstance(_prediction, Unset):
            prediction = UNSET
        else:
            prediction = PredictionContent.from_dict(_prediction)

        prompt_cache_key = d.pop("prompt_cache_key", UNSET)

        _prompt_cache_options = d.pop("prompt_cache_options", UNSET)
        prompt_cache_options: PromptCacheOptions | Unset
        if isinstance(_prompt_cache_options, Unset):
            prompt_cache_options = UNSET
        else:
            prompt_cache_options = PromptCacheOptions.from_dict(_prompt_cache_options)

        safety_identifier = d.pop("safety_identifier", UNSET)

        logprobs = d.pop("logprobs", UNSET)

        top_logprobs = d.pop("top_logprobs", UNSET)

        def _parse_stop(data: object) -> list[str] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_stop_sequences_type_1 = cast(list[str], data)

                return componentsschemas_stop_sequences_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str | Unset, data)

        stop = _parse_stop(d.pop("stop", UNSET))

        temperature = d.pop("temperature", UNSET)

        top_p = d.pop("top_p", UNSET)

        n = d.pop("n", UNSET)

        frequency_penalty = d.pop("frequency_penalty", UNSET)

        presence_penalty = d.pop("presence_penalty", UNSET)

        create_chat_completion_request = cls(
            model=model,
            messages=messages,
            reasoning_effort=reasoning_effort,
            max_completion_tokens=max_completion_tokens,
            max_tokens=max_tokens,
            stream=stream,
            stream_options=stream_options,
            tools=tools,
            tool_choice=tool_choice,
            response_format=response_format,
            prediction=prediction,
            prompt_cache_key=prompt_cache_key,
            prompt_cache_options=prompt_cache_options,
            safety_identifier=safety_identifier,
            logprobs=logprobs,
            top_logprobs=top_logprobs,
            stop=stop,
            temperature=temperature,
            top_p=top_p,
            n=n,
            frequency_penalty=frequency_penalty,
            presence_penalty=presence_penalty,
        )

        create_chat_completion_request.additional_properties = d
        return create_chat_completion_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
