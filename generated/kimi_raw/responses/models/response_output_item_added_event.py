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
    from ..models.custom_tool_call_item import CustomToolCallItem
    from ..models.function_call_item import FunctionCallItem
    from ..models.output_message import OutputMessage
    from ..models.reasoning_item import ReasoningItem
    from ..models.unknown_item import UnknownItem
    from ..models.web_search_call_item import WebSearchCallItem


T = TypeVar("T", bound="ResponseOutputItemAddedEvent")


@_attrs_define
class ResponseOutputItemAddedEvent:
    """
    Attributes:
        type_ (Literal['response.output_item.added']):  Default: 'response.output_item.added'.
        item (CustomToolCallItem | FunctionCallItem | OutputMessage | ReasoningItem | UnknownItem | WebSearchCallItem):
            One item of a response's `output` list.
        sequence_number (int | Unset):
        output_index (int | Unset):
    """

    item: (
        CustomToolCallItem
        | FunctionCallItem
        | OutputMessage
        | ReasoningItem
        | UnknownItem
        | WebSearchCallItem
    )
    type_: Literal["response.output_item.added"] = "response.output_item.added"
    sequence_number: int | Unset = UNSET
    output_index: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.output_message import OutputMessage
        from ..models.reasoning_item import ReasoningItem
        from ..models.web_search_call_item import WebSearchCallItem

        type_ = self.type_

        item: dict[str, Any]
        if (
            isinstance(self.item, OutputMessage)
            or isinstance(self.item, ReasoningItem)
            or isinstance(self.item, FunctionCallItem)
            or isinstance(self.item, CustomToolCallItem)
            or isinstance(self.item, WebSearchCallItem)
        ):
            item = self.item.to_dict()
        else:
            item = self.item.to_dict()

        sequence_number = self.sequence_number

        output_index = self.output_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "item": item,
            }
        )
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if output_index is not UNSET:
            field_dict["output_index"] = output_index

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_tool_call_item import CustomToolCallItem
        from ..models.function_call_item import FunctionCallItem
        from ..models.output_message import OutputMessage
        from ..models.reasoning_item import ReasoningItem
        from ..models.unknown_item import UnknownItem
        from ..models.web_search_call_item import WebSearchCallItem

        d = dict(src_dict)
        type_ = cast(Literal["response.output_item.added"], d.pop("type"))
        if type_ != "response.output_item.added":
            raise ValueError(
                f"type must match const 'response.output_item.added', got '{type_}'"
            )

        def _parse_item(
            data: object,
        ) -> (
            CustomToolCallItem
            | FunctionCallItem
            | OutputMessage
            | ReasoningItem
            | UnknownItem
            | WebSearchCallItem
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_0 = OutputMessage.from_dict(data)

                return componentsschemas_output_item_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_1 = ReasoningItem.from_dict(data)

                return componentsschemas_output_item_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_2 = FunctionCallItem.from_dict(data)

                return componentsschemas_output_item_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_3 = CustomToolCallItem.from_dict(
                    data
                )

                return componentsschemas_output_item_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_output_item_type_4 = WebSearchCallItem.from_dict(data)

                return componentsschemas_output_item_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_output_item_type_5 = UnknownItem.from_dict(data)

            return componentsschemas_output_item_type_5

        item = _parse_item(d.pop("item"))

        sequence_number = d.pop("sequence_number", UNSET)

        output_index = d.pop("output_index", UNSET)

        response_output_item_added_event = cls(
            type_=type_,
            item=item,
            sequence_number=sequence_number,
            output_index=output_index,
        )

        response_output_item_added_event.additional_properties = d
        return response_output_item_added_event

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
