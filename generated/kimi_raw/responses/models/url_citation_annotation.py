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

T = TypeVar("T", bound="UrlCitationAnnotation")


@_attrs_define
class UrlCitationAnnotation:
    """
    Attributes:
        type_ (Literal['url_citation']):  Default: 'url_citation'.
        url (str | Unset):
        title (str | Unset):
        start_index (int | Unset):
        end_index (int | Unset):
    """

    type_: Literal["url_citation"] = "url_citation"
    url: str | Unset = UNSET
    title: str | Unset = UNSET
    start_index: int | Unset = UNSET
    end_index: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        url = self.url

        title = self.title

        start_index = self.start_index

        end_index = self.end_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url
        if title is not UNSET:
            field_dict["title"] = title
        if start_index is not UNSET:
            field_dict["start_index"] = start_index
        if end_index is not UNSET:
            field_dict["end_index"] = end_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["url_citation"], d.pop("type"))
        if type_ != "url_citation":
            raise ValueError(f"type must match const 'url_citation', got '{type_}'")

        url = d.pop("url", UNSET)

        title = d.pop("title", UNSET)

        start_index = d.pop("start_index", UNSET)

        end_index = d.pop("end_index", UNSET)

        url_citation_annotation = cls(
            type_=type_,
            url=url,
            title=title,
            start_index=start_index,
            end_index=end_index,
        )

        url_citation_annotation.additional_properties = d
        return url_citation_annotation

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
