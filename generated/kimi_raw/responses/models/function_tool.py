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
    from ..models.function_tool_parameters import FunctionToolParameters


T = TypeVar("T", bound="FunctionTool")


@_attrs_define
class FunctionTool:
    """
    Attributes:
        type_ (Literal['function']):  Default: 'function'.
        name (str): Function name (letters, digits, `_` and `-`).
        description (str | Unset):
        parameters (FunctionToolParameters | Unset): JSON Schema of the arguments object, in Moonshot Flavored JSON
            Schema.
        strict (bool | Unset): Whether arguments must match the schema exactly.
    """

    name: str
    type_: Literal["function"] = "function"
    description: str | Unset = UNSET
    parameters: FunctionToolParameters | Unset = UNSET
    strict: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        name = self.name

        description = self.description

        parameters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters.to_dict()

        strict = self.strict

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "name": name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if parameters is not UNSET:
            field_dict["parameters"] = parameters
        if strict is not UNSET:
            field_dict["strict"] = strict

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_tool_parameters import FunctionToolParameters

        d = dict(src_dict)
        type_ = cast(Literal["function"], d.pop("type"))
        if type_ != "function":
            raise ValueError(f"type must match const 'function', got '{type_}'")

        name = d.pop("name")

        description = d.pop("description", UNSET)

        _parameters = d.pop("parameters", UNSET)
        parameters: FunctionToolParameters | Unset
        if isinstance(_parameters, Unset):
            parameters = UNSET
        else:
            parameters = FunctionToolParameters.from_dict(_parameters)

        strict = d.pop("strict", UNSET)

        function_tool = cls(
            type_=type_,
            name=name,
            description=description,
            parameters=parameters,
            strict=strict,
        )

        function_tool.additional_properties = d
        return function_tool

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
