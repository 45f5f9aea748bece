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
    from ..models.response_output_text_delta_event_logprobs_item import (
        ResponseOutputTextDeltaEventLogprobsItem,
    )


T = TypeVar("T", bound="ResponseOutputTextDeltaEvent")


@_attrs_define
class ResponseOutputTextDeltaEvent:
    """
    Attributes:
        type_ (Literal['response.output_text.delta']):  Default: 'response.output_text.delta'.
        delta (str):
        sequence_number (int | Unset):
        item_id (str | Unset):
        output_index (int | Unset):
        content_index (int | Unset):
        logprobs (list[ResponseOutputTextDeltaEventLogprobsItem] | Unset):
    """

    delta: str
    type_: Literal["response.output_text.delta"] = "response.output_text.delta"
    sequence_number: int | Unset = UNSET
    item_id: str | Unset = UNSET
    output_index: int | Unset = UNSET
    content_index: int | Unset = UNSET
    logprobs: list[ResponseOutputTextDeltaEventLogprobsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        delta = self.delta

        sequence_number = self.sequence_number

        item_id = self.item_id

        output_index = self.output_index

        content_index = self.content_index

        logprobs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.logprobs, Unset):
            logprobs = []
            for logprobs_item_data in self.logprobs:
                logprobs_item = logprobs_item_data.to_dict()
                logprobs.append(logprobs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "delta": delta,
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
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.response_output_text_delta_event_logprobs_item import (
            ResponseOutputTextDeltaEventLogprobsItem,
        )

        d = dict(src_dict)
        type_ = cast(Literal["response.output_text.delta"], d.pop("type"))
        if type_ != "response.output_text.delta":
            raise ValueError(
                f"type must match const 'response.output_text.delta', got '{type_}'"
            )

        delta = d.pop("delta")

        sequence_number = d.pop("sequence_number", UNSET)

        item_id = d.pop("item_id", UNSET)

        output_index = d.pop("output_index", UNSET)

        content_index = d.pop("content_index", UNSET)

        _logprobs = d.pop("logprobs", UNSET)
        logprobs: list[ResponseOutputTextDeltaEventLogprobsItem] | Unset = UNSET
        if _logprobs is not UNSET:
            logprobs = []
            for logprobs_item_data in _logprobs:
                logprobs_item = ResponseOutputTextDeltaEventLogprobsItem.from_dict(
                    logprobs_item_data
                )

                logprobs.append(logprobs_item)

        response_output_text_delta_event = cls(
            type_=type_,
            delta=delta,
            sequence_number=sequence_number,
            item_id=item_id,
            output_index=output_index,
            content_index=content_index,
            logprobs=logprobs,
        )

        response_output_text_delta_event.additional_properties = d
        return response_output_text_delta_event

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
