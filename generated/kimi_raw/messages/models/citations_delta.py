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
    from ..models.citations_delta_citation import CitationsDeltaCitation


T = TypeVar("T", bound="CitationsDelta")


@_attrs_define
class CitationsDelta:
    """A citation to append to a text block's `citations` (the Anthropic-style delta the client reads; the Kimi documents
    do not show it).

        Attributes:
            type_ (Literal['citations_delta']):  Default: 'citations_delta'.
            citation (CitationsDeltaCitation):
    """

    citation: CitationsDeltaCitation
    type_: Literal["citations_delta"] = "citations_delta"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        citation = self.citation.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "citation": citation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.citations_delta_citation import CitationsDeltaCitation

        d = dict(src_dict)
        type_ = cast(Literal["citations_delta"], d.pop("type"))
        if type_ != "citations_delta":
            raise ValueError(f"type must match const 'citations_delta', got '{type_}'")

        citation = CitationsDeltaCitation.from_dict(d.pop("citation"))

        citations_delta = cls(
            type_=type_,
            citation=citation,
        )

        citations_delta.additional_properties = d
        return citations_delta

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
