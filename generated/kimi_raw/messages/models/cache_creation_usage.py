from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CacheCreationUsage")


@_attrs_define
class CacheCreationUsage:
    """Cache writes split by the TTL actually applied (they sum to cache_creation_input_tokens).

    Attributes:
        ephemeral_5m_input_tokens (int | Unset):
        ephemeral_1h_input_tokens (int | Unset):
    """

    ephemeral_5m_input_tokens: int | Unset = UNSET
    ephemeral_1h_input_tokens: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ephemeral_5m_input_tokens = self.ephemeral_5m_input_tokens

        ephemeral_1h_input_tokens = self.ephemeral_1h_input_tokens

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if ephemeral_5m_input_tokens is not UNSET:
            field_dict["ephemeral_5m_input_tokens"] = ephemeral_5m_input_tokens
        if ephemeral_1h_input_tokens is not UNSET:
            field_dict["ephemeral_1h_input_tokens"] = ephemeral_1h_input_tokens

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ephemeral_5m_input_tokens = d.pop("ephemeral_5m_input_tokens", UNSET)

        ephemeral_1h_input_tokens = d.pop("ephemeral_1h_input_tokens", UNSET)

        cache_creation_usage = cls(
            ephemeral_5m_input_tokens=ephemeral_5m_input_tokens,
            ephemeral_1h_input_tokens=ephemeral_1h_input_tokens,
        )

        cache_creation_usage.additional_properties = d
        return cache_creation_usage

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
