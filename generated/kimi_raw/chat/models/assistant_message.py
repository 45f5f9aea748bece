from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.text_part import TextPart
    from ..models.tool_call import ToolCall


T = TypeVar("T", bound="AssistantMessage")


@_attrs_define
class AssistantMessage:
    """An earlier assistant turn, replayed exactly as it was received: keep
    `reasoning_content` (an empty string stays empty) and `tool_calls` with their ids
    unchanged. `content` may be null or absent on a tool-call turn. Set `partial: true`
    on the last message only, to have the model continue this text (partial mode).

        Attributes:
            role (Literal['assistant']):  Default: 'assistant'.
            content (list[TextPart] | None | str | Unset): Visible text, text parts, or null. The service refuses an empty
                text: leave
                `content` out (or null) on a tool-call turn without visible text.
            reasoning_content (str | Unset): The reasoning text this turn came with.
            tool_calls (list[ToolCall] | Unset): The tool calls this turn made.
            name (str | Unset): Optional participant name.
            partial (bool | Unset): Continue this (final) assistant message instead of starting a new one.
    """

    role: Literal["assistant"] = "assistant"
    content: list[TextPart] | None | str | Unset = UNSET
    reasoning_content: str | Unset = UNSET
    tool_calls: list[ToolCall] | Unset = UNSET
    name: str | Unset = UNSET
    partial: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role

        content: list[dict[str, Any]] | None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        elif isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item = content_type_1_item_data.to_dict()
                content.append(content_type_1_item)

        else:
            content = self.content

        reasoning_content = self.reasoning_content

        tool_calls: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tool_calls, Unset):
            tool_calls = []
            for tool_calls_item_data in self.tool_calls:
                tool_calls_item = tool_calls_item_data.to_dict()
                tool_calls.append(tool_calls_item)

        name = self.name

        partial = self.partial

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
            }
        )
        if content is not UNSET:
            field_dict["content"] = content
        if reasoning_content is not UNSET:
            field_dict["reasoning_content"] = reasoning_content
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if name is not UNSET:
            field_dict["name"] = name
        if partial is not UNSET:
            field_dict["partial"] = partial

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.text_part import TextPart
        from ..models.tool_call import ToolCall

        d = dict(src_dict)
        role = cast(Literal["assistant"], d.pop("role"))
        if role != "assistant":
            raise ValueError(f"role must match const 'assistant', got '{role}'")

        def _parse_content(data: object) -> list[TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:
                    content_type_1_item = TextPart.from_dict(content_type_1_item_data)

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TextPart] | None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        reasoning_content = d.pop("reasoning_content", UNSET)

        _tool_calls = d.pop("tool_calls", UNSET)
        tool_calls: list[ToolCall] | Unset = UNSET
        if _tool_calls is not UNSET:
            tool_calls = []
            for tool_calls_item_data in _tool_calls:
                tool_calls_item = ToolCall.from_dict(tool_calls_item_data)

                tool_calls.append(tool_calls_item)

        name = d.pop("name", UNSET)

        partial = d.pop("partial", UNSET)

        assistant_message = cls(
            role=role,
            content=content,
            reasoning_content=reasoning_content,
            tool_calls=tool_calls,
            name=name,
            partial=partial,
        )

        assistant_message.additional_properties = d
        return assistant_message

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
