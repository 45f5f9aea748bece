from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebSearchResult")


@_attrs_define
class WebSearchResult:
    """One search hit; fields beyond those listed are kept.

    Attributes:
        type_ (str | Unset): Known value `web_search_result`.
        url (str | Unset):
        title (str | Unset):
        encrypted_content (str | Unset): Opaque page content for the model; send back unchanged.
        page_age (None | str | Unset):
    """

    type_: str | Unset = UNSET
    url: str | Unset = UNSET
    title: str | Unset = UNSET
    encrypted_content: str | Unset = UNSET
    page_age: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        url = self.url

        title = self.title

        encrypted_content = self.encrypted_content

        page_age: None | str | Unset
        if isinstance(self.page_age, Unset):
            page_age = UNSET
        else:
            page_age = self.page_age

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if url is not UNSET:
            field_dict["url"] = url
        if title is not UNSET:
            field_dict["title"] = title
        if encrypted_content is not UNSET:
            field_dict["encrypted_content"] = encrypted_content
        if page_age is not UNSET:
            field_dict["page_age"] = page_age

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type", UNSET)

        url = d.pop("url", UNSET)

        title = d.pop("title", UNSET)

        encrypted_content = d.pop("encrypted_content", UNSET)

        def _parse_page_age(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        page_age = _parse_page_age(d.pop("page_age", UNSET))

        web_search_result = cls(
            type_=type_,
            url=url,
            title=title,
            encrypted_content=encrypted_content,
            page_age=page_age,
        )

        web_search_result.additional_properties = d
        return web_search_result

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
