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
    from ..models.response_object import ResponseObject


T = TypeVar("T", bound="ResponseQueuedEvent")


@_attrs_define
class ResponseQueuedEvent:
    """The response is queued; carries the response snapshot.

    Attributes:
        type_ (Literal['response.queued']):  Default: 'response.queued'.
        response (ResponseObject): The response object (`object: response`). Named ResponseObject rather than Response
            because the generator's own `types.Response` wrapper would shadow a model called Response in the generated API
            module.
        sequence_number (int | Unset):
    """

    response: ResponseObject
    type_: Literal["response.queued"] = "response.queued"
    sequence_number: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        response = self.response.to_dict()

        sequence_number = self.sequence_number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "response": response,
            }
        )
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.response_object import ResponseObject

        d = dict(src_dict)
        type_ = cast(Literal["response.queued"], d.pop("type"))
        if type_ != "response.queued":
            raise ValueError(f"type must match const 'response.queued', got '{type_}'")

        response = ResponseObject.from_dict(d.pop("response"))

        sequence_number = d.pop("sequence_number", UNSET)

        response_queued_event = cls(
            type_=type_,
            response=response,
            sequence_number=sequence_number,
        )

        response_queued_event.additional_properties = d
        return response_queued_event

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
