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
    from ..models.image_block import ImageBlock
    from ..models.server_tool_use_block import ServerToolUseBlock
    from ..models.text_block import TextBlock
    from ..models.thinking_block import ThinkingBlock
    from ..models.tool_result_block import ToolResultBlock
    from ..models.tool_use_block import ToolUseBlock
    from ..models.unknown_block import UnknownBlock
    from ..models.web_search_tool_result_block import WebSearchToolResultBlock


T = TypeVar("T", bound="ContentBlockStartEvent")


@_attrs_define
class ContentBlockStartEvent:
    """A new content block begins at `index`.

    Attributes:
        type_ (Literal['content_block_start']):  Default: 'content_block_start'.
        index (int):
        content_block (ImageBlock | ServerToolUseBlock | TextBlock | ThinkingBlock | ToolResultBlock | ToolUseBlock |
            UnknownBlock | WebSearchToolResultBlock): A content block of a response. Members are tried in order and matched
            by their `type` constant; anything else is kept as UnknownBlock.
    """

    index: int
    content_block: (
        ImageBlock
        | ServerToolUseBlock
        | TextBlock
        | ThinkingBlock
        | ToolResultBlock
        | ToolUseBlock
        | UnknownBlock
        | WebSearchToolResultBlock
    )
    type_: Literal["content_block_start"] = "content_block_start"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_block import ImageBlock
        from ..models.server_tool_use_block import ServerToolUseBlock
        from ..models.text_block import TextBlock
        from ..models.thinking_block import ThinkingBlock
        from ..models.tool_result_block import ToolResultBlock
        from ..models.tool_use_block import ToolUseBlock
        from ..models.web_search_tool_result_block import WebSearchToolResultBlock

        type_ = self.type_

        index = self.index

        content_block: dict[str, Any]
        if (
            isinstance(self.content_block, TextBlock)
            or isinstance(self.content_block, ImageBlock)
            or isinstance(self.content_block, ThinkingBlock)
            or isinstance(self.content_block, ToolUseBlock)
            or isinstance(self.content_block, ToolResultBlock)
            or isinstance(self.content_block, ServerToolUseBlock)
            or isinstance(self.content_block, WebSearchToolResultBlock)
        ):
            content_block = self.content_block.to_dict()
        else:
            content_block = self.content_block.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "index": index,
                "content_block": content_block,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_block import ImageBlock
        from ..models.server_tool_use_block import ServerToolUseBlock
        from ..models.text_block import TextBlock
        from ..models.thinking_block import ThinkingBlock
        from ..models.tool_result_block import ToolResultBlock
        from ..models.tool_use_block import ToolUseBlock
        from ..models.unknown_block import UnknownBlock
        from ..models.web_search_tool_result_block import WebSearchToolResultBlock

        d = dict(src_dict)
        type_ = cast(Literal["content_block_start"], d.pop("type"))
        if type_ != "content_block_start":
            raise ValueError(
                f"type must match const 'content_block_start', got '{type_}'"
            )

        index = d.pop("index")

        def _parse_content_block(
            data: object,
        ) -> (
            ImageBlock
            | ServerToolUseBlock
            | TextBlock
            | ThinkingBlock
            | ToolResultBlock
            | ToolUseBlock
            | UnknownBlock
            | WebSearchToolResultBlock
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_0 = TextBlock.from_dict(data)

                return componentsschemas_content_block_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_1 = ImageBlock.from_dict(data)

                return componentsschemas_content_block_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_2 = ThinkingBlock.from_dict(data)

                return componentsschemas_content_block_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_3 = ToolUseBlock.from_dict(data)

                return componentsschemas_content_block_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_4 = ToolResultBlock.from_dict(data)

                return componentsschemas_content_block_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_5 = ServerToolUseBlock.from_dict(
                    data
                )

                return componentsschemas_content_block_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_type_6 = (
                    WebSearchToolResultBlock.from_dict(data)
                )

                return componentsschemas_content_block_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_content_block_type_7 = UnknownBlock.from_dict(data)

            return componentsschemas_content_block_type_7

        content_block = _parse_content_block(d.pop("content_block"))

        content_block_start_event = cls(
            type_=type_,
            index=index,
            content_block=content_block,
        )

        content_block_start_event.additional_properties = d
        return content_block_start_event

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
