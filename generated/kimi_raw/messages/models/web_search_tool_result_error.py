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

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebSearchToolResultError")


@_attrs_define
class WebSearchToolResultError:
    """A failed server web search.

    Attributes:
        type_ (Literal['web_search_tool_result_error']):  Default: 'web_search_tool_result_error'.
        error_code (str | Unset): Why the search failed; known values include `invalid_tool_input`, `unavailable`,
            `max_uses_exceeded`, `too_many_requests`, `query_too_long`.
    """

    type_: Literal["web_search_tool_result_error"] = "web_search_tool_result_error"
    error_code: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        error_code = self.error_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if error_code is not UNSET:
            field_dict["error_code"] = error_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["web_search_tool_result_error"], d.pop("type"))
        if type_ != "web_search_tool_result_error":
            raise ValueError(
                f"type must match const 'web_search_tool_result_error', got '{type_}'"
            )

        error_code = d.pop("error_code", UNSET)

        web_search_tool_result_error = cls(
            type_=type_,
            error_code=error_code,
        )

        web_search_tool_result_error.additional_properties = d
        return web_search_tool_result_error

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
