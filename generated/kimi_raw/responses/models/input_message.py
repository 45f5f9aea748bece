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

from ..models.input_message_role import InputMessageRole
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.input_image_part import InputImagePart
    from ..models.input_text_part import InputTextPart
    from ..models.output_text_part import OutputTextPart
    from ..models.refusal_part import RefusalPart


T = TypeVar("T", bound="InputMessage")


@_attrs_define
class InputMessage:
    """A conversation message. Replayed assistant messages may carry their output parts (output_text, refusal) and their
    id/status unchanged.

        Attributes:
            role (InputMessageRole):
            content (list[InputImagePart | InputTextPart | OutputTextPart | RefusalPart] | str):
            type_ (Literal['message'] | Unset):  Default: 'message'.
            id (str | Unset):
            status (str | Unset):
    """

    role: InputMessageRole
    content: list[InputImagePart | InputTextPart | OutputTextPart | RefusalPart] | str
    type_: Literal["message"] | Unset = "message"
    id: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.input_image_part import InputImagePart
        from ..models.input_text_part import InputTextPart
        from ..models.output_text_part import OutputTextPart

        role = self.role.value

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item: dict[str, Any]
                if (
                    isinstance(content_type_1_item_data, InputTextPart)
                    or isinstance(content_type_1_item_data, InputImagePart)
                    or isinstance(content_type_1_item_data, OutputTextPart)
                ):
                    content_type_1_item = content_type_1_item_data.to_dict()
                else:
                    content_type_1_item = content_type_1_item_data.to_dict()

                content.append(content_type_1_item)

        else:
            content = self.content

        type_ = self.type_

        id = self.id

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_
        if id is not UNSET:
            field_dict["id"] = id
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.input_image_part import InputImagePart
        from ..models.input_text_part import InputTextPart
        from ..models.output_text_part import OutputTextPart
        from ..models.refusal_part import RefusalPart

        d = dict(src_dict)
        role = InputMessageRole(d.pop("role"))

        def _parse_content(
            data: object,
        ) -> list[InputImagePart | InputTextPart | OutputTextPart | RefusalPart] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:

                    def _parse_content_type_1_item(
                        data: object,
                    ) -> InputImagePart | InputTextPart | OutputTextPart | RefusalPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_content_part_type_0 = (
                                InputTextPart.from_dict(data)
                            )

                            return componentsschemas_input_content_part_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_content_part_type_1 = (
                                InputImagePart.from_dict(data)
                            )

                            return componentsschemas_input_content_part_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_input_content_part_type_2 = (
                                OutputTextPart.from_dict(data)
                            )

                            return componentsschemas_input_content_part_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_input_content_part_type_3 = (
                            RefusalPart.from_dict(data)
                        )

                        return componentsschemas_input_content_part_type_3

                    content_type_1_item = _parse_content_type_1_item(
                        content_type_1_item_data
                    )

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[InputImagePart | InputTextPart | OutputTextPart | RefusalPart]
                | str,
                data,
            )

        content = _parse_content(d.pop("content"))

        type_ = cast(Literal["message"] | Unset, d.pop("type", UNSET))
        if type_ != "message" and not isinstance(type_, Unset):
            raise ValueError(f"type must match const 'message', got '{type_}'")

        id = d.pop("id", UNSET)

        status = d.pop("status", UNSET)

        input_message = cls(
            role=role,
            content=content,
            type_=type_,
            id=id,
            status=status,
        )

        input_message.additional_properties = d
        return input_message

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
