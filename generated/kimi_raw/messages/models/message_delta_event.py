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
    from ..models.message_delta import MessageDelta
    from ..models.message_usage import MessageUsage


T = TypeVar("T", bound="MessageDeltaEvent")


@_attrs_define
class MessageDeltaEvent:
    """Top-level changes near the end of the stream (stop reason, final usage).

    Attributes:
        type_ (Literal['message_delta']):  Default: 'message_delta'.
        delta (MessageDelta): Fields of the message that changed.
        usage (MessageUsage | Unset): Token accounting. `input_tokens`, `cache_read_input_tokens` and
            `cache_creation_input_tokens` are disjoint: the total input is their sum. `output_tokens` includes the reasoning
            tokens.
    """

    delta: MessageDelta
    type_: Literal["message_delta"] = "message_delta"
    usage: MessageUsage | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        delta = self.delta.to_dict()

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "delta": delta,
            }
        )
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_delta import MessageDelta
        from ..models.message_usage import MessageUsage

        d = dict(src_dict)
        type_ = cast(Literal["message_delta"], d.pop("type"))
        if type_ != "message_delta":
            raise ValueError(f"type must match const 'message_delta', got '{type_}'")

        delta = MessageDelta.from_dict(d.pop("delta"))

        _usage = d.pop("usage", UNSET)
        usage: MessageUsage | Unset
        if isinstance(_usage, Unset):
            usage = UNSET
        else:
            usage = MessageUsage.from_dict(_usage)

        message_delta_event = cls(
            type_=type_,
            delta=delta,
            usage=usage,
        )

        message_delta_event.additional_properties = d
        return message_delta_event

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
