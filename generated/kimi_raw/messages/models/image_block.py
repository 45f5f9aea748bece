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
    from ..models.base_64_image_source import Base64ImageSource
    from ..models.url_image_source import UrlImageSource


T = TypeVar("T", bound="ImageBlock")


@_attrs_define
class ImageBlock:
    """An input image (user turns and tool results).

    Attributes:
        type_ (Literal['image']):  Default: 'image'.
        source (Base64ImageSource | UrlImageSource): Where the image bytes come from.
    """

    source: Base64ImageSource | UrlImageSource
    type_: Literal["image"] = "image"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.base_64_image_source import Base64ImageSource

        type_ = self.type_

        source: dict[str, Any]
        if isinstance(self.source, Base64ImageSource):
            source = self.source.to_dict()
        else:
            source = self.source.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.base_64_image_source import Base64ImageSource
        from ..models.url_image_source import UrlImageSource

        d = dict(src_dict)
        type_ = cast(Literal["image"], d.pop("type"))
        if type_ != "image":
            raise ValueError(f"type must match const 'image', got '{type_}'")

        def _parse_source(data: object) -> Base64ImageSource | UrlImageSource:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_image_source_type_0 = Base64ImageSource.from_dict(
                    data
                )

                return componentsschemas_image_source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_image_source_type_1 = UrlImageSource.from_dict(data)

            return componentsschemas_image_source_type_1

        source = _parse_source(d.pop("source"))

        image_block = cls(
            type_=type_,
            source=source,
        )

        image_block.additional_properties = d
        return image_block

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
