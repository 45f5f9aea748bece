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
    from ..models.web_search_action import WebSearchAction
    from ..models.web_search_call_item_results_item import WebSearchCallItemResultsItem


T = TypeVar("T", bound="WebSearchCallItem")


@_attrs_define
class WebSearchCallItem:
    """A web search the service ran.

    Attributes:
        type_ (Literal['web_search_call']):  Default: 'web_search_call'.
        id (str | Unset):
        status (str | Unset): Known values in_progress, searching, completed, failed.
        action (WebSearchAction | Unset): What the search did (type search, open_page, find ...).
        results (list[WebSearchCallItemResultsItem] | Unset): Present when include asks for web_search_call.results.
    """

    type_: Literal["web_search_call"] = "web_search_call"
    id: str | Unset = UNSET
    status: str | Unset = UNSET
    action: WebSearchAction | Unset = UNSET
    results: list[WebSearchCallItemResultsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        id = self.id

        status = self.status

        action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action.to_dict()

        results: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.results, Unset):
            results = []
            for results_item_data in self.results:
                results_item = results_item_data.to_dict()
                results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if status is not UNSET:
            field_dict["status"] = status
        if action is not UNSET:
            field_dict["action"] = action
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.web_search_action import WebSearchAction
        from ..models.web_search_call_item_results_item import (
            WebSearchCallItemResultsItem,
        )

        d = dict(src_dict)
        type_ = cast(Literal["web_search_call"], d.pop("type"))
        if type_ != "web_search_call":
            raise ValueError(f"type must match const 'web_search_call', got '{type_}'")

        id = d.pop("id", UNSET)

        status = d.pop("status", UNSET)

        _action = d.pop("action", UNSET)
        action: WebSearchAction | Unset
        if isinstance(_action, Unset):
            action = UNSET
        else:
            action = WebSearchAction.from_dict(_action)

        _results = d.pop("results", UNSET)
        results: list[WebSearchCallItemResultsItem] | Unset = UNSET
        if _results is not UNSET:
            results = []
            for results_item_data in _results:
                results_item = WebSearchCallItemResultsItem.from_dict(results_item_data)

                results.append(results_item)

        web_search_call_item = cls(
            type_=type_,
            id=id,
            status=status,
            action=action,
            results=results,
        )

        web_search_call_item.additional_properties = d
        return web_search_call_item

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
