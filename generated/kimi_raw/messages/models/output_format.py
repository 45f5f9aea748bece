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

if TYPE_CHECKING:
    from ..models.output_format_schema import OutputFormatSchema


T = TypeVar("T", bound="OutputFormat")


@_attrs_define
class OutputFormat:
    """Structured output: the answer is JSON that satisfies `schema` (K3.1 models only).

    Attributes:
        type_ (Literal['json_schema']):  Default: 'json_schema'.
        schema (OutputFormatSchema): The JSON Schema the answer must satisfy, in Moonshot Flavored JSON Schema.
    """

    schema: OutputFormatSchema
    type_: Literal["json_schema"] = "json_schema"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        schema = self.schema.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "schema": schema,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.output_format_schema import OutputFormatSchema

        d = dict(src_dict)
        type_ = cast(Literal["json_schema"], d.pop("type"))
        if type_ != "json_schema":
            raise ValueError(f"type must match const 'json_schema', got '{type_}'")

        schema = OutputFormatSchema.from_dict(d.pop("schema"))

        output_format = cls(
            type_=type_,
            schema=schema,
        )

        output_format.additional_properties = d
        return output_format

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
