from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_param_role import MessageParamRole

if TYPE_CHECKING:
    from ..models.image_block import ImageBlock
    from ..models.server_tool_use_block import ServerToolUseBlock
    from ..models.text_block import TextBlock
    from ..models.thinking_block import ThinkingBlock
    from ..models.tool_result_block import ToolResultBlock
    from ..models.tool_use_block import ToolUseBlock
    from ..models.web_search_tool_result_block import WebSearchToolResultBlock


T = TypeVar("T", bound="MessageParam")


@_attrs_define
class MessageParam:
    """One turn of the conversation sent in `messages`.

    Attributes:
        role (MessageParamRole): Author of the turn; only `user` and `assistant` exist.
        content (list[ImageBlock | ServerToolUseBlock | TextBlock | ThinkingBlock | ToolResultBlock | ToolUseBlock |
            WebSearchToolResultBlock] | str): Plain text, or a list of content blocks (the same block schemas the response
            uses, so a received assistant message can be sent back as is).
    """

    role: MessageParamRole
    content: (
        list[
            ImageBlock
            | ServerToolUseBlock
            | TextBlock
            | ThinkingBlock
            | ToolResultBlock
            | ToolUseBlock
            | WebSearchToolResultBlock
        ]
        | str
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_block import ImageBlock
        from ..models.server_tool_use_block import ServerToolUseBlock
        from ..models.text_block import TextBlock
        from ..models.thinking_block import ThinkingBlock
        from ..models.tool_result_block import ToolResultBlock
        from ..models.tool_use_block import ToolUseBlock

        role = self.role.value

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item: dict[str, Any]
                if (
                    isinstance(content_type_1_item_data, TextBlock)
                    or isinstance(content_type_1_item_data, ImageBlock)
                    or isinstance(content_type_1_item_data, ThinkingBlock)
                    or isinstance(content_type_1_item_data, ToolUseBlock)
                    or isinstance(content_type_1_item_data, ToolResultBlock)
                    or isinstance(content_type_1_item_data, ServerToolUseBlock)
                ):
                    content_type_1_item = content_type_1_item_data.to_dict()
                else:
                    content_type_1_item = content_type_1_item_data.to_dict()

                content.append(content_type_1_item)

        else:
            content = self.content

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "content": content,
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
        from ..models.web_search_tool_result_block import WebSearchToolResultBlock

        d = dict(src_dict)
        role = MessageParamRole(d.pop("role"))

        def _parse_content(
            data: object,
        ) -> (
            list[
                ImageBlock
                | ServerToolUseBlock
                | TextBlock
                | ThinkingBlock
                | ToolResultBlock
                | ToolUseBlock
                | WebSearchToolResultBlock
            ]
            | str
        ):
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:

                    def _parse_content_type_1_item(
                        data: object,
                    ) -> (
                        ImageBlock
                        | ServerToolUseBlock
                        | TextBlock
                        | ThinkingBlock
                        | ToolResultBlock
                        | ToolUseBlock
                        | WebSearchToolResultBlock
                    ):
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_0 = (
                                TextBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_1 = (
                                ImageBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_2 = (
                                ThinkingBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_3 = (
                                ToolUseBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_3
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_4 = (
                                ToolResultBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_4
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_content_block_param_type_5 = (
                                ServerToolUseBlock.from_dict(data)
                            )

                            return componentsschemas_content_block_param_type_5
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_content_block_param_type_6 = (
                            WebSearchToolResultBlock.from_dict(data)
                        )

                        return componentsschemas_content_block_param_type_6

                    content_type_1_item = _parse_content_type_1_item(
                        content_type_1_item_data
                    )

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[
                    ImageBlock
                    | ServerToolUseBlock
                    | TextBlock
                    | ThinkingBlock
                    | ToolResultBlock
                    | ToolUseBlock
                    | WebSearchToolResultBlock
                ]
                | str,
                data,
            )

        content = _parse_content(d.pop("content"))

        message_param = cls(
            role=role,
            content=content,
        )

        message_param.additional_properties = d
        return message_param

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
