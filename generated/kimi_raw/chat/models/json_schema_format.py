from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.json_schema_format_schema import JsonSchemaFormatSchema


T = TypeVar("T", bound="JsonSchemaFormat")


@_attrs_define
class JsonSchemaFormat:
    """The schema the answer must follow. The service follows Moonshot-flavoured JSON Schema,
    so not every general JSON Schema keyword is enforced: validate the result yourself.

        Attributes:
            name (str): Name of the output format.
            schema (JsonSchemaFormatSchema): The JSON Schema object, in Moonshot Flavored JSON Schema.
            description (str | Unset): What the output is for; helps the model fill it in.
            strict (bool | Unset): Enforce the given JSON Schema strictly (default true).
    """

    name: str
    schema: JsonSchemaFormatSchema
    description: str | Unset = UNSET
    strict: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        schema = self.schema.to_dict()

        description = self.description

        strict = self.strict

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "schema": schema,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if strict is not UNSET:
            field_dict["strict"] = strict

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.json_schema_format_schema import JsonSchemaFormatSchema

        d = dict(src_dict)
        name = d.pop("name")

        schema = JsonSchemaFormatSchema.from_dict(d.pop("schema"))

        description = d.pop("description", UNSET)

        strict = d.pop("strict", UNSET)

        json_schema_format = cls(
            name=name,
            schema=schema,
            description=description,
            strict=strict,
        )

        json_schema_format.additional_properties = d
        return json_schema_format

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
