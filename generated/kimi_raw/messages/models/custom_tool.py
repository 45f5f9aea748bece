from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_tool_input_schema import CustomToolInputSchema


T = TypeVar("T", bound="CustomTool")


@_attrs_define
class CustomTool:
    """A function the caller implements; the model asks for it with a tool_use block.

    Attributes:
        name (str): Function name the model uses in tool_use blocks.
        input_schema (CustomToolInputSchema): JSON Schema of the tool's input object, in Moonshot Flavored JSON Schema.
        description (str | Unset): What the tool does and when to use it; guides the model's choice.
    """

    name: str
    input_schema: CustomToolInputSchema
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        input_schema = self.input_schema.to_dict()

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "input_schema": input_schema,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_tool_input_schema import CustomToolInputSchema

        d = dict(src_dict)
        name = d.pop("name")

        input_schema = CustomToolInputSchema.from_dict(d.pop("input_schema"))

        description = d.pop("description", UNSET)

        custom_tool = cls(
            name=name,
            input_schema=input_schema,
            description=description,
        )

        custom_tool.additional_properties = d
        return custom_tool

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
