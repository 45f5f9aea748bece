from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_choice_type import ToolChoiceType

T = TypeVar("T", bound="ToolChoice")


@_attrs_define
class ToolChoice:
    """How the model may use the offered tools.

    Attributes:
        type_ (ToolChoiceType): `auto` (the default): the model decides; `any`: it must call some tool; `none`: it must
            not call tools.
    """

    type_: ToolChoiceType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ToolChoiceType(d.pop("type"))

        tool_choice = cls(
            type_=type_,
        )

        tool_choice.additional_properties = d
        return tool_choice

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
