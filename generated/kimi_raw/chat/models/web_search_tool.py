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

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.web_search_tool_function import WebSearchToolFunction


T = TypeVar("T", bound="WebSearchTool")


@_attrs_define
class WebSearchTool:
    """The service's built-in web search. Declared as `{"type": "web_search"}`. When the model
    uses it, the response holds tool calls; send each call's `function.arguments` back
    unchanged as the `content` of a `tool` message with the same `tool_call_id`, then
    call again for the final answer. Searches are billed per call.

        Attributes:
            type_ (Literal['web_search']):  Default: 'web_search'.
            function (WebSearchToolFunction | Unset): Optional function-style settings some gateways accept next to `type`
                (for example a `name`).
    """

    type_: Literal["web_search"] = "web_search"
    function: WebSearchToolFunction | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        function: dict[str, Any] | Unset = UNSET
        if not isinstance(self.function, Unset):
            function = self.function.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if function is not UNSET:
            field_dict["function"] = function

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.web_search_tool_function import WebSearchToolFunction

        d = dict(src_dict)
        type_ = cast(Literal["web_search"], d.pop("type"))
        if type_ != "web_search":
            raise ValueError(f"type must match const 'web_search', got '{type_}'")

        _function = d.pop("function", UNSET)
        function: WebSearchToolFunction | Unset
        if isinstance(_function, Unset):
            function = UNSET
        else:
            function = WebSearchToolFunction.from_dict(_function)

        web_search_tool = cls(
            type_=type_,
            function=function,
        )

        web_search_tool.additional_properties = d
        return web_search_tool

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
