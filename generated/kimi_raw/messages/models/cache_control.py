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

from ..models.cache_control_ttl import CacheControlTtl
from ..types import UNSET, Unset

T = TypeVar("T", bound="CacheControl")


@_attrs_define
class CacheControl:
    """Top-level prompt-cache write options (K3.1 models only). Only this top-level field sets the TTL of cache writes;
    cache_control markers inside blocks are ignored by the service. Without it, writes live 5 minutes.

        Attributes:
            type_ (Literal['ephemeral']): Cache kind; `ephemeral` is the only one. Default: 'ephemeral'.
            ttl (CacheControlTtl | Unset): Lifetime of newly written cache entries, 5 minutes (default) or 1 hour.
    """

    type_: Literal["ephemeral"] = "ephemeral"
    ttl: CacheControlTtl | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        ttl: str | Unset = UNSET
        if not isinstance(self.ttl, Unset):
            ttl = self.ttl.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if ttl is not UNSET:
            field_dict["ttl"] = ttl

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["ephemeral"], d.pop("type"))
        if type_ != "ephemeral":
            raise ValueError(f"type must match const 'ephemeral', got '{type_}'")

        _ttl = d.pop("ttl", UNSET)
        ttl: CacheControlTtl | Unset
        if isinstance(_ttl, Unset):
            ttl = UNSET
        else:
            ttl = CacheControlTtl(_ttl)

        cache_control = cls(
            type_=type_,
            ttl=ttl,
        )

        cache_control.additional_properties = d
        return cache_control

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
