from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_response_request_model import CreateResponseRequestModel
from ..models.include_value import IncludeValue
from ..models.tool_choice_mode import ToolChoiceMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.apply_patch_tool import ApplyPatchTool
    from ..models.custom_tool_call_item import CustomToolCallItem
    from ..models.custom_tool_call_output_item import CustomToolCallOutputItem
    from ..models.function_call_item import FunctionCallItem
    from ..models.function_call_output_item import FunctionCallOutputItem
    from ..models.function_tool import FunctionTool
    from ..models.input_message import InputMessage
    from ..models.namespace_tool import NamespaceTool
    from ..models.prompt_cache_options import PromptCacheOptions
    from ..models.reasoning_config import ReasoningConfig
    from ..models.reasoning_item import ReasoningItem
    from ..models.text_config import TextConfig
    from ..models.tool_choice_object import ToolChoiceObject
    from ..models.web_search_call_item import WebSearchCallItem
    from ..models.web_search_tool import WebSearchTool


T = TypeVar("T", bound="CreateResponseRequest")


@_attrs_define
class CreateResponseRequest:
    """Body of POST /v1/responses. Only `model` and `input` are required; leave every other field out unless you mean to
    set it. There is no `previous_response_id`: replay the full history in `input`.

        Attributes:
            model (CreateResponseRequestModel | str): A model id; the known ones are listed in `CreateResponseRequestModel`.
            input_ (list[CustomToolCallItem | CustomToolCallOutputItem | FunctionCallItem | FunctionCallOutputItem |
                InputMessage | ReasoningItem | WebSearchCallItem] | str): A single user text, or the list of conversation items
                to continue from (messages plus replayed reasoning, function calls and their outputs).
            instructions (str | Unset): System-level guidance placed before the input.
            stream (bool | Unset): When true the result is delivered as server-sent events (default false).
            max_output_tokens (int | Unset): Cap on generated tokens, reasoning included (default 131072, at most 1048576).
                The service may lower it to what is left of the 1,048,576-token context window.
            reasoning (ReasoningConfig | Unset): Reasoning settings. Reasoning cannot be switched off.
            text (TextConfig | Unset): Output text settings.
            tools (list[ApplyPatchTool | FunctionTool | NamespaceTool | WebSearchTool] | Unset): Tools the model may call.
            tool_choice (ToolChoiceMode | ToolChoiceObject | Unset): How the model picks tools: the string `auto` (the
                documented mode) or an object form.
            include (list[IncludeValue] | Unset): Extra data to return; both values only affect web-search output.
            prompt_cache_key (str | Unset): Groups requests that share a prompt prefix for cache hits.
            prompt_cache_options (PromptCacheOptions | Unset): Cache-write options (K3.1 series only; kimi-k3 rejects it).
                Without it a 5-minute cache is written. An already cached prefix keeps its original TTL.
            safety_identifier (str | Unset): A stable, privacy-preserving id of the end user.
    """

    model: CreateResponseRequestModel | str
    input_: (
        list[
            CustomToolCallItem
            | CustomToolCallOutputItem
            | FunctionCallItem
            | FunctionCallOutputItem
            | InputMessage
            | ReasoningItem
            | WebSearchCallItem
        ]
        | str
    )
    instructions: str | Unset = UNSET
    stream: bool | Unset = UNSET
    max_output_tokens: int | Unset = UNSET
    reasoning: ReasoningConfig | Unset = UNSET
    text: TextConfig | Unset = UNSET
    tools: (
        list[ApplyPatchTool | FunctionTool | NamespaceTool | WebSearchTool] | Unset
    ) = UNSET
    tool_choice: ToolChoiceMode | ToolChoiceObject | Unset = UNSET
    include: list[IncludeValue] | Unset = UNSET
    prompt_cache_key: str | Unset = UNSET
    prompt_cache_options: PromptCacheOptions | Unset = UNSET
    safety_identifier: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.apply_patch_tool import ApplyPatchTool
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.custom_tool_call_output_item import CustomToolCallOutputItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.function_call_output_item import FunctionCallOutputItem
        from ..models.function_tool import FunctionTool
        from ..models.input_message import InputMessage
        from ..models.namespace_tool import NamespaceTool
        from ..models.reasoning_item import ReasoningItem

        model: str
        if isinstance(self.model, CreateResponseRequestModel):
            model = self.model.value
        else:
            model = self.model

        input_: list[dict[str, Any]] | str
        if isinstance(self.input_, list):
            input_ = []
            for input_type_1_item_data in self.input_:
                input_type_1_item: dict[str, Any]
                if (
                    isinstance(input_type_1_item_data, InputMessage)
                    or isinstance(input_type_1_item_data, ReasoningItem)
                    or isinstance(input_type_1_item_data, FunctionCallItem)
                    or isinstance(input_type_1_item_data, FunctionCallOutputItem)
                    or isinstance(input_type_1_item_data, CustomToolCallItem)
                    or isinstance(input_type_1_item_data, CustomToolCallOutputItem)
                ):
                    input_type_1_item = input_type_1_item_data.to_dict()
                else:
                    input_type_1_item = input_type_1_item_data.to_dict()

                input_.append(input_type_1_item)

        else:
            input_ = self.input_

        instructions = self.instructions

        stream = self.stream

        max_output_tokens = self.max_output_tokens

        reasoning: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reasoning, Unset):
            reasoning = self.reasoning.to_dict()

        text: dict[str, Any] | Unset = UNSET
        if not isinstance(self.text, Unset):
            text = self.text.to_dict()

        tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = []
            for tools_item_data in self.tools:
                tools_item: dict[str, Any]
                if (
                    isinstance(tools_item_data, FunctionTool)
                    or isinstance(tools_item_data, NamespaceTool)
                    or isinstance(tools_item_data, ApplyPatchTool)
                ):
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

        include: list[str] | Unset = UNSET
        if not isinstance(self.include, Unset):
            include = []
            for include_item_data in self.include:
                include_item = include_item_data.value
                include.append(include_item)

        prompt_cache_key = self.prompt_cache_key

        prompt_cache_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.prompt_cache_options, Unset):
            prompt_cache_options = self.prompt_cache_options.to_dict()

        safety_identifier = self.safety_identifier

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "model": model,
                "input": input_,
            }
        )
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
        if stream is not UNSET:
            field_dict["stream"] = stream
        if max_output_tokens is not UNSET:
            field_dict["max_output_tokens"] = max_output_tokens
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning
        if text is not UNSET:
            field_dict["text"] = text
        if tools is not UNSET:
            field_dict["tools"] = tools
        if tool_choice is not UNSET:
            field_dict["tool_choice"] = tool_choice
        if include is not UNSET:
            field_dict["include"] = include
        if prompt_cache_key is not UNSET:
            field_dict["prompt_cache_key"] = prompt_cache_key
        if prompt_cache_options is not UNSET:
            field_dict["prompt_cache_options"] = prompt_cache_options
        if safety_identifier is not UNSET:
            field_dict["safety_identifier"] = safety_identifier

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.apply_patch_tool import ApplyPatchTool
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.custom_tool_call_output_item import CustomToolCallOutputItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.function_call_output_item import FunctionCallOutputItem
        from ..models.function_tool import FunctionTool
        from ..models.input_message import InputMessage
        from ..models.namespace_tool import NamespaceTool
        from ..models.prompt_cache_options import PromptCacheOptions
        from ..models.reasoning_config import ReasoningConfig
        from ..models.reasoning_item import ReasoningItem
        from ..models.text_config import TextConfig
        from ..models.tool_choice_object import ToolChoiceObject
        from ..models.web_search_call_item import WebSearchCallItem
        from ..models.web_search_tool import WebSearchTool

        d = dict(src_dict)

        def _parse_model(data: object) -> CreateResponseRequestModel | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                model_type_0 = CreateResponseRequestModel(data)

                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateResponseRequestModel | str, data)

        model = _parse_model(d.pop("model"))

        def _parse_input_(
            data: object,
        ) -> (
            list[
                CustomToolCallItem
                | CustomToolCallOutputItem
                | FunctionCallItem
                | FunctionCallOutputItem
                | InputMessage
                | ReasoningItem
                | WebSearchCallItem
            ]
            | str
        ):
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_type_1 = []
                _input_type_1 = data
                for input_type_1_item_data in _input_type_1:

                    def _parse_input_type_1_item(
                        data: object,
                    ) -> (
                        CustomToolCallItem
                        | CustomToolCallOutputItem
                        | FunctionCallItem
                        | FunctionCallOutputItem
                        | InputMessage
                        | ReasoningItem
                        | WebSearchCallItem
                    ):
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_0 = (
                                InputMessage.from_dict(data)
                            )

                            return componentsschemas_input_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_1 = (
                                ReasoningItem.from_dict(data)
                            )

                            return componentsschemas_input_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_2 = (
                                FunctionCallItem.from_dict(data)
                            )

                            return componentsschemas_input_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_3 = (
                                FunctionCallOutputItem.from_dict(data)
                            )

                            return componentsschemas_input_item_type_3
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_4 = (
                                CustomToolCallItem.from_dict(data)
                            )

                            return componentsschemas_input_item_type_4
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_item_type_5 = (
                                CustomToolCallOutputItem.from_dict(data)
                            )

                            return componentsschemas_input_item_type_5
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_input_item_type_6 = (
                            WebSearchCallItem.from_dict(data)
                        )

                        return componentsschemas_input_item_type_6

                    input_type_1_item = _parse_input_type_1_item(input_type_1_item_data)

                    input_type_1.append(input_type_1_item)

                return input_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[
                    CustomToolCallItem
                    | CustomToolCallOutputItem
                    | FunctionCallItem
                    | FunctionCallOutputItem
                    | InputMessage
                    | ReasoningItem
                    | WebSearchCallItem
                ]
                | str,
                data,
            )

        input_ = _parse_input_(d.pop("input"))

        instructions = d.pop("instructions", UNSET)

        stream = d.pop("stream", UNSET)

        max_output_tokens = d.pop("max_output_tokens", UNSET)

        _reasoning = d.pop("reasoning", UNSET)
        reasoning: ReasoningConfig | Unset
        if isinstance(_reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = ReasoningConfig.from_dict(_reasoning)

        _text = d.pop("text", UNSET)
        text: TextConfig | Unset
        if isinstance(_text, Unset):
            text = UNSET
        else:
            text = TextConfig.from_dict(_text)

        _tools = d.pop("tools", UNSET)
        tools: (
            list[ApplyPatchTool | FunctionTool | NamespaceTool | WebSearchTool] | Unset
        ) = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:

                def _parse_tools_item(
                    data: object,
                ) -> ApplyPatchTool | FunctionTool | NamespaceTool | WebSearchTool:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_request_tool_type_0 = FunctionTool.from_dict(
                            data
                        )

                        return componentsschemas_request_tool_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_request_tool_type_1 = NamespaceTool.from_dict(
                            data
                        )

                        return componentsschemas_request_tool_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_request_tool_type_2 = (
                            ApplyPatchTool.from_dict(data)
                        )

                        return componentsschemas_request_tool_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_request_tool_type_3 = WebSearchTool.from_dict(
                        data
                    )

                    return componentsschemas_request_tool_type_3

                tools_item = _parse_tools_item(tools_item_data)

                tools.append(tools_item)

        def _parse_tool_choice(
            data: object,
        ) -> ToolChoiceMode | ToolChoiceObject | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tool_choice_type_0 = ToolChoiceMode(data)

                return tool_choice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            tool_choice_type_1 = ToolChoiceObject.from_dict(data)

            return tool_choice_type_1

        tool_choice = _parse_tool_choice(d.pop("tool_choice", UNSET))

        _include = d.pop("include", UNSET)
        include: list[IncludeValue] | Unset = UNSET
        if _include is not UNSET:
            include = []
            for include_item_data in _include:
                include_item = IncludeValue(include_item_data)

                include.append(include_item)

        prompt_cache_key = d.pop("prompt_cache_key", UNSET)

        _prompt_cache_options = d.pop("prompt_cache_options", UNSET)
        prompt_cache_options: PromptCacheOptions | Unset
        if isinstance(_prompt_cache_options, Unset):
            prompt_cache_options = UNSET
        else:
            prompt_cache_options = PromptCacheOptions.from_dict(_prompt_cache_options)

        safety_identifier = d.pop("safety_identifier", UNSET)

        create_response_request = cls(
            model=model,
            input_=input_,
            instructions=instructions,
            stream=stream,
            max_output_tokens=max_output_tokens,
            reasoning=reasoning,
            text=text,
            tools=tools,
            tool_choice=tool_choice,
            include=include,
            prompt_cache_key=prompt_cache_key,
            prompt_cache_options=prompt_cache_options,
            safety_identifier=safety_identifier,
        )

        create_response_request.additional_properties = d
        return create_response_request

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
