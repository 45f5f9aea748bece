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
    from ..models.output_text_part import OutputTextPart
    from ..models.reasoning_text_part import ReasoningTextPart
    from ..models.refusal_part import RefusalPart
    from ..models.unknown_part import UnknownPart


T = TypeVar("T", bound="OutputMessage")


@_attrs_define
class OutputMessage:
    """The visible answer.

    Attributes:
        type_ (Literal['message']):  Default: 'message'.
        content (list[OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart]):
        id (str | Unset):
        role (str | Unset): Always assistant so far.
        status (str | Unset): Known values completed, incomplete, in_progress.
    """

    content: list[OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart]
    type_: Literal["message"] = "message"
    id: str | Unset = UNSET
    role: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.output_text_part import OutputTextPart
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.refusal_part import RefusalPart

        type_ = self.type_

        content = []
        for content_item_data in self.content:
            content_item: dict[str, Any]
            if (
                isinstance(content_item_data, OutputTextPart)
                or isinstance(content_item_data, RefusalPart)
                or isinstance(content_item_data, ReasoningTextPart)
            ):
                content_item = content_item_data.to_dict()
            else:
                content_item = content_item_data.to_dict()

            content.append(content_item)

        id = self.id

        role = self.role

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "content": content,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if role is not UNSET:
            field_dict["role"] = role
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.output_text_part import OutputTextPart
        from ..models.reasoning_text_part import ReasoningTextPart
        from ..models.refusal_part import RefusalPart
        from ..models.unknown_part import UnknownPart

        d = dict(src_dict)
        type_ = cast(Literal["message"], d.pop("type"))
        if type_ != "message":
            raise ValueError(f"type must match const 'message', got '{type_}'")

        content = []
        _content = d.pop("content")
        for content_item_data in _content:

            def _parse_content_item(
                data: object,
            ) -> OutputTextPart | ReasoningTextPart | RefusalPart | UnknownPart:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_content_part_type_0 = (
                        OutputTextPart.from_dict(data)
                    )

                    return componentsschemas_output_content_part_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_content_part_type_1 = (
                        RefusalPart.from_dict(data)
                    )

                    return componentsschemas_output_content_part_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_output_content_part_type_2 = (
                        ReasoningTextPart.from_dict(data)
                    )

                    return componentsschemas_output_content_part_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_content_part_type_3 = UnknownPart.from_dict(
                    data
                )

                return componentsschemas_output_content_part_type_3

            content_item = _parse_content_item(content_item_data)

            content.append(content_item)

        id = d.pop("id", UNSET)

        role = d.pop("role", UNSET)

        status = d.pop("status", UNSET)

        output_message = cls(
            type_=type_,
            content=content,
            id=id,
            role=role,
            status=status,
        )

        output_message.additional_properties = d
        return output_message

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
