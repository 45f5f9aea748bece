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
    from ..models.summary_text_part import SummaryTextPart
    from ..models.unknown_part import UnknownPart


T = TypeVar("T", bound="ResponseReasoningSummaryPartAddedEvent")


@_attrs_define
class ResponseReasoningSummaryPartAddedEvent:
    """A reasoning summary part begins.

    Attributes:
        type_ (Literal['response.reasoning_summary_part.added']):  Default: 'response.reasoning_summary_part.added'.
        part (SummaryTextPart | UnknownPart):
        sequence_number (int | Unset):
        item_id (str | Unset):
        output_index (int | Unset):
        summary_index (int | Unset):
    """

    part: SummaryTextPart | UnknownPart
    type_: Literal["response.reasoning_summary_part.added"] = (
        "response.reasoning_summary_part.added"
    )
    sequence_number: int | Unset = UNSET
    item_id: str | Unset = UNSET
    output_index: int | Unset = UNSET
    summary_index: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.summary_text_part import SummaryTextPart

        type_ = self.type_

        part: dict[str, Any]
        if isinstance(self.part, SummaryTextPart):
            part = self.part.to_dict()
        else:
            part = self.part.to_dict()

        sequence_number = self.sequence_number

        item_id = self.item_id

        output_index = self.output_index

        summary_index = self.summary_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "part": part,
            }
        )
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if item_id is not UNSET:
            field_dict["item_id"] = item_id
        if output_index is not UNSET:
            field_dict["output_index"] = output_index
        if summary_index is not UNSET:
            field_dict["summary_index"] = summary_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.summary_text_part import SummaryTextPart
        from ..models.unknown_part import UnknownPart

        d = dict(src_dict)
        type_ = cast(Literal["response.reasoning_summary_part.added"], d.pop("type"))
        if type_ != "response.reasoning_summary_part.added":
            raise ValueError(
                f"type must match const 'response.reasoning_summary_part.added', got '{type_}'"
            )

        def _parse_part(data: object) -> SummaryTextPart | UnknownPart:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_reasoning_summary_part_type_0 = (
                    SummaryTextPart.from_dict(data)
                )

                return componentsschemas_reasoning_summary_part_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_reasoning_summary_part_type_1 = UnknownPart.from_dict(
                data
            )

            return componentsschemas_reasoning_summary_part_type_1

        part = _parse_part(d.pop("part"))

        sequence_number = d.pop("sequence_number", UNSET)

        item_id = d.pop("item_id", UNSET)

        output_index = d.pop("output_index", UNSET)

        summary_index = d.pop("summary_index", UNSET)

        response_reasoning_summary_part_added_event = cls(
            type_=type_,
            part=part,
            sequence_number=sequence_number,
            item_id=item_id,
            output_index=output_index,
            summary_index=summary_index,
        )

        response_reasoning_summary_part_added_event.additional_properties = d
        return response_reasoning_summary_part_added_event

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
