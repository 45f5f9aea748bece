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
    from ..models.output_text_part import OutputTextPart
    from ..models.reasoning_text_part import ReasoningTextPart
    from ..models.refusal_part import RefusalPart
    from ..models.unknown_part import UnknownPart


T = TypeVar("T", bound="ResponseContentPartDoneEvent")


@_attrs_define
class ResponseContentPartDoneEvent:
    """
    Attributes:
        type_ (Literal['response.content_part.done']):  Default: 'response.content_part.done'.
        part (OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart):
        sequence_number (int | Unset):
        item_id (str | Unset):
        output_index (int | Unset):
        content_index (int | Unset):
    """

    part: OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart
    type_: Literal["response.content_part.done"] = "response.content_part.done"
    sequence_number: int | Unset = UNSET
    item_id: str | Unset = UNSET
    output_index: int | Unset = UNSET
    content_index: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.output_text_part import OutputTextPart
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.refusal_part import RefusalPart

        type_ = self.type_

        part: dict[str, Any]
        if (
            isinstance(self.part, OutputTextPart)
            or isinstance(self.part, RefusalPart)
            or isinstance(self.part, ReasoningTextPart)
        ):
            part = self.part.to_dict()
        else:
            part = self.part.to_dict()

        sequence_number = self.sequence_number

        item_id = self.item_id

        output_index = self.output_index

        content_index = self.content_index

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
        if content_index is not UNSET:
            field_dict["content_index"] = content_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.output_text_part import OutputTextPart
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.refusal_part import RefusalPart
        from ..models.unknown_part import UnknownPart

        d = dict(src_dict)
        type_ = cast(Literal["response.content_part.done"], d.pop("type"))
        if type_ != "response.content_part.done":
            raise ValueError(
                f"type must match const 'response.content_part.done', got '{type_}'"
            )

        def _parse_part(
            data: object,
        ) -> OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_content_part_type_0 = OutputTextPart.from_dict(
                    data
                )

                return componentsschemas_output_content_part_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_content_part_type_1 = RefusalPart.from_dict(
                    data
                )

                return componentsschemas_output_content_part_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_content_part_type_2 = (
                    ReasoningTextPart.from_dict(data)
                )

                return componentsschemas_output_content_part_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_output_content_part_type_3 = UnknownPart.from_dict(data)

            return componentsschemas_output_content_part_type_3

        part = _parse_part(d.pop("part"))

        sequence_number = d.pop("sequence_number", UNSET)

        item_id = d.pop("item_id", UNSET)

        output_index = d.pop("output_index", UNSET)

        content_index = d.pop("content_index", UNSET)

        response_content_part_done_event = cls(
            type_=type_,
            part=part,
            sequence_number=sequence_number,
            item_id=item_id,
            output_index=output_index,
            content_index=content_index,
        )

        response_content_part_done_event.additional_properties = d
        return response_content_part_done_event

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
