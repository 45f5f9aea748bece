from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.prompt_cache_options_mode import PromptCacheOptionsMode
from ..models.prompt_cache_options_ttl import PromptCacheOptionsTtl
from ..types import UNSET, Unset

T = TypeVar("T", bound="PromptCacheOptions")


@_attrs_define
class PromptCacheOptions:
    """Cache-write options (K3.1 series only; kimi-k3 rejects it). Without it a 5-minute cache is written. An already
    cached prefix keeps its original TTL.

        Attributes:
            mode (PromptCacheOptionsMode | Unset):
            ttl (PromptCacheOptionsTtl | Unset): Lifetime of the cache entry this request writes; default 5m.
    """

    mode: PromptCacheOptionsMode | Unset = UNSET
    ttl: PromptCacheOptionsTtl | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        ttl: str | Unset = UNSET
        if not isinstance(self.ttl, Unset):
            ttl = self.ttl.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if mode is not UNSET:
            field_dict["mode"] = mode
        if ttl is not UNSET:
            field_dict["ttl"] = ttl

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _mode = d.pop("mode", UNSET)
        mode: PromptCacheOptionsMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = PromptCacheOptionsMode(_mode)

        _ttl = d.pop("ttl", UNSET)
        ttl: PromptCacheOptionsTtl | Unset
        if isinstance(_ttl, Unset):
            ttl = UNSET
        else:
            ttl = PromptCacheOptionsTtl(_ttl)

        prompt_cache_options = cls(
            mode=mode,
            ttl=ttl,
        )

        prompt_cache_options.additional_properties = d
        return prompt_cache_options

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
