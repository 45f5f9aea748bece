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
    from ..models.image_block import ImageBlock
    from ..models.text_block import TextBlock


T = TypeVar("T", bound="ToolResultBlock")


@_attrs_define
class ToolResultBlock:
    """The caller's answer to a tool_use block, sent in a user turn.

    Attributes:
        type_ (Literal['tool_result']):  Default: 'tool_result'.
        tool_use_id (str): The id of the tool_use block being answered.
        content (list[ImageBlock | TextBlock] | str): The result as text, or as a list of text and image blocks.
        is_error (bool | Unset): True when the tool failed and `content` describes the failure (default false).
    """

    tool_use_id: str
    content: list[ImageBlock | TextBlock] | str
    type_: Literal["tool_result"] = "tool_result"
    is_error: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.text_block import TextBlock

        type_ = self.type_

        tool_use_id = self.tool_use_id

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item: dict[str, Any]
                if isinstance(content_type_1_item_data, TextBlock):
                    content_type_1_item = content_type_1_item_data.to_dict()
                else:
                    content_type_1_item = content_type_1_item_data.to_dict()

                content.append(content_type_1_item)

        else:
            content = self.content

        is_error = self.is_error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "tool_use_id": tool_use_id,
                "content": content,
            }
        )
        if is_error is not UNSET:
            field_dict["is_error"] = is_error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_block import ImageBlock
        from ..models.text_block import TextBlock

        d = dict(src_dict)
        type_ = cast(Literal["tool_result"], d.pop("type"))
        if type_ != "tool_result":
            raise ValueError(f"type must match const 'tool_result', got '{type_}'")

        tool_use_id = d.pop("tool_use_id")

        def _parse_content(data: object) -> list[ImageBlock | TextBlock] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:

                    def _parse_content_type_1_item(
                        data: object,
                    ) -> ImageBlock | TextBlock:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_tool_result_content_block_type_0 = (
                                TextBlock.from_dict(data)
                            )

                            return componentsschemas_tool_result_content_block_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_result_content_block_type_1 = (
                            ImageBlock.from_dict(data)
                        )

                        return componentsschemas_tool_result_content_block_type_1

                    content_type_1_item = _parse_content_type_1_item(
                        content_type_1_item_data
                    )

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageBlock | TextBlock] | str, data)

        content = _parse_content(d.pop("content"))

        is_error = d.pop("is_error", UNSET)

        tool_result_block = cls(
            type_=type_,
            tool_use_id=tool_use_id,
            content=content,
            is_error=is_error,
        )

        tool_result_block.additional_properties = d
        return tool_result_block

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
