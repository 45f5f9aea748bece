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
    from ..models.text_part import TextPart


T = TypeVar("T", bound="PredictionContent")


@_attrs_define
class PredictionContent:
    """Predicted output: text the answer is expected to mostly repeat (for example a file
    that receives a small edit), which speeds generation up.

        Attributes:
            type_ (Literal['content']):  Default: 'content'.
            content (list[TextPart] | str): The predicted text, as a string or as text parts.
    """

    content: list[TextPart] | str
    type_: Literal["content"] = "content"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item = content_type_1_item_data.to_dict()
                content.append(content_type_1_item)

        else:
            content = self.content

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "content": content,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.text_part import TextPart

        d = dict(src_dict)
        type_ = cast(Literal["content"], d.pop("type"))
        if type_ != "content":
            raise ValueError(f"type must match const 'content', got '{type_}'")

        def _parse_content(data: object) -> list[TextPart] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:
                    content_type_1_item = TextPart.from_dict(content_type_1_item_data)

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TextPart] | str, data)

        content = _parse_content(d.pop("content"))

        prediction_content = cls(
            type_=type_,
            content=content,
        )

        prediction_content.additional_properties = d
        return prediction_content

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
