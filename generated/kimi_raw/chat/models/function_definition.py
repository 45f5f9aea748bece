from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.function_definition_parameters import FunctionDefinitionParameters


T = TypeVar("T", bound="FunctionDefinition")


@_attrs_define
class FunctionDefinition:
    """
    Attributes:
        name (str): Function name (letter or underscore first, then up to 127 letters, digits, `-` or `_`); must be
            unique.
        description (str | Unset): What the function does and when to call it.
        parameters (FunctionDefinitionParameters | Unset): JSON Schema of the arguments object, in Moonshot Flavored
            JSON Schema (an
            `enum` without a `type`, `type` beside `anyOf`, `items: false` ... are refused).
        strict (bool | Unset): Enforce the given JSON Schema strictly (default true).
    """

    name: str
    description: str | Unset = UNSET
    parameters: FunctionDefinitionParameters | Unset = UNSET
    strict: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
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
        from ..models.function_definition_parameters import FunctionDefinitionParameters

        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description", UNSET)

        _parameters = d.pop("parameters", UNSET)
        parameters: FunctionDefinitionParameters | Unset
        if isinstance(_parameters, Unset):
            parameters = UNSET
        else:
            parameters = FunctionDefinitionParameters.from_dict(_parameters)

        strict = d.pop("strict", UNSET)

        function_definition = cls(
            name=name,
            description=description,
            parameters=parameters,
            strict=strict,
        )

        function_definition.additional_properties = d
        return function_definition

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
