from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_choice_object_type import ToolChoiceObjectType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolChoiceObject")


@_attrs_define
class ToolChoiceObject:
    """Object form of tool_choice, e.g. {"type":"auto"}. Forcing one function or custom tool
    ({"type":"function","name":"x"}) conflicts with the always-on reasoning and is refused.

        Attributes:
            type_ (ToolChoiceObjectType):
            name (str | Unset): Tool name, for the function and custom forms.
    """

    type_: ToolChoiceObjectType
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ToolChoiceObjectType(d.pop("type"))

        name = d.pop("name", UNSET)

        tool_choice_object = cls(
            type_=type_,
            name=name,
        )

        tool_choice_object.additional_properties = d
        return tool_choice_object

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
