from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.text_format_json_schema import TextFormatJsonSchema
    from ..models.text_format_text import TextFormatText


T = TypeVar("T", bound="TextConfig")


@_attrs_define
class TextConfig:
    """Output text settings.

    Attributes:
        format_ (TextFormatJsonSchema | TextFormatText | Unset): Plain text, or JSON that follows a JSON Schema.
    """

    format_: TextFormatJsonSchema | TextFormatText | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.text_format_text import TextFormatText

        format_: dict[str, Any] | Unset
        if isinstance(self.format_, Unset):
            format_ = UNSET
        elif isinstance(self.format_, TextFormatText):
            format_ = self.format_.to_dict()
        else:
            format_ = self.format_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if format_ is not UNSET:
            field_dict["format"] = format_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.text_format_json_schema import TextFormatJsonSchema
        from ..models.text_format_text import TextFormatText

        d = dict(src_dict)

        def _parse_format_(
            data: object,
        ) -> TextFormatJsonSchema | TextFormatText | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_text_format_type_0 = TextFormatText.from_dict(data)

                return componentsschemas_text_format_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_text_format_type_1 = TextFormatJsonSchema.from_dict(data)

            return componentsschemas_text_format_type_1

        format_ = _parse_format_(d.pop("format", UNSET))

        text_config = cls(
            format_=format_,
        )

        text_config.additional_properties = d
        return text_config

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
