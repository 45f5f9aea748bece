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

T = TypeVar("T", bound="FunctionCallItem")


@_attrs_define
class FunctionCallItem:
    """A function call requested by the model. `call_id` (Kimi style, e.g. `functions.get_weather:0`) must be sent back
    unchanged.

        Attributes:
            type_ (Literal['function_call']):  Default: 'function_call'.
            call_id (str):
            name (str):
            arguments (str): The arguments as a JSON text (parse and validate it yourself).
            id (str | Unset):
            namespace (str | Unset): The namespace tool the function belongs to, if any.
            status (str | Unset): Known values completed, incomplete, in_progress.
    """

    call_id: str
    name: str
    arguments: str
    type_: Literal["function_call"] = "function_call"
    id: str | Unset = UNSET
    namespace: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        call_id = self.call_id

        name = self.name

        arguments = self.arguments

        id = self.id

        namespace = self.namespace

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "call_id": call_id,
                "name": name,
                "arguments": arguments,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if namespace is not UNSET:
            field_dict["namespace"] = namespace
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["function_call"], d.pop("type"))
        if type_ != "function_call":
            raise ValueError(f"type must match const 'function_call', got '{type_}'")

        call_id = d.pop("call_id")

        name = d.pop("name")

        arguments = d.pop("arguments")

        id = d.pop("id", UNSET)

        namespace = d.pop("namespace", UNSET)

        status = d.pop("status", UNSET)

        function_call_item = cls(
            type_=type_,
            call_id=call_id,
            name=name,
            arguments=arguments,
            id=id,
            namespace=namespace,
            status=status,
        )

        function_call_item.additional_properties = d
        return function_call_item

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
