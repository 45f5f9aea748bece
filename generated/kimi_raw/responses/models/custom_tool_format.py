from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomToolFormat")


@_attrs_define
class CustomToolFormat:
    """Input format of a custom tool: {"type":"text"} for free text, or
    {"type":"grammar","syntax":"lark"|"regex","definition":"..."}.

        Attributes:
            type_ (str | Unset): text or grammar.
            syntax (str | Unset): lark or regex (grammar formats).
            definition (str | Unset): The grammar source (grammar formats).
    """

    type_: str | Unset = UNSET
    syntax: str | Unset = UNSET
    definition: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        syntax = self.syntax

        definition = self.definition

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if syntax is not UNSET:
            field_dict["syntax"] = syntax
        if definition is not UNSET:
            field_dict["definition"] = definition

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type", UNSET)

        syntax = d.pop("syntax", UNSET)

        definition = d.pop("definition", UNSET)

        custom_tool_format = cls(
            type_=type_,
            syntax=syntax,
            definition=definition,
        )

        custom_tool_format.additional_properties = d
        return custom_tool_format

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
