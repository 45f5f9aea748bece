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
    from ..models.function_tool import FunctionTool


T = TypeVar("T", bound="NamespaceTool")


@_attrs_define
class NamespaceTool:
    """A named group of function tools.

    Attributes:
        type_ (Literal['namespace']):  Default: 'namespace'.
        name (str): Namespace name; calls report it next to the function name.
        tools (list[FunctionTool]):
        description (str | Unset):
    """

    name: str
    tools: list[FunctionTool]
    type_: Literal["namespace"] = "namespace"
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        name = self.name

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "name": name,
                "tools": tools,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_tool import FunctionTool

        d = dict(src_dict)
        type_ = cast(Literal["namespace"], d.pop("type"))
        if type_ != "namespace":
            raise ValueError(f"type must match const 'namespace', got '{type_}'")

        name = d.pop("name")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:
            tools_item = FunctionTool.from_dict(tools_item_data)

            tools.append(tools_item)

        description = d.pop("description", UNSET)

        namespace_tool = cls(
            type_=type_,
            name=name,
            tools=tools,
            description=description,
        )

        namespace_tool.additional_properties = d
        return namespace_tool

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
