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
    from ..models.custom_tool_format import CustomToolFormat


T = TypeVar("T", bound="ApplyPatchTool")


@_attrs_define
class ApplyPatchTool:
    """The apply_patch tool, declared as a custom (free-form input) tool. The model answers it with a `custom_tool_call`
    item whose `input` is the patch text; send the result back as a `custom_tool_call_output`. Any other custom tool
    passes through the `UnknownTool` member of the union.

        Attributes:
            type_ (Literal['custom']):  Default: 'custom'.
            name (Literal['apply_patch']):  Default: 'apply_patch'.
            description (str | Unset):
            format_ (CustomToolFormat | Unset): Input format of a custom tool: {"type":"text"} for free text, or
                {"type":"grammar","syntax":"lark"|"regex","definition":"..."}.
    """

    type_: Literal["custom"] = "custom"
    name: Literal["apply_patch"] = "apply_patch"
    description: str | Unset = UNSET
    format_: CustomToolFormat | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        name = self.name

        description = self.description

        format_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.to_dict()

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
        if format_ is not UNSET:
            field_dict["format"] = format_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_tool_format import CustomToolFormat

        d = dict(src_dict)
        type_ = cast(Literal["custom"], d.pop("type"))
        if type_ != "custom":
            raise ValueError(f"type must match const 'custom', got '{type_}'")

        name = cast(Literal["apply_patch"], d.pop("name"))
        if name != "apply_patch":
            raise ValueError(f"name must match const 'apply_patch', got '{name}'")

        description = d.pop("description", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: CustomToolFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = CustomToolFormat.from_dict(_format_)

        apply_patch_tool = cls(
            type_=type_,
            name=name,
            description=description,
            format_=format_,
        )

        apply_patch_tool.additional_properties = d
        return apply_patch_tool

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
