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
    from ..models.citations_delta import CitationsDelta
    from ..models.input_json_delta import InputJsonDelta
    from ..models.signature_delta import SignatureDelta
    from ..models.text_delta import TextDelta
    from ..models.thinking_delta import ThinkingDelta
    from ..models.unknown_delta import UnknownDelta


T = TypeVar("T", bound="ContentBlockDeltaEvent")


@_attrs_define
class ContentBlockDeltaEvent:
    """A piece of the content block at `index`.

    Attributes:
        type_ (Literal['content_block_delta']):  Default: 'content_block_delta'.
        index (int):
        delta (CitationsDelta | InputJsonDelta | SignatureDelta | TextDelta | ThinkingDelta | UnknownDelta): One
            increment of a content block, matched by its `type` constant.
    """

    index: int
    delta: (
        CitationsDelta
        | InputJsonDelta
        | SignatureDelta
        | TextDelta
        | ThinkingDelta
        | UnknownDelta
    )
    type_: Literal["content_block_delta"] = "content_block_delta"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.citations_delta import CitationsDelta
        from ..models.input_json_delta import InputJsonDelta
        from ..models.signature_delta import SignatureDelta
        from ..models.text_delta import TextDelta
        from ..models.thinking_delta import ThinkingDelta

        type_ = self.type_

        index = self.index

        delta: dict[str, Any]
        if (
            isinstance(self.delta, TextDelta)
            or isinstance(self.delta, ThinkingDelta)
            or isinstance(self.delta, SignatureDelta)
            or isinstance(self.delta, InputJsonDelta)
            or isinstance(self.delta, CitationsDelta)
        ):
            delta = self.delta.to_dict()
        else:
            delta = self.delta.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "index": index,
                "delta": delta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.citations_delta import CitationsDelta
        from ..models.input_json_delta import InputJsonDelta
        from ..models.signature_delta import SignatureDelta
        from ..models.text_delta import TextDelta
        from ..models.thinking_delta import ThinkingDelta
        from ..models.unknown_delta import UnknownDelta

        d = dict(src_dict)
        type_ = cast(Literal["content_block_delta"], d.pop("type"))
        if type_ != "content_block_delta":
            raise ValueError(
                f"type must match const 'content_block_delta', got '{type_}'"
            )

        index = d.pop("index")

        def _parse_delta(
            data: object,
        ) -> (
            CitationsDelta
            | InputJsonDelta
            | SignatureDelta
            | TextDelta
            | ThinkingDelta
            | UnknownDelta
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_delta_type_0 = TextDelta.from_dict(data)

                return componentsschemas_content_block_delta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_delta_type_1 = ThinkingDelta.from_dict(
                    data
                )

                return componentsschemas_content_block_delta_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_delta_type_2 = SignatureDelta.from_dict(
                    data
                )

                return componentsschemas_content_block_delta_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_delta_type_3 = InputJsonDelta.from_dict(
                    data
                )

                return componentsschemas_content_block_delta_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_content_block_delta_type_4 = CitationsDelta.from_dict(
                    data
                )

                return componentsschemas_content_block_delta_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_content_block_delta_type_5 = UnknownDelta.from_dict(data)

            return componentsschemas_content_block_delta_type_5

        delta = _parse_delta(d.pop("delta"))

        content_block_delta_event = cls(
            type_=type_,
            index=index,
            delta=delta,
        )

        content_block_delta_event.additional_properties = d
        return content_block_delta_event

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
