from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chat_completion_chunk_tool_call_function import (
        ChatCompletionChunkToolCallFunction,
    )


T = TypeVar("T", bound="ChatCompletionChunkToolCall")


@_attrs_define
class ChatCompletionChunkToolCall:
    """A piece of a tool call. The first piece usually carries `id`, `type` and the name;
    later pieces append to `function.arguments` (a name can also arrive split). Pieces
    belong together by `index`, which some gateways leave out or send as null.

        Attributes:
            index (int | None | Unset):
            id (None | str | Unset):
            type_ (None | str | Unset):
            function (ChatCompletionChunkToolCallFunction | None | Unset):
    """

    index: int | None | Unset = UNSET
    id: None | str | Unset = UNSET
    type_: None | str | Unset = UNSET
    function: ChatCompletionChunkToolCallFunction | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.chat_completion_chunk_tool_call_function import (
            ChatCompletionChunkToolCallFunction,
        )

        index: int | None | Unset
        if isinstance(self.index, Unset):
            index = UNSET
        else:
            index = self.index

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        function: dict[str, Any] | None | Unset
        if isinstance(self.function, Unset):
            function = UNSET
        elif isinstance(self.function, ChatCompletionChunkToolCallFunction):
            function = self.function.to_dict()
        else:
            function = self.function

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if index is not UNSET:
            field_dict["index"] = index
        if id is not UNSET:
            field_dict["id"] = id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if function is not UNSET:
            field_dict["function"] = function

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.chat_completion_chunk_tool_call_function import (
            ChatCompletionChunkToolCallFunction,
        )

        d = dict(src_dict)

        def _parse_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        index = _parse_index(d.pop("index", UNSET))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_function(
            data: object,
        ) -> ChatCompletionChunkToolCallFunction | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                function_type_0 = ChatCompletionChunkToolCallFunction.from_dict(data)

                return function_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChatCompletionChunkToolCallFunction | None | Unset, data)

        function = _parse_function(d.pop("function", UNSET))

        chat_completion_chunk_tool_call = cls(
            index=index,
            id=id,
            type_=type_,
            function=function,
        )

        chat_completion_chunk_tool_call.additional_properties = d
        return chat_completion_chunk_tool_call

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
