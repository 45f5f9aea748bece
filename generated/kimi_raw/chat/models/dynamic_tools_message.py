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
    from ..models.function_tool import FunctionTool
    from ..models.web_search_tool import WebSearchTool


T = TypeVar("T", bound="DynamicToolsMessage")


@_attrs_define
class DynamicToolsMessage:
    """A system message without content that makes tools available from this point of the
    conversation on. Keep it in place when replaying history.

        Attributes:
            role (Literal['system']):  Default: 'system'.
            tools (list[FunctionTool | WebSearchTool]):
    """

    tools: list[FunctionTool | WebSearchTool]
    role: Literal["system"] = "system"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.function_tool import FunctionTool

        role = self.role

        tools = []
        for tools_item_data in self.tools:
            tools_item: dict[str, Any]
            if isinstance(tools_item_data, FunctionTool):
                tools_item = tools_item_data.to_dict()
            else:
                tools_item = tools_item_data.to_dict()

            tools.append(tools_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "tools": tools,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_tool import FunctionTool
        from ..models.web_search_tool import WebSearchTool

        d = dict(src_dict)
        role = cast(Literal["system"], d.pop("role"))
        if role != "system":
            raise ValueError(f"role must match const 'system', got '{role}'")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:

            def _parse_tools_item(data: object) -> FunctionTool | WebSearchTool:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_chat_tool_type_0 = FunctionTool.from_dict(data)

                    return componentsschemas_chat_tool_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_chat_tool_type_1 = WebSearchTool.from_dict(data)

                return componentsschemas_chat_tool_type_1

            tools_item = _parse_tools_item(tools_item_data)

            tools.append(tools_item)

        dynamic_tools_message = cls(
            role=role,
            tools=tools,
        )

        dynamic_tools_message.additional_properties = d
        return dynamic_tools_message

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
