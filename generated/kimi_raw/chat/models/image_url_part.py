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

if TYPE_CHECKING:
    from ..models.image_url import ImageUrl


T = TypeVar("T", bound="ImageUrlPart")


@_attrs_define
class ImageUrlPart:
    """An image as a base64 `data:` URL or an accepted `ms://` file reference (arbitrary
    public URLs are not fetched). JPEG, PNG, GIF, WebP, BMP, HEIC and HEIF.

        Attributes:
            type_ (Literal['image_url']):  Default: 'image_url'.
            image_url (ImageUrl):
    """

    image_url: ImageUrl
    type_: Literal["image_url"] = "image_url"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        image_url = self.image_url.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "image_url": image_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_url import ImageUrl

        d = dict(src_dict)
        type_ = cast(Literal["image_url"], d.pop("type"))
        if type_ != "image_url":
            raise ValueError(f"type must match const 'image_url', got '{type_}'")

        image_url = ImageUrl.from_dict(d.pop("image_url"))

        image_url_part = cls(
            type_=type_,
            image_url=image_url,
        )

        image_url_part.additional_properties = d
        return image_url_part

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
