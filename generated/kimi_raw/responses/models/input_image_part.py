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

from ..models.input_image_part_detail import InputImagePartDetail
from ..types import UNSET, Unset

T = TypeVar("T", bound="InputImagePart")


@_attrs_define
class InputImagePart:
    """An image given as a base64 data URL (data:image/png;base64,...).

    Attributes:
        type_ (Literal['input_image']):  Default: 'input_image'.
        image_url (str | Unset):
        file_id (str | Unset):
        detail (InputImagePartDetail | Unset):
    """

    type_: Literal["input_image"] = "input_image"
    image_url: str | Unset = UNSET
    file_id: str | Unset = UNSET
    detail: InputImagePartDetail | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        image_url = self.image_url

        file_id = self.file_id

        detail: str | Unset = UNSET
        if not isinstance(self.detail, Unset):
            detail = self.detail.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if image_url is not UNSET:
            field_dict["image_url"] = image_url
        if file_id is not UNSET:
            field_dict["file_id"] = file_id
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["input_image"], d.pop("type"))
        if type_ != "input_image":
            raise ValueError(f"type must match const 'input_image', got '{type_}'")

        image_url = d.pop("image_url", UNSET)

        file_id = d.pop("file_id", UNSET)

        _detail = d.pop("detail", UNSET)
        detail: InputImagePartDetail | Unset
        if isinstance(_detail, Unset):
            detail = UNSET
        else:
            detail = InputImagePartDetail(_detail)

        input_image_part = cls(
            type_=type_,
            image_url=image_url,
            file_id=file_id,
            detail=detail,
        )

        input_image_part.additional_properties = d
        return input_image_part

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
