from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tool_call import ToolCall
    from ..models.unknown_tool_call import UnknownToolCall


T = TypeVar("T", bound="ChatCompletionMessage")


@_attrs_define
class ChatCompletionMessage:
    """The generated message.

    Attributes:
        role (str | Unset): `assistant`.
        content (None | str | Unset): Visible answer; null or empty on a pure tool-call turn.
        reasoning_content (None | str | Unset): The reasoning text. Keep it to replay this turn.
        tool_calls (list[ToolCall | UnknownToolCall] | None | Unset):
        tool_call_id (str | Unset):
    """

    role: str | Unset = UNSET
    content: None | str | Unset = UNSET
    reasoning_content: None | str | Unset = UNSET
    tool_calls: list[ToolCall | UnknownToolCall] | None | Unset = UNSET
    tool_call_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tool_call import ToolCall

        role = self.role

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        reasoning_content: None | str | Unset
        if isinstance(self.reasoning_content, Unset):
            reasoning_content = UNSET
        else:
            reasoning_content = self.reasoning_content

        tool_calls: list[dict[str, Any]] | None | Unset
        if isinstance(self.tool_calls, Unset):
            tool_calls = UNSET
        elif isinstance(self.tool_calls, list):
            tool_calls = []
            for tool_calls_type_0_item_data in self.tool_calls:
                tool_calls_type_0_item: dict[str, Any]
                if isinstance(tool_calls_type_0_item_data, ToolCall):
                    tool_calls_type_0_item = tool_calls_type_0_item_data.to_dict()
                else:
                    tool_calls_type_0_item = tool_calls_type_0_item_data.to_dict()

                tool_calls.append(tool_calls_type_0_item)

        else:
            tool_calls = self.tool_calls

        tool_call_id = self.tool_call_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if role is not UNSET:
            field_dict["role"] = role
        if content is not UNSET:
            field_dict["content"] = content
        if reasoning_content is not UNSET:
            field_dict["reasoning_content"] = reasoning_content
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if tool_call_id is not UNSET:
            field_dict["tool_call_id"] = tool_call_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tool_call import ToolCall
        from ..models.unknown_tool_call import UnknownToolCall

        d = dict(src_dict)
        role = d.pop("role", UNSET)

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_reasoning_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reasoning_content = _parse_reasoning_content(d.pop("reasoning_content", UNSET))

        def _parse_tool_calls(
            data: object,
        ) -> list[ToolCall | UnknownToolCall] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tool_calls_type_0 = []
                _tool_calls_type_0 = data
                for tool_calls_type_0_item_data in _tool_calls_type_0:

                    def _parse_tool_calls_type_0_item(
                        data: object,
                    ) -> ToolCall | UnknownToolCall:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            tool_calls_type_0_item_type_0 = ToolCall.from_dict(data)

                            return tool_calls_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        tool_calls_type_0_item_type_1 = UnknownToolCall.from_dict(data)

                        return tool_calls_type_0_item_type_1

                    tool_calls_type_0_item = _parse_tool_calls_type_0_item(
                        tool_calls_type_0_item_data
                    )

                    tool_calls_type_0.append(tool_calls_type_0_item)

                return tool_calls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ToolCall | UnknownToolCall] | None | Unset, data)

        tool_calls = _parse_tool_calls(d.pop("tool_calls", UNSET))

        tool_call_id = d.pop("tool_call_id", UNSET)

        chat_completion_message = cls(
            role=role,
            content=content,
            reasoning_content=reasoning_content,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
        )

        chat_completion_message.additional_properties = d
        return chat_completion_message

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
