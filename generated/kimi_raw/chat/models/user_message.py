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
    from ..models.image_url_part import ImageUrlPart
    from ..models.text_part import TextPart
    from ..models.video_url_part import VideoUrlPart


T = TypeVar("T", bound="UserMessage")


@_attrs_define
class UserMessage:
    """A user turn; text, images and videos.

    Attributes:
        role (Literal['user']):  Default: 'user'.
        content (list[ImageUrlPart | TextPart | VideoUrlPart] | str): Text, or a list of text / image / video parts.
        name (str | Unset): Optional participant name.
    """

    content: list[ImageUrlPart | TextPart | VideoUrlPart] | str
    role: Literal["user"] = "user"
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url_part import ImageUrlPart
        from ..models.text_part import TextPart

        role = self.role

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item: dict[str, Any]
                if isinstance(content_type_1_item_data, TextPart) or isinstance(
                    content_type_1_item_data, ImageUrlPart
                ):
                    content_type_1_item = content_type_1_item_data.to_dict()
                else:
                    content_type_1_item = content_type_1_item_data.to_dict()

                content.append(content_type_1_item)

        else:
            content = self.content

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_url_part import ImageUrlPart
        from ..models.text_part import TextPart
        from ..models.video_url_part import VideoUrlPart

        d = dict(src_dict)
        role = cast(Literal["user"], d.pop("role"))
        if role != "user":
            raise ValueError(f"role must match const 'user', got '{role}'")

        def _parse_content(
            data: object,
        ) -> list[ImageUrlPart | TextPart | VideoUrlPart] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:

                    def _parse_content_type_1_item(
                        data: object,
                    ) -> ImageUrlPart | TextPart | VideoUrlPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_user_content_part_type_0 = (
                                TextPart.from_dict(data)
                            )

                            return componentsschemas_user_content_part_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_user_content_part_type_1 = (
                                ImageUrlPart.from_dict(data)
                            )

                            return componentsschemas_user_content_part_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_user_content_part_type_2 = (
                            VideoUrlPart.from_dict(data)
                        )

                        return componentsschemas_user_content_part_type_2

                    content_type_1_item = _parse_content_type_1_item(
                        content_type_1_item_data
                    )

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | TextPart | VideoUrlPart] | str, data)

        content = _parse_content(d.pop("content"))

        name = d.pop("name", UNSET)

        user_message = cls(
            role=role,
            content=content,
            name=name,
        )

        user_message.additional_properties = d
        return user_message

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
