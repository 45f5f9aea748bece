from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_message_request_model import CreateMessageRequestModel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cache_control import CacheControl
    from ..models.custom_tool import CustomTool
    from ..models.message_param import MessageParam
    from ..models.output_config import OutputConfig
    from ..models.request_metadata import RequestMetadata
    from ..models.text_block import TextBlock
    from ..models.tool_choice import ToolChoice
    from ..models.web_search_tool import WebSearchTool


T = TypeVar("T", bound="CreateMessageRequest")


@_attrs_define
class CreateMessageRequest:
    """Body of `POST /v1/messages`. `model`, `max_tokens` and `messages` are required; every other field is left out of the
    JSON unless the caller sets it. The two sampling fields are fixed by the service and are best omitted.

        Attributes:
            model (CreateMessageRequestModel | str): A model id; the known ones are listed in `CreateMessageRequestModel`.
            max_tokens (int): Upper bound on generated tokens for this call; reasoning (thinking) tokens count against it
                together with the visible answer.
            messages (list[MessageParam]): The conversation so far, oldest first. Assistant turns must be sent back with all
                their content blocks exactly as received (thinking with its signature, tool_use, server_tool_use,
                web_search_tool_result). Results of parallel tool calls go together in one user message.
            system (list[TextBlock] | str | Unset): System prompt, either plain text or a list of text blocks.
            stream (bool | Unset): When true the response is an SSE stream of `MessageStreamEvent` payloads instead of one
                JSON message (default false).
            tools (list[CustomTool | WebSearchTool] | Unset): Tools the model may call: custom functions (executed by the
                caller) and the server-side web search tool (executed by the service, billed per search).
            tool_choice (ToolChoice | Unset): How the model may use the offered tools.
            stop_sequences (list[str] | Unset): Up to 5 strings; generation ends when one appears verbatim, and the match
                itself is not part of the output. Each string may be at most 32 bytes when encoded as UTF-8 (bytes, not
                characters: a 32-character string of non-ASCII text is too long). Not supported by `kimi-k3`. On the K3.1 models
                a hit has been documented to report `stop_reason: end_turn` with a null `stop_sequence`.
            metadata (RequestMetadata | Unset): Request metadata.
            cache_control (CacheControl | Unset): Top-level prompt-cache write options (K3.1 models only). Only this top-
                level field sets the TTL of cache writes; cache_control markers inside blocks are ignored by the service.
                Without it, writes live 5 minutes.
            output_config (OutputConfig | Unset): Reasoning effort and structured output settings.
            temperature (float | Unset): Fixed at 1; leave it out. The K3.1 models ignore other values, `kimi-k3` (and some
                gateways) reject them.
            top_p (float | Unset): Fixed at 0.95; leave it out. The K3.1 models ignore other values, `kimi-k3` (and some
                gateways) reject them.
    """

    model: CreateMessageRequestModel | str
    max_tokens: int
    messages: list[MessageParam]
    system: list[TextBlock] | str | Unset = UNSET
    stream: bool | Unset = UNSET
    tools: list[CustomTool | WebSearchTool] | Unset = UNSET
    tool_choice: ToolChoice | Unset = UNSET
    stop_sequences: list[str] | Unset = UNSET
    metadata: RequestMetadata | Unset = UNSET
    cache_control: CacheControl | Unset = UNSET
    output_config: OutputConfig | Unset = UNSET
    temperature: float | Unset = UNSET
    top_p: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.web_search_tool import WebSearchTool

        model: str
        if isinstance(self.model, CreateMessageRequestModel):
            model = self.model.value
        else:
            model = self.model

        max_tokens = self.max_tokens

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        system: list[dict[str, Any]] | str | Unset
        if isinstance(self.system, Unset):
            system = UNSET
        elif isinstance(self.system, list):
            system = []
            for system_type_1_item_data in self.system:
                system_type_1_item = system_type_1_item_data.to_dict()
                system.append(system_type_1_item)

        else:
            system = self.system

        stream = self.stream

        tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = []
            for tools_item_data in self.tools:
                tools_item: dict[str, Any]
                if isinstance(tools_item_data, WebSearchTool):
                    tools_item = tools_item_data.to_dict()
                else:
                    tools_item = tools_item_data.to_dict()

                tools.append(tools_item)

        tool_choice: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tool_choice, Unset):
            tool_choice = self.tool_choice.to_dict()

        stop_sequences: list[str] | Unset = UNSET
        if not isinstance(self.stop_sequences, Unset):
            stop_sequences = self.stop_sequences

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        cache_control: dict[str, Any] | Unset = UNSET
        if not isinstance(self.cache_control, Unset):
            cache_control = self.cache_control.to_dict()

        output_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.output_config, Unset):
            output_config = self.output_config.to_dict()

        temperature = self.temperature

        top_p = self.top_p

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "model": model,
                "max_tokens": max_tokens,
                "messages": messages,
            }
        )
        if system is not UNSET:
            field_dict["system"] = system
        if stream is not UNSET:
            field_dict["stream"] = stream
        if tools is not UNSET:
            field_dict["tools"] = tools
        if tool_choice is not UNSET:
            field_dict["tool_choice"] = tool_choice
        if stop_sequences is not UNSET:
            field_dict["stop_sequences"] = stop_sequences
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if cache_control is not UNSET:
            field_dict["cache_control"] = cache_control
        if output_config is not UNSET:
            field_dict["output_config"] = output_config
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if top_p is not UNSET:
            field_dict["top_p"] = top_p

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cache_control import CacheControl
        from ..models.custom_tool import CustomTool
        from ..models.message_param import MessageParam
        from ..models.output_config import OutputConfig
        from ..models.request_metadata import RequestMetadata
        from ..models.text_block import TextBlock
        from ..models.tool_choice import ToolChoice
        from ..models.web_search_tool import WebSearchTool

        d = dict(src_dict)

        def _parse_model(data: object) -> CreateMessageRequestModel | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                model_type_0 = CreateMessageRequestModel(data)

                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateMessageRequestModel | str, data)

        model = _parse_model(d.pop("model"))

        max_tokens = d.pop("max_tokens")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = MessageParam.from_dict(messages_item_data)

            messages.append(messages_item)

        def _parse_system(data: object) -> list[TextBlock] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                system_type_1 = []
                _system_type_1 = data
                for system_type_1_item_data in _system_type_1:
                    system_type_1_item = TextBlock.from_dict(system_type_1_item_data)

                    system_type_1.append(system_type_1_item)

                return system_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TextBlock] | str | Unset, data)

        system = _parse_system(d.pop("system", UNSET))

        stream = d.pop("stream", UNSET)

        _tools = d.pop("tools", UNSET)
        tools: list[CustomTool | WebSearchTool] | Unset = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:

                def _parse_tools_item(data: object) -> CustomTool | WebSearchTool:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_definition_type_0 = (
                            WebSearchTool.from_dict(data)
                        )

                        return componentsschemas_tool_definition_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_tool_definition_type_1 = CustomTool.from_dict(
                        data
                    )

                    return componentsschemas_tool_definition_type_1

                tools_item = _parse_tools_item(tools_item_data)

                tools.append(tools_item)

        _tool_choice = d.pop("tool_choice", UNSET)
        tool_choice: ToolChoice | Unset
        if isinstance(_tool_choice, Unset):
            tool_choice = UNSET
        else:
            tool_choice = ToolChoice.from_dict(_tool_choice)

        stop_sequences = cast(list[str], d.pop("stop_sequences", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: RequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = RequestMetadata.from_dict(_metadata)

        _cache_control = d.pop("cache_control", UNSET)
        cache_control: CacheControl | Unset
        if isinstance(_cache_control, Unset):
            cache_control = UNSET
        else:
            cache_control = CacheControl.from_dict(_cache_control)

        _output_config = d.pop("output_config", UNSET)
        output_config: OutputConfig | Unset
        if isinstance(_output_config, Unset):
            output_config = UNSET
        else:
            output_config = OutputConfig.from_dict(_output_config)

        temperature = d.pop("temperature", UNSET)

        top_p = d.pop("top_p", UNSET)

        create_message_request = cls(
            model=model,
            max_tokens=max_tokens,
            messages=messages,
            system=system,
            stream=stream,
            tools=tools,
            tool_choice=tool_choice,
            stop_sequences=stop_sequences,
            metadata=metadata,
            cache_control=cache_control,
            output_config=output_config,
            temperature=temperature,
            top_p=top_p,
        )

        create_message_request.additional_properties = d
        return create_message_request

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
