from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.web_search_action_sources_item import WebSearchActionSourcesItem


T = TypeVar("T", bound="WebSearchAction")


@_attrs_define
class WebSearchAction:
    """What the search did (type search, open_page, find ...).

    Attributes:
        type_ (str | Unset):
        query (str | Unset):
        sources (list[WebSearchActionSourcesItem] | Unset): Present when include asks for
            web_search_call.action.sources.
    """

    type_: str | Unset = UNSET
    query: str | Unset = UNSET
    sources: list[WebSearchActionSourcesItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        query = self.query

        sources: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = []
            for sources_item_data in self.sources:
                sources_item = sources_item_data.to_dict()
                sources.append(sources_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if query is not UNSET:
            field_dict["query"] = query
        if sources is not UNSET:
            field_dict["sources"] = sources

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.web_search_action_sources_item import WebSearchActionSourcesItem

        d = dict(src_dict)
        type_ = d.pop("type", UNSET)

        query = d.pop("query", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: list[WebSearchActionSourcesItem] | Unset = UNSET
        if _sources is not UNSET:
            sources = []
            for sources_item_data in _sources:
                sources_item = WebSearchActionSourcesItem.from_dict(sources_item_data)

                sources.append(sources_item)

        web_search_action = cls(
            type_=type_,
            query=query,
            sources=sources,
        )

        web_search_action.additional_properties = d
        return web_search_action

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
