from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomToolCallItem")


@_attrs_define
class CustomToolCallItem:
    """A call of a custom tool (e.g. apply_patch); `input` is free text.

    Attributes:
        type_ (Literal['custom_tool_call']):  Default: 'custom_tool_call'.
        call_id (str):
        name (str):
        input_ (str):
        id (str | Unset):
        status (str | Unset):
    """

    call_id: str
    name: str
    input_: str
    type_: Literal["custom_tool_call"] = "custom_tool_call"
    id: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        call_id = self.call_id

        name = self.name

        input_ = self.input_

        id = self.id

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "call_id": call_id,
                "name": name,
                "input": input_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["custom_tool_call"], d.pop("type"))
        if type_ != "custom_tool_call":
            raise ValueError(f"type must match const 'custom_tool_call', got '{type_}'")

        call_id = d.pop("call_id")

        name = d.pop("name")

        input_ = d.pop("input")

        id = d.pop("id", UNSET)

        status = d.pop("status", UNSET)

        custom_tool_call_item = cls(
            type_=type_,
            call_id=call_id,
            name=name,
            input_=input_,
            id=id,
            status=status,
        )

        custom_tool_call_item.additional_properties = d
        return custom_tool_call_item

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
