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

T = TypeVar("T", bound="ContentBlockStopEvent")


@_attrs_define
class ContentBlockStopEvent:
    """The content block at `index` is complete.

    Attributes:
        type_ (Literal['content_block_stop']):  Default: 'content_block_stop'.
        index (int):
    """

    index: int
    type_: Literal["content_block_stop"] = "content_block_stop"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        index = self.index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "index": index,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["content_block_stop"], d.pop("type"))
        if type_ != "content_block_stop":
            raise ValueError(
                f"type must match const 'content_block_stop', got '{type_}'"
            )

        index = d.pop("index")

        content_block_stop_event = cls(
            type_=type_,
            index=index,
        )

        content_block_stop_event.additional_properties = d
        return content_block_stop_event

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
