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

T = TypeVar("T", bound="InputJsonDelta")


@_attrs_define
class InputJsonDelta:
    """A fragment of a tool_use / server_tool_use block's input, as raw JSON text; the fragments concatenate to the whole
    input object.

        Attributes:
            type_ (Literal['input_json_delta']):  Default: 'input_json_delta'.
            partial_json (str):
    """

    partial_json: str
    type_: Literal["input_json_delta"] = "input_json_delta"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        partial_json = self.partial_json

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "partial_json": partial_json,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["input_json_delta"], d.pop("type"))
        if type_ != "input_json_delta":
            raise ValueError(f"type must match const 'input_json_delta', got '{type_}'")

        partial_json = d.pop("partial_json")

        input_json_delta = cls(
            type_=type_,
            partial_json=partial_json,
        )

        input_json_delta.additional_properties = d
        return input_json_delta

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
