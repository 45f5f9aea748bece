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
    from ..models.named_tool_choice_function import NamedToolChoiceFunction


T = TypeVar("T", bound="NamedToolChoice")


@_attrs_define
class NamedToolChoice:
    """Force one function. This conflicts with reasoning, which is always on, and the
    service refuses it; the member is kept so the shape is documented.

        Attributes:
            type_ (Literal['function']):  Default: 'function'.
            function (NamedToolChoiceFunction):
    """

    function: NamedToolChoiceFunction
    type_: Literal["function"] = "function"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        function = self.function.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "function": function,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.named_tool_choice_function import NamedToolChoiceFunction

        d = dict(src_dict)
        type_ = cast(Literal["function"], d.pop("type"))
        if type_ != "function":
            raise ValueError(f"type must match const 'function', got '{type_}'")

        function = NamedToolChoiceFunction.from_dict(d.pop("function"))

        named_tool_choice = cls(
            type_=type_,
            function=function,
        )

        named_tool_choice.additional_properties = d
        return named_tool_choice

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
