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

from ..models.base_64_image_source_media_type import Base64ImageSourceMediaType

T = TypeVar("T", bound="Base64ImageSource")


@_attrs_define
class Base64ImageSource:
    """Inline image data.

    Attributes:
        type_ (Literal['base64']):  Default: 'base64'.
        media_type (Base64ImageSourceMediaType): MIME type of the encoded image.
        data (str): Base64 of the image file, without a `data:` URL prefix.
    """

    media_type: Base64ImageSourceMediaType
    data: str
    type_: Literal["base64"] = "base64"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        media_type = self.media_type.value

        data = self.data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "media_type": media_type,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["base64"], d.pop("type"))
        if type_ != "base64":
            raise ValueError(f"type must match const 'base64', got '{type_}'")

        media_type = Base64ImageSourceMediaType(d.pop("media_type"))

        data = d.pop("data")

        base_64_image_source = cls(
            type_=type_,
            media_type=media_type,
            data=data,
        )

        base_64_image_source.additional_properties = d
        return base_64_image_source

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
