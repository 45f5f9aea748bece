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
    from ..models.reasoning_text_part import ReasoningTextPart
    from ..models.summary_text_part import SummaryTextPart
    from ..models.unknown_part import UnknownPart


T = TypeVar("T", bound="ReasoningItem")


@_attrs_define
class ReasoningItem:
    """The model's reasoning. Replay it unchanged (with the items that follow it) in the next request; an empty text stays
    empty.

        Attributes:
            type_ (Literal['reasoning']):  Default: 'reasoning'.
            id (str | Unset):
            summary (list[SummaryTextPart | UnknownPart] | Unset):
            content (list[ReasoningTextPart | UnknownPart] | Unset):
            encrypted_content (None | str | Unset):
            status (str | Unset):
    """

    type_: Literal["reasoning"] = "reasoning"
    id: str | Unset = UNSET
    summary: list[SummaryTextPart | UnknownPart] | Unset = UNSET
    content: list[ReasoningTextPart | UnknownPart] | Unset = UNSET
    encrypted_content: None | str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.summary_text_part import SummaryTextPart

        type_ = self.type_

        id = self.id

        summary: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.summary, Unset):
            summary = []
            for summary_item_data in self.summary:
                summary_item: dict[str, Any]
                if isinstance(summary_item_data, SummaryTextPart):
                    summary_item = summary_item_data.to_dict()
                else:
                    summary_item = summary_item_data.to_dict()

                summary.append(summary_item)

        content: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.content, Unset):
            content = []
            for content_item_data in self.content:
                content_item: dict[str, Any]
                if isinstance(content_item_data, ReasoningTextPart):
                    content_item = content_item_data.to_dict()
                else:
                    content_item = content_item_data.to_dict()

                content.append(content_item)

        encrypted_content: None | str | Unset
        if isinstance(self.encrypted_content, Unset):
            encrypted_content = UNSET
        else:
            encrypted_content = self.encrypted_content

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if summary is not UNSET:
            field_dict["summary"] = summary
        if content is not UNSET:
            field_dict["content"] = content
        if encrypted_content is not UNSET:
            field_dict["encrypted_content"] = encrypted_content
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.summary_text_part import SummaryTextPart
        from ..models.unknown_part import UnknownPart

        d = dict(src_dict)
        type_ = cast(Literal["reasoning"], d.pop("type"))
        if type_ != "reasoning":
            raise ValueError(f"type must match const 'reasoning', got '{type_}'")

        id = d.pop("id", UNSET)

        _summary = d.pop("summary", UNSET)
        summary: list[SummaryTextPart | UnknownPart] | Unset = UNSET
        if _summary is not UNSET:
            summary = []
            for summary_item_data in _summary:

                def _parse_summary_item(data: object) -> SummaryTextPart | UnknownPart:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_reasoning_summary_part_type_0 = (
                            SummaryTextPart.from_dict(data)
                        )

                        return componentsschemas_reasoning_summary_part_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_reasoning_summary_part_type_1 = (
                        UnknownPart.from_dict(data)
                    )

                    return componentsschemas_reasoning_summary_part_type_1

                summary_item = _parse_summary_item(summary_item_data)

                summary.append(summary_item)

        _content = d.pop("content", UNSET)
        content: list[ReasoningTextPart | UnknownPart] | Unset = UNSET
        if _content is not UNSET:
            content = []
            for content_item_data in _content:

                def _parse_content_item(
                    data: object,
                ) -> ReasoningTextPart | UnknownPart:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_reasoning_content_part_type_0 = (
                            ReasoningTextPart.from_dict(data)
                        )

                        return componentsschemas_reasoning_content_part_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_reasoning_content_part_type_1 = (
                        UnknownPart.from_dict(data)
                    )

                    return componentsschemas_reasoning_content_part_type_1

                content_item = _parse_content_item(content_item_data)

                content.append(content_item)

        def _parse_encrypted_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        encrypted_content = _parse_encrypted_content(d.pop("encrypted_content", UNSET))

        status = d.pop("status", UNSET)

        reasoning_item = cls(
            type_=type_,
            id=id,
            summary=summary,
            content=content,
            encrypted_content=encrypted_content,
            status=status,
        )

        reasoning_item.additional_properties = d
        return reasoning_item

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
