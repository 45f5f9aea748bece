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
    from ..models.unknown_block import UnknownBlock
    from ..models.web_search_result import WebSearchResult
    from ..models.web_search_tool_result_error import WebSearchToolResultError


T = TypeVar("T", bound="WebSearchToolResultBlock")


@_attrs_define
class WebSearchToolResultBlock:
    """What a server web search returned; keep it in the history unchanged.

    Attributes:
        type_ (Literal['web_search_tool_result']):  Default: 'web_search_tool_result'.
        tool_use_id (str): The id of the server_tool_use block this answers.
        content (list[WebSearchResult] | UnknownBlock | WebSearchToolResultError): The search results, or an error
            object.
    """

    tool_use_id: str
    content: list[WebSearchResult] | UnknownBlock | WebSearchToolResultError
    type_: Literal["web_search_tool_result"] = "web_search_tool_result"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.web_search_tool_result_error import WebSearchToolResultError

        type_ = self.type_

        tool_use_id = self.tool_use_id

        content: dict[str, Any] | list[dict[str, Any]]
        if isinstance(self.content, list):
            content = []
            for content_type_0_item_data in self.content:
                content_type_0_item = content_type_0_item_data.to_dict()
                content.append(content_type_0_item)

        elif isinstance(self.content, WebSearchToolResultError):
            content = self.content.to_dict()
        else:
            content = self.content.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "tool_use_id": tool_use_id,
                "content": content,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.unknown_block import UnknownBlock
        from ..models.web_search_result import WebSearchResult
        from ..models.web_search_tool_result_error import WebSearchToolResultError

        d = dict(src_dict)
        type_ = cast(Literal["web_search_tool_result"], d.pop("type"))
        if type_ != "web_search_tool_result":
            raise ValueError(
                f"type must match const 'web_search_tool_result', got '{type_}'"
            )

        tool_use_id = d.pop("tool_use_id")

        def _parse_content(
            data: object,
        ) -> list[WebSearchResult] | UnknownBlock | WebSearchToolResultError:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_0 = []
                _content_type_0 = data
                for content_type_0_item_data in _content_type_0:
                    content_type_0_item = WebSearchResult.from_dict(
                        content_type_0_item_data
                    )

                    content_type_0.append(content_type_0_item)

                return content_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                content_type_1 = WebSearchToolResultError.from_dict(data)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            content_type_2 = UnknownBlock.from_dict(data)

            return content_type_2

        content = _parse_content(d.pop("content"))

        web_search_tool_result_block = cls(
            type_=type_,
            tool_use_id=tool_use_id,
            content=content,
        )

        web_search_tool_result_block.additional_properties = d
        return web_search_tool_result_block

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
