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
    from ..models.message_response import MessageResponse


T = TypeVar("T", bound="MessageStartEvent")


@_attrs_define
class MessageStartEvent:
    """First event; carries the message shell with empty content and the input usage.

    Attributes:
        type_ (Literal['message_start']):  Default: 'message_start'.
        message (MessageResponse): A generated assistant message (also the `message` of message_start).
    """

    message: MessageResponse
    type_: Literal["message_start"] = "message_start"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        message = self.message.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_response import MessageResponse

        d = dict(src_dict)
        type_ = cast(Literal["message_start"], d.pop("type"))
        if type_ != "message_start":
            raise ValueError(f"type must match const 'message_start', got '{type_}'")

        message = MessageResponse.from_dict(d.pop("message"))

        message_start_event = cls(
            type_=type_,
            message=message,
        )

        message_start_event.additional_properties = d
        return message_start_event

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
