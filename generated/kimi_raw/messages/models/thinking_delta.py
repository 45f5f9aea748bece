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

T = TypeVar("T", bound="ThinkingDelta")


@_attrs_define
class ThinkingDelta:
    """More reasoning for a thinking block.

    Attributes:
        type_ (Literal['thinking_delta']):  Default: 'thinking_delta'.
        thinking (str):
    """

    thinking: str
    type_: Literal["thinking_delta"] = "thinking_delta"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        thinking = self.thinking

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "thinking": thinking,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["thinking_delta"], d.pop("type"))
        if type_ != "thinking_delta":
            raise ValueError(f"type must match const 'thinking_delta', got '{type_}'")

        thinking = d.pop("thinking")

        thinking_delta = cls(
            type_=type_,
            thinking=thinking,
        )

        thinking_delta.additional_properties = d
        return thinking_delta

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
