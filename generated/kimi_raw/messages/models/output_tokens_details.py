from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OutputTokensDetails")


@_attrs_define
class OutputTokensDetails:
    """Breakdown of output tokens.

    Attributes:
        thinking_tokens (int | Unset): Tokens spent on reasoning (already inside output_tokens).
    """

    thinking_tokens: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        thinking_tokens = self.thinking_tokens

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if thinking_tokens is not UNSET:
            field_dict["thinking_tokens"] = thinking_tokens

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        thinking_tokens = d.pop("thinking_tokens", UNSET)

        output_tokens_details = cls(
            thinking_tokens=thinking_tokens,
        )

        output_tokens_details.additional_properties = d
        return output_tokens_details

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
