from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageDelta")


@_attrs_define
class MessageDelta:
    """Fields of the message that changed.

    Attributes:
        stop_reason (None | str | Unset): Same known values as MessageResponse.stop_reason; other values are kept.
        stop_sequence (None | str | Unset):
    """

    stop_reason: None | str | Unset = UNSET
    stop_sequence: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stop_reason: None | str | Unset
        if isinstance(self.stop_reason, Unset):
            stop_reason = UNSET
        else:
            stop_reason = self.stop_reason

        stop_sequence: None | str | Unset
        if isinstance(self.stop_sequence, Unset):
            stop_sequence = UNSET
        else:
            stop_sequence = self.stop_sequence

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if stop_reason is not UNSET:
            field_dict["stop_reason"] = stop_reason
        if stop_sequence is not UNSET:
            field_dict["stop_sequence"] = stop_sequence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_stop_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_reason = _parse_stop_reason(d.pop("stop_reason", UNSET))

        def _parse_stop_sequence(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_sequence = _parse_stop_sequence(d.pop("stop_sequence", UNSET))

        message_delta = cls(
            stop_reason=stop_reason,
            stop_sequence=stop_sequence,
        )

        message_delta.additional_properties = d
        return message_delta

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
