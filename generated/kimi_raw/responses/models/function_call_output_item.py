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
    from ..models.input_image_part import InputImagePart
    from ..models.input_text_part import InputTextPart


T = TypeVar("T", bound="FunctionCallOutputItem")


@_attrs_define
class FunctionCallOutputItem:
    """The result of a function call, matched by `call_id`.

    Attributes:
        type_ (Literal['function_call_output']):  Default: 'function_call_output'.
        call_id (str): The `call_id` of the function_call item, exactly as received.
        output (list[InputImagePart | InputTextPart] | str):
        id (str | Unset):
        status (str | Unset):
    """

    call_id: str
    output: list[InputImagePart | InputTextPart] | str
    type_: Literal["function_call_output"] = "function_call_output"
    id: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.input_text_part import InputTextPart

        type_ = self.type_

        call_id = self.call_id

        output: list[dict[str, Any]] | str
        if isinstance(self.output, list):
            output = []
            for output_type_1_item_data in self.output:
                output_type_1_item: dict[str, Any]
                if isinstance(output_type_1_item_data, InputTextPart):
                    output_type_1_item = output_type_1_item_data.to_dict()
                else:
                    output_type_1_item = output_type_1_item_data.to_dict()

                output.append(output_type_1_item)

        else:
            output = self.output

        id = self.id

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "call_id": call_id,
                "output": output,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.input_image_part import InputImagePart
        from ..models.input_text_part import InputTextPart

        d = dict(src_dict)
        type_ = cast(Literal["function_call_output"], d.pop("type"))
        if type_ != "function_call_output":
            raise ValueError(
                f"type must match const 'function_call_output', got '{type_}'"
            )

        call_id = d.pop("call_id")

        def _parse_output(data: object) -> list[InputImagePart | InputTextPart] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                output_type_1 = []
                _output_type_1 = data
                for output_type_1_item_data in _output_type_1:

                    def _parse_output_type_1_item(
                        data: object,
                    ) -> InputImagePart | InputTextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_tool_output_part_type_0 = (
                                InputTextPart.from_dict(data)
                            )

                            return componentsschemas_tool_output_part_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_tool_output_part_type_1 = (
                            InputImagePart.from_dict(data)
                        )

                        return componentsschemas_tool_output_part_type_1

                    output_type_1_item = _parse_output_type_1_item(
                        output_type_1_item_data
                    )

                    output_type_1.append(output_type_1_item)

                return output_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[InputImagePart | InputTextPart] | str, data)

        output = _parse_output(d.pop("output"))

        id = d.pop("id", UNSET)

        status = d.pop("status", UNSET)

        function_call_output_item = cls(
            type_=type_,
            call_id=call_id,
            output=output,
            id=id,
            status=status,
        )

        function_call_output_item.additional_properties = d
        return function_call_output_item

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
