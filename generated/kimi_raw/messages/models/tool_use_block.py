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
    from ..models.tool_use_block_input import ToolUseBlockInput


T = TypeVar("T", bound="ToolUseBlock")


@_attrs_define
class ToolUseBlock:
    """A call of a custom tool. Answer it with a tool_result block carrying the same id, exactly as received (Kimi ids look
    like `functions.get_weather:0`).

        Attributes:
            type_ (Literal['tool_use']):  Default: 'tool_use'.
            id (str):
            name (str):
            input_ (ToolUseBlockInput): Arguments chosen by the model.
    """

    id: str
    name: str
    input_: ToolUseBlockInput
    type_: Literal["tool_use"] = "tool_use"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        id = self.id

        name = self.name

        input_ = self.input_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "id": id,
                "name": name,
                "input": input_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tool_use_block_input import ToolUseBlockInput

        d = dict(src_dict)
        type_ = cast(Literal["tool_use"], d.pop("type"))
        if type_ != "tool_use":
            raise ValueError(f"type must match const 'tool_use', got '{type_}'")

        id = d.pop("id")

        name = d.pop("name")

        input_ = ToolUseBlockInput.from_dict(d.pop("input"))

        tool_use_block = cls(
            type_=type_,
            id=id,
            name=name,
            input_=input_,
        )

        tool_use_block.additional_properties = d
        return tool_use_block

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
