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
    from ..models.output_text_part_logprobs_item import OutputTextPartLogprobsItem
    from ..models.unknown_annotation import UnknownAnnotation
    from ..models.url_citation_annotation import UrlCitationAnnotation


T = TypeVar("T", bound="OutputTextPart")


@_attrs_define
class OutputTextPart:
    """
    Attributes:
        type_ (Literal['output_text']):  Default: 'output_text'.
        text (str):
        annotations (list[UnknownAnnotation | UrlCitationAnnotation] | Unset):
        logprobs (list[OutputTextPartLogprobsItem] | Unset):
    """

    text: str
    type_: Literal["output_text"] = "output_text"
    annotations: list[UnknownAnnotation | UrlCitationAnnotation] | Unset = UNSET
    logprobs: list[OutputTextPartLogprobsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.url_citation_annotation import UrlCitationAnnotation

        type_ = self.type_

        text = self.text

        annotations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.annotations, Unset):
            annotations = []
            for annotations_item_data in self.annotations:
                annotations_item: dict[str, Any]
                if isinstance(annotations_item_data, UrlCitationAnnotation):
                    annotations_item = annotations_item_data.to_dict()
                else:
                    annotations_item = annotations_item_data.to_dict()

                annotations.append(annotations_item)

        logprobs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.logprobs, Unset):
            logprobs = []
            for logprobs_item_data in self.logprobs:
                logprobs_item = logprobs_item_data.to_dict()
                logprobs.append(logprobs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )
        if annotations is not UNSET:
            field_dict["annotations"] = annotations
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.output_text_part_logprobs_item import OutputTextPartLogprobsItem
        from ..models.unknown_annotation import UnknownAnnotation
        from ..models.url_citation_annotation import UrlCitationAnnotation

        d = dict(src_dict)
        type_ = cast(Literal["output_text"], d.pop("type"))
        if type_ != "output_text":
            raise ValueError(f"type must match const 'output_text', got '{type_}'")

        text = d.pop("text")

        _annotations = d.pop("annotations", UNSET)
        annotations: list[UnknownAnnotation | UrlCitationAnnotation] | Unset = UNSET
        if _annotations is not UNSET:
            annotations = []
            for annotations_item_data in _annotations:

                def _parse_annotations_item(
                    data: object,
                ) -> UnknownAnnotation | UrlCitationAnnotation:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_annotation_type_0 = (
                            UrlCitationAnnotation.from_dict(data)
                        )

                        return componentsschemas_annotation_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_annotation_type_1 = UnknownAnnotation.from_dict(
                        data
                    )

                    return componentsschemas_annotation_type_1

                annotations_item = _parse_annotations_item(annotations_item_data)

                annotations.append(annotations_item)

        _logprobs = d.pop("logprobs", UNSET)
        logprobs: list[OutputTextPartLogprobsItem] | Unset = UNSET
        if _logprobs is not UNSET:
            logprobs = []
            for logprobs_item_data in _logprobs:
                logprobs_item = OutputTextPartLogprobsItem.from_dict(logprobs_item_data)

                logprobs.append(logprobs_item)

        output_text_part = cls(
            type_=type_,
            text=text,
            annotations=annotations,
            logprobs=logprobs,
        )

        output_text_part.additional_properties = d
        return output_text_part

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
