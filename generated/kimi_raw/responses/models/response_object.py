from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.apply_patch_tool import ApplyPatchTool
    from ..models.custom_tool_call_item import CustomToolCallItem
    from ..models.function_call_item import FunctionCallItem
    from ..models.function_tool import FunctionTool
    from ..models.incomplete_details import IncompleteDetails
    from ..models.namespace_tool import NamespaceTool
    from ..models.output_message import OutputMessage
    from ..models.reasoning_item import ReasoningItem
    from ..models.response_error import ResponseError
    from ..models.response_metadata import ResponseMetadata
    from ..models.response_object_text import ResponseObjectText
    from ..models.response_prompt_cache_options import ResponsePromptCacheOptions
    from ..models.response_reasoning import ResponseReasoning
    from ..models.response_tool_choice import ResponseToolChoice
    from ..models.response_usage import ResponseUsage
    from ..models.unknown_item import UnknownItem
    from ..models.unknown_tool import UnknownTool
    from ..models.web_search_call_item import WebSearchCallItem
    from ..models.web_search_tool import WebSearchTool


T = TypeVar("T", bound="ResponseObject")


@_attrs_define
class ResponseObject:
    """The response object (`object: response`). Named ResponseObject rather than Response because the generator's own
    `types.Response` wrapper would shadow a model called Response in the generated API module.

        Attributes:
            id (str):
            object_ (str): Always response so far.
            created_at (int): Unix time in seconds.
            model (str):
            status (str): Known values completed, incomplete, failed, in_progress (others may appear). Only completed means
                the output is whole.
            output (list[CustomToolCallItem | FunctionCallItem | OutputMessage | ReasoningItem | UnknownItem |
                WebSearchCallItem]):
            incomplete_details (IncompleteDetails | None | Unset):
            error (None | ResponseError | Unset):
            usage (None | ResponseUsage | Unset):
            instructions (None | str | Unset):
            max_output_tokens (int | None | Unset):
            reasoning (None | ResponseReasoning | Unset):
            text (ResponseObjectText | Unset): The text settings that applied.
            tools (list[ApplyPatchTool | FunctionTool | NamespaceTool | UnknownTool | WebSearchTool] | Unset):
            tool_choice (ResponseToolChoice | str | Unset):
            parallel_tool_calls (bool | Unset):
            temperature (float | None | Unset):
            top_p (float | None | Unset):
            prompt_cache_key (None | str | Unset):
            prompt_cache_options (None | ResponsePromptCacheOptions | Unset):
            safety_identifier (None | str | Unset):
            metadata (None | ResponseMetadata | Unset):
    """

    id: str
    object_: str
    created_at: int
    model: str
    status: str
    output: list[
        CustomToolCallItem
        | FunctionCallItem
        | OutputMessage
        | ReasoningItem
        | UnknownItem
        | WebSearchCallItem
    ]
    incomplete_details: IncompleteDetails | None | Unset = UNSET
    error: None | ResponseError | Unset = UNSET
    usage: None | ResponseUsage | Unset = UNSET
    instructions: None | str | Unset = UNSET
    max_output_tokens: int | None | Unset = UNSET
    reasoning: None | ResponseReasoning | Unset = UNSET
    text: ResponseObjectText | Unset = UNSET
    tools: (
        list[
            ApplyPatchTool | FunctionTool | NamespaceTool | UnknownTool | WebSearchTool
        ]
        | Unset
    ) = UNSET
    tool_choice: ResponseToolChoice | str | Unset = UNSET
    parallel_tool_calls: bool | Unset = UNSET
    temperature: float | None | Unset = UNSET
    top_p: float | None | Unset = UNSET
    prompt_cache_key: None | str | Unset = UNSET
    prompt_cache_options: None | ResponsePromptCacheOptions | Unset = UNSET
    safety_identifier: None | str | Unset = UNSET
    metadata: None | ResponseMetadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.apply_patch_tool import ApplyPatchTool
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.function_tool import FunctionTool
        from ..models.incomplete_details import IncompleteDetails
        from ..models.namespace_tool import NamespaceTool
        from ..models.output_message import OutputMessage
        from ..models.reasoning_item import ReasoningItem
        from ..models.response_error import ResponseError
        from ..models.response_metadata import ResponseMetadata
        from ..models.response_prompt_cache_options import ResponsePromptCacheOptions
        from ..models.response_reasoning import ResponseReasoning
        from ..models.response_tool_choice import ResponseToolChoice
        from ..models.response_usage import ResponseUsage
        from ..models.web_search_call_item import WebSearchCallItem
        from ..models.web_search_tool import WebSearchTool

        id = self.id

        object_ = self.object_

        created_at = self.created_at

        model = self.model

        status = self.status

        output = []
        for output_item_data in self.output:
            output_item: dict[str, Any]
            if (
                isinstance(output_item_data, OutputMessage)
                or isinstance(output_item_data, ReasoningItem)
                or isinstance(output_item_data, FunctionCallItem)
                or isinstance(output_item_data, CustomToolCallItem)
                or isinstance(output_item_data, WebSearchCallItem)
            ):
                output_item = output_item_data.to_dict()
            else:
                output_item = output_item_data.to_dict()

            output.append(output_item)

        incomplete_details: dict[str, Any] | None | Unset
        if isinstance(self.incomplete_details, Unset):
            incomplete_details = UNSET
        elif isinstance(self.incomplete_details, IncompleteDetails):
            incomplete_details = self.incomplete_details.to_dict()
        else:
            incomplete_details = self.incomplete_details

        error: dict[str, Any] | None | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        elif isinstance(self.error, ResponseError):
            error = self.error.to_dict()
        else:
            error = self.error

        usage: dict[str, Any] | None | Unset
        if isinstance(self.usage, Unset):
            usage = UNSET
        elif isinstance(self.usage, ResponseUsage):
            usage = self.usage.to_dict()
        else:
            usage = self.usage

        instructions: None | str | Unset
        if isinstance(self.instructions, Unset):
            instructions = UNSET
        else:
            instructions = self.instructions

        max_output_tokens: int | None | Unset
        if isinstance(self.max_output_tokens, Unset):
            max_output_tokens = UNSET
        else:
            max_output_tokens = self.max_output_tokens

        reasoning: dict[str, Any] | None | Unset
        if isinstance(self.reasoning, Unset):
            reasoning = UNSET
        elif isinstance(self.reasoning, ResponseReasoning):
            reasoning = self.reasoning.to_dict()
        else:
            reasoning = self.reasoning

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
                    or isinstance(tools_item_data, WebSearchTool)
                ):
                    tools_item = tools_item_data.to_dict()
                else:
                    tools_item = tools_item_data.to_dict()

                tools.append(tools_item)

        tool_choice: dict[str, Any] | str | Unset
        if isinstance(self.tool_choice, Unset):
            tool_choice = UNSET
        elif isinstance(self.tool_choice, ResponseToolChoice):
            tool_choice = self.tool_choice.to_dict()
        else:
            tool_choice = self.tool_choice

        parallel_tool_calls = self.parallel_tool_calls

        temperature: float | None | Unset
        if isinstance(self.temperature, Unset):
            temperature = UNSET
        else:
            temperature = self.temperature

        top_p: float | None | Unset
        if isinstance(self.top_p, Unset):
            top_p = UNSET
        else:
            top_p = self.top_p

        prompt_cache_key: None | str | Unset
        if isinstance(self.prompt_cache_key, Unset):
            prompt_cache_key = UNSET
        else:
            prompt_cache_key = self.prompt_cache_key

        prompt_cache_options: dict[str, Any] | None | Unset
        if isinstance(self.prompt_cache_options, Unset):
            prompt_cache_options = UNSET
        elif isinstance(self.prompt_cache_options, ResponsePromptCacheOptions):
            prompt_cache_options = self.prompt_cache_options.to_dict()
        else:
            prompt_cache_options = self.prompt_cache_options

        safety_identifier: None | str | Unset
        if isinstance(self.safety_identifier, Unset):
            safety_identifier = UNSET
        else:
            safety_identifier = self.safety_identifier

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ResponseMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "created_at": created_at,
                "model": model,
                "status": status,
                "output": output,
            }
        )
        if incomplete_details is not UNSET:
            field_dict["incomplete_details"] = incomplete_details
        if error is not UNSET:
            field_dict["error"] = error
        if usage is not UNSET:
            field_dict["usage"] = usage
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
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
        if parallel_tool_calls is not UNSET:
            field_dict["parallel_tool_calls"] = parallel_tool_calls
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if top_p is not UNSET:
            field_dict["top_p"] = top_p
        if prompt_cache_key is not UNSET:
            field_dict["prompt_cache_key"] = prompt_cache_key
        if prompt_cache_options is not UNSET:
            field_dict["prompt_cache_options"] = prompt_cache_options
        if safety_identifier is not UNSET:
            field_dict["safety_identifier"] = safety_identifier
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.apply_patch_tool import ApplyPatchTool
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.function_tool import FunctionTool
        from ..models.incomplete_details import IncompleteDetails
        from ..models.namespace_tool import NamespaceTool
        from ..models.output_message import OutputMessage
        from ..models.reasoning_item import ReasoningItem
        from ..models.response_error import ResponseError
        from ..models.response_metadata import ResponseMetadata
        from ..models.response_object_text import ResponseObjectText
        from ..models.response_prompt_cache_options import ResponsePromptCacheOptions
        from ..models.response_reasoning import ResponseReasoning
        from ..models.response_tool_choice import ResponseToolChoice
        from ..models.response_usage import ResponseUsage
        from ..models.unknown_item import UnknownItem
        from ..models.unknown_tool import UnknownTool
        from ..models.web_search_call_item import WebSearchCallItem
        from ..models.web_search_tool import WebSearchTool

        d = dict(src_dict)
        id = d.pop("id")

        object_ = d.pop("object")

        created_at = d.pop("created_at")

        model = d.pop("model")

        status = d.pop("status")

        output = []
        _output = d.pop("output")
        for output_item_data in _output:

            def _parse_output_item(
                data: object,
            ) -> (
                CustomToolCallItem
                | FunctionCallItem
                | OutputMessage
                | ReasoningItem
                | UnknownItem
                | WebSearchCallItem
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_item_type_0 = OutputMessage.from_dict(data)

                    return componentsschemas_output_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_item_type_1 = ReasoningItem.from_dict(data)

                    return componentsschemas_output_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_item_type_2 = FunctionCallItem.from_dict(
                        data
                    )

                    return componentsschemas_output_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_item_type_3 = CustomToolCallItem.from_dict(
                        data
                    )

                    return componentsschemas_output_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_item_type_4 = WebSearchCallItem.from_dict(
                        data
                    )

                    return componentsschemas_output_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_5 = UnknownItem.from_dict(data)

                return componentsschemas_output_item_type_5

            output_item = _parse_output_item(output_item_data)

            output.append(output_item)

        def _parse_incomplete_details(data: object) -> IncompleteDetails | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                incomplete_details_type_0 = IncompleteDetails.from_dict(data)

                return incomplete_details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IncompleteDetails | None | Unset, data)

        incomplete_details = _parse_incomplete_details(
            d.pop("incomplete_details", UNSET)
        )

        def _parse_error(data: object) -> None | ResponseError | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ResponseError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponseError | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_usage(data: object) -> None | ResponseUsage | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                usage_type_0 = ResponseUsage.from_dict(data)

                return usage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponseUsage | Unset, data)

        usage = _parse_usage(d.pop("usage", UNSET))

        def _parse_instructions(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        instructions = _parse_instructions(d.pop("instructions", UNSET))

        def _parse_max_output_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_output_tokens = _parse_max_output_tokens(d.pop("max_output_tokens", UNSET))

        def _parse_reasoning(data: object) -> None | ResponseReasoning | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reasoning_type_0 = ResponseReasoning.from_dict(data)

                return reasoning_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponseReasoning | Unset, data)

        reasoning = _parse_reasoning(d.pop("reasoning", UNSET))

        _text = d.pop("text", UNSET)
        text: ResponseObjectText | Unset
        if isinstance(_text, Unset):
            text = UNSET
        else:
            text = ResponseObjectText.from_dict(_text)

        _tools = d.pop("tools", UNSET)
        tools: (
            list[
                ApplyPatchTool
                | FunctionTool
                | NamespaceTool
                | UnknownTool
                | WebSearchTool
            ]
            | Unset
        ) = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:

                def _parse_tools_item(
                    data: object,
                ) -> (
                    ApplyPatchTool
                    | FunctionTool
                    | NamespaceTool
                    | UnknownTool
                    | WebSearchTool
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_type_0 = FunctionTool.from_dict(data)

                        return componentsschemas_tool_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_type_1 = NamespaceTool.from_dict(data)

                        return componentsschemas_tool_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_type_2 = ApplyPatchTool.from_dict(data)

                        return componentsschemas_tool_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_type_3 = WebSearchTool.from_dict(data)

                        return componentsschemas_tool_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_tool_type_4 = UnknownTool.from_dict(data)

                    return componentsschemas_tool_type_4

                tools_item = _parse_tools_item(tools_item_data)

                tools.append(tools_item)

        def _parse_tool_choice(data: object) -> ResponseToolChoice | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tool_choice_type_1 = ResponseToolChoice.from_dict(data)

                return tool_choice_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ResponseToolChoice | str | Unset, data)

        tool_choice = _parse_tool_choice(d.pop("tool_choice", UNSET))

        parallel_tool_calls = d.pop("parallel_tool_calls", UNSET)

        def _parse_temperature(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        temperature = _parse_temperature(d.pop("temperature", UNSET))

        def _parse_top_p(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        top_p = _parse_top_p(d.pop("top_p", UNSET))

        def _parse_prompt_cache_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt_cache_key = _parse_prompt_cache_key(d.pop("prompt_cache_key", UNSET))

        def _parse_prompt_cache_options(
            data: object,
        ) -> None | ResponsePromptCacheOptions | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                prompt_cache_options_type_0 = ResponsePromptCacheOptions.from_dict(data)

                return prompt_cache_options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponsePromptCacheOptions | Unset, data)

        prompt_cache_options = _parse_prompt_cache_options(
            d.pop("prompt_cache_options", UNSET)
        )

        def _parse_safety_identifier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        safety_identifier = _parse_safety_identifier(d.pop("safety_identifier", UNSET))

        def _parse_metadata(data: object) -> None | ResponseMetadata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ResponseMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponseMetadata | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        response_object = cls(
            id=id,
            object_=object_,
            created_at=created_at,
            model=model,
            status=status,
            output=output,
            incomplete_details=incomplete_details,
            error=error,
            usage=usage,
            instructions=instructions,
            max_output_tokens=max_output_tokens,
            reasoning=reasoning,
            text=text,
            tools=tools,
            tool_choice=tool_choice,
            parallel_tool_calls=parallel_tool_calls,
            temperature=temperature,
            top_p=top_p,
            prompt_cache_key=prompt_cache_key,
            prompt_cache_options=prompt_cache_options,
            safety_identifier=safety_identifier,
            metadata=metadata,
        )

        response_object.additional_properties = d
        return response_object

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
