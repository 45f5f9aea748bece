from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_block import ImageBlock
    from ..models.message_usage import MessageUsage
    from ..models.server_tool_use_block import ServerToolUseBlock
    from ..models.text_block import TextBlock
    from ..models.thinking_block import ThinkingBlock
    from ..models.tool_result_block import ToolResultBlock
    from ..models.tool_use_block import ToolUseBlock
    from ..models.unknown_block import UnknownBlock
    from ..models.web_search_tool_result_block import WebSearchToolResultBlock


T = TypeVar("T", bound="MessageResponse")


@_attrs_define
class MessageResponse:
    """A generated assistant message (also the `message` of message_start).

    Attributes:
        id (str):
        type_ (str): Object type; known value `message`.
        role (str): Author; known value `assistant`.
        content (list[ImageBlock | ServerToolUseBlock | TextBlock | ThinkingBlock | ToolResultBlock | ToolUseBlock |
            UnknownBlock | WebSearchToolResultBlock]): The generated blocks in order (typically thinking, then text and/or
            tool calls). Empty in message_start.
        model (str | Unset): The model that produced the message.
        stop_reason (None | str | Unset): Why generation stopped. Known values `end_turn`, `max_tokens`, `tool_use`,
            `refusal`, `stop_sequence`; null while streaming (message_start). Other values may appear and are kept.
        stop_sequence (None | str | Unset): The stop sequence that ended generation, or null.
        usage (MessageUsage | Unset): Token accounting. `input_tokens`, `cache_read_input_tokens` and
            `cache_creation_input_tokens` are disjoint: the total input is their sum. `output_tokens` includes the reasoning
            tokens.
    """

    id: str
    type_: str
    role: str
    content: list[
        ImageBlock
        | ServerToolUseBlock
        | TextBlock
        | ThinkingBlock
        | ToolResultBlock
        | ToolUseBlock
        | UnknownBlock
        | WebSearchToolResultBlock
    ]
    model: str | Unset = UNSET
    stop_reason: None | str | Unset = UNSET
    stop_sequence: None | str | Unset = UNSET
    usage: MessageUsage | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_block import ImageBlock
        from ..models.server_tool_use_block import ServerToolUseBlock
        from ..models.text_block import TextBlock
        from ..models.thinking_block import ThinkingBlock
        from ..models.tool_result_block import ToolResultBlock
        from ..models.tool_use_block import ToolUseBlock
        from ..models.web_search_tool_result_block import WebSearchToolResultBlock

        id = self.id

        type_ = self.type_

        role = self.role

        content = []
        for content_item_data in self.content:
            content_item: dict[str, Any]
            if (
                isinstance(content_item_data, TextBlock)
                or isinstance(content_item_data, ImageBlock)
                or isinstance(content_item_data, ThinkingBlock)
                or isinstance(content_item_data, ToolUseBlock)
                or isinstance(content_item_data, ToolResultBlock)
                or isinstance(content_item_data, ServerToolUseBlock)
                or isinstance(content_item_data, WebSearchToolResultBlock)
            ):
                content_item = content_item_data.to_dict()
            else:
                content_item = content_item_data.to_dict()

            content.append(content_item)

        model = self.model

        stop_reason: None | str | Unset
        if isinstance(self.stop_reason, Unset):
            stop_reason = UNSET
        else:
            stop_reason = self.stop_reason

        stop_sequence: None | str | Unset
        if isinstance(self.stop_sequence, Unset):
            stop_sequence = UNSET
        else:
            stop_sequence = self.stop_sequence

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "role": role,
                "content": content,
            }
        )
        if model is not UNSET:
            field_dict["model"] = model
        if stop_reason is not UNSET:
            field_dict["stop_reason"] = stop_reason
        if stop_sequence is not UNSET:
            field_dict["stop_sequence"] = stop_sequence
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_block import ImageBlock
        from ..models.message_usage import MessageUsage
        from ..models.server_tool_use_block import ServerToolUseBlock
        from ..models.text_block import TextBlock
        from ..models.thinking_block import ThinkingBlock
        from ..models.tool_result_block import ToolResultBlock
        from ..models.tool_use_block import ToolUseBlock
        from ..models.unknown_block import UnknownBlock
        from ..models.web_search_tool_result_block import WebSearchToolResultBlock

        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        role = d.pop("role")

        content = []
        _content = d.pop("content")
        for content_item_data in _content:

            def _parse_content_item(
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
                    componentsschemas_content_block_type_2 = ThinkingBlock.from_dict(
                        data
                    )

                    return componentsschemas_content_block_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_content_block_type_3 = ToolUseBlock.from_dict(
                        data
                    )

                    return componentsschemas_content_block_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_content_block_type_4 = ToolResultBlock.from_dict(
                        data
                    )

                    return componentsschemas_content_block_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_content_block_type_5 = (
                        ServerToolUseBlock.from_dict(data)
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

            content_item = _parse_content_item(content_item_data)

            content.append(content_item)

        model = d.pop("model", UNSET)

        def _parse_stop_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_reason = _parse_stop_reason(d.pop("stop_reason", UNSET))

        def _parse_stop_sequence(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_sequence = _parse_stop_sequence(d.pop("stop_sequence", UNSET))

        _usage = d.pop("usage", UNSET)
        usage: MessageUsage | Unset
        if isinstance(_usage, Unset):
            usage = UNSET
        else:
            usage = MessageUsage.from_dict(_usage)

        message_response = cls(
            id=id,
            type_=type_,
            role=role,
            content=content,
            model=model,
            stop_reason=stop_reason,
            stop_sequence=stop_sequence,
            usage=usage,
        )

        message_response.additional_properties = d
        return message_response

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
