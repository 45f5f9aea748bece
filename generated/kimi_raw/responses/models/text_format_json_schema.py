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
    from ..models.text_format_json_schema_schema import TextFormatJsonSchemaSchema


T = TypeVar("T", bound="TextFormatJsonSchema")


@_attrs_define
class TextFormatJsonSchema:
    """Structured output. The schema follows Moonshot's JSON Schema dialect; validate the finished output yourself as well.

    Attributes:
        type_ (Literal['json_schema']):  Default: 'json_schema'.
        schema (TextFormatJsonSchemaSchema): The JSON Schema the output must match, in Moonshot Flavored JSON Schema.
        name (str | Unset): Optional name of the output format.
        description (str | Unset):
        strict (bool | Unset): Whether the schema is enforced strictly.
    """

    schema: TextFormatJsonSchemaSchema
    type_: Literal["json_schema"] = "json_schema"
    name: str | Unset = UNSET
    description: str | Unset = UNSET
    strict: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        schema = self.schema.to_dict()

        name = self.name

        description = self.description

        strict = self.strict

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "schema": schema,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if strict is not UNSET:
            field_dict["strict"] = strict

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.text_format_json_schema_schema import TextFormatJsonSchemaSchema

        d = dict(src_dict)
        type_ = cast(Literal["json_schema"], d.pop("type"))
        if type_ != "json_schema":
            raise ValueError(f"type must match const 'json_schema', got '{type_}'")

        schema = TextFormatJsonSchemaSchema.from_dict(d.pop("schema"))

        name = d.pop("name", UNSET)

        description = d.pop("description", UNSET)

        strict = d.pop("strict", UNSET)

        text_format_json_schema = cls(
            type_=type_,
            schema=schema,
            name=name,
            description=description,
            strict=strict,
        )

        text_format_json_schema.additional_properties = d
        return text_format_json_schema

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
