from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cache_creation_usage import CacheCreationUsage
    from ..models.output_tokens_details import OutputTokensDetails
    from ..models.server_tool_usage import ServerToolUsage


T = TypeVar("T", bound="MessageUsage")


@_attrs_define
class MessageUsage:
    """Token accounting. `input_tokens`, `cache_read_input_tokens` and `cache_creation_input_tokens` are disjoint: the
    total input is their sum. `output_tokens` includes the reasoning tokens.

        Attributes:
            input_tokens (int | Unset): Input tokens neither read from nor written to the cache.
            cache_read_input_tokens (int | None | Unset): Input tokens served from the prompt cache.
            cache_creation_input_tokens (int | None | Unset): Input tokens written to the prompt cache.
            cache_creation (CacheCreationUsage | None | Unset):
            output_tokens (int | Unset): Generated tokens, reasoning included.
            output_tokens_details (None | OutputTokensDetails | Unset):
            server_tool_use (None | ServerToolUsage | Unset):
    """

    input_tokens: int | Unset = UNSET
    cache_read_input_tokens: int | None | Unset = UNSET
    cache_creation_input_tokens: int | None | Unset = UNSET
    cache_creation: CacheCreationUsage | None | Unset = UNSET
    output_tokens: int | Unset = UNSET
    output_tokens_details: None | OutputTokensDetails | Unset = UNSET
    server_tool_use: None | ServerToolUsage | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cache_creation_usage import CacheCreationUsage
        from ..models.output_tokens_details import OutputTokensDetails
        from ..models.server_tool_usage import ServerToolUsage

        input_tokens = self.input_tokens

        cache_read_input_tokens: int | None | Unset
        if isinstance(self.cache_read_input_tokens, Unset):
            cache_read_input_tokens = UNSET
        else:
            cache_read_input_tokens = self.cache_read_input_tokens

        cache_creation_input_tokens: int | None | Unset
        if isinstance(self.cache_creation_input_tokens, Unset):
            cache_creation_input_tokens = UNSET
        else:
            cache_creation_input_tokens = self.cache_creation_input_tokens

        cache_creation: dict[str, Any] | None | Unset
        if isinstance(self.cache_creation, Unset):
            cache_creation = UNSET
        elif isinstance(self.cache_creation, CacheCreationUsage):
            cache_creation = self.cache_creation.to_dict()
        else:
            cache_creation = self.cache_creation

        output_tokens = self.output_tokens

        output_tokens_details: dict[str, Any] | None | Unset
        if isinstance(self.output_tokens_details, Unset):
            output_tokens_details = UNSET
        elif isinstance(self.output_tokens_details, OutputTokensDetails):
            output_tokens_details = self.output_tokens_details.to_dict()
        else:
            output_tokens_details = self.output_tokens_details

        server_tool_use: dict[str, Any] | None | Unset
        if isinstance(self.server_tool_use, Unset):
            server_tool_use = UNSET
        elif isinstance(self.server_tool_use, ServerToolUsage):
            server_tool_use = self.server_tool_use.to_dict()
        else:
            server_tool_use = self.server_tool_use

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if input_tokens is not UNSET:
            field_dict["input_tokens"] = input_tokens
        if cache_read_input_tokens is not UNSET:
            field_dict["cache_read_input_tokens"] = cache_read_input_tokens
        if cache_creation_input_tokens is not UNSET:
            field_dict["cache_creation_input_tokens"] = cache_creation_input_tokens
        if cache_creation is not UNSET:
            field_dict["cache_creation"] = cache_creation
        if output_tokens is not UNSET:
            field_dict["output_tokens"] = output_tokens
        if output_tokens_details is not UNSET:
            field_dict["output_tokens_details"] = output_tokens_details
        if server_tool_use is not UNSET:
            field_dict["server_tool_use"] = server_tool_use

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cache_creation_usage import CacheCreationUsage
        from ..models.output_tokens_details import OutputTokensDetails
        from ..models.server_tool_usage import ServerToolUsage

        d = dict(src_dict)
        input_tokens = d.pop("input_tokens", UNSET)

        def _parse_cache_read_input_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        cache_read_input_tokens = _parse_cache_read_input_tokens(
            d.pop("cache_read_input_tokens", UNSET)
        )

        def _parse_cache_creation_input_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        cache_creation_input_tokens = _parse_cache_creation_input_tokens(
            d.pop("cache_creation_input_tokens", UNSET)
        )

        def _parse_cache_creation(data: object) -> CacheCreationUsage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cache_creation_type_0 = CacheCreationUsage.from_dict(data)

                return cache_creation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CacheCreationUsage | None | Unset, data)

        cache_creation = _parse_cache_creation(d.pop("cache_creation", UNSET))

        output_tokens = d.pop("output_tokens", UNSET)

        def _parse_output_tokens_details(
            data: object,
        ) -> None | OutputTokensDetails | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                output_tokens_details_type_0 = OutputTokensDetails.from_dict(data)

                return output_tokens_details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OutputTokensDetails | Unset, data)

        output_tokens_details = _parse_output_tokens_details(
            d.pop("output_tokens_details", UNSET)
        )

        def _parse_server_tool_use(data: object) -> None | ServerToolUsage | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                server_tool_use_type_0 = ServerToolUsage.from_dict(data)

                return server_tool_use_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ServerToolUsage | Unset, data)

        server_tool_use = _parse_server_tool_use(d.pop("server_tool_use", UNSET))

        message_usage = cls(
            input_tokens=input_tokens,
            cache_read_input_tokens=cache_read_input_tokens,
            cache_creation_input_tokens=cache_creation_input_tokens,
            cache_creation=cache_creation,
            output_tokens=output_tokens,
            output_tokens_details=output_tokens_details,
            server_tool_use=server_tool_use,
        )

        message_usage.additional_properties = d
        return message_usage

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
