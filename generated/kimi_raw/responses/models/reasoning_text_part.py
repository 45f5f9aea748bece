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

T = TypeVar("T", bound="ReasoningTextPart")


@_attrs_define
class ReasoningTextPart:
    """
    Attributes:
        type_ (Literal['reasoning_text']):  Default: 'reasoning_text'.
        text (str):
    """

    text: str
    type_: Literal["reasoning_text"] = "reasoning_text"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["reasoning_text"], d.pop("type"))
        if type_ != "reasoning_text":
            raise ValueError(f"type must match const 'reasoning_text', got '{type_}'")

        text = d.pop("text")

        reasoning_text_part = cls(
            type_=type_,
            text=text,
        )

        reasoning_text_part.additional_properties = d
        return reasoning_text_part

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
