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

T = TypeVar("T", bound="SignatureDelta")


@_attrs_define
class SignatureDelta:
    """The signature of a thinking block, sent just before the block stops.

    Attributes:
        type_ (Literal['signature_delta']):  Default: 'signature_delta'.
        signature (str):
    """

    signature: str
    type_: Literal["signature_delta"] = "signature_delta"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        signature = self.signature

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["signature_delta"], d.pop("type"))
        if type_ != "signature_delta":
            raise ValueError(f"type must match const 'signature_delta', got '{type_}'")

        signature = d.pop("signature")

        signature_delta = cls(
            type_=type_,
            signature=signature,
        )

        signature_delta.additional_properties = d
        return signature_delta

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
