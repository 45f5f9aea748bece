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

T = TypeVar("T", bound="ResponseRefusalDoneEvent")


@_attrs_define
class ResponseRefusalDoneEvent:
    """The whole refusal text of a message item's part.

    Attributes:
        type_ (Literal['response.refusal.done']):  Default: 'response.refusal.done'.
        refusal (str):
        sequence_number (int | Unset):
        item_id (str | Unset):
        output_index (int | Unset):
        content_index (int | Unset):
    """

    refusal: str
    type_: Literal["response.refusal.done"] = "response.refusal.done"
    sequence_number: int | Unset = UNSET
    item_id: str | Unset = UNSET
    output_index: int | Unset = UNSET
    content_index: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        refusal = self.refusal

        sequence_number = self.sequence_number

        item_id = self.item_id

        output_index = self.output_index

        content_index = self.content_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "refusal": refusal,
            }
        )
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if item_id is not UNSET:
            field_dict["item_id"] = item_id
        if output_index is not UNSET:
            field_dict["output_index"] = output_index
        if content_index is not UNSET:
            field_dict["content_index"] = content_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["response.refusal.done"], d.pop("type"))
        if type_ != "response.refusal.done":
            raise ValueError(
                f"type must match const 'response.refusal.done', got '{type_}'"
            )

        refusal = d.pop("refusal")

        sequence_number = d.pop("sequence_number", UNSET)

        item_id = d.pop("item_id", UNSET)

        output_index = d.pop("output_index", UNSET)

        content_index = d.pop("content_index", UNSET)

        response_refusal_done_event = cls(
            type_=type_,
            refusal=refusal,
            sequence_number=sequence_number,
            item_id=item_id,
            output_index=output_index,
            content_index=content_index,
        )

        response_refusal_done_event.additional_properties = d
        return response_refusal_done_event

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
