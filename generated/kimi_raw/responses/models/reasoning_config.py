from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reasoning_config_effort import ReasoningConfigEffort
from ..models.reasoning_config_summary import ReasoningConfigSummary
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReasoningConfig")


@_attrs_define
class ReasoningConfig:
    """Reasoning settings. Reasoning cannot be switched off.

    Attributes:
        effort (ReasoningConfigEffort | Unset): How much to think. low/high/max are the native levels (default max);
            medium is treated as high, xhigh as max, minimal and none as low (none does not turn reasoning off). kimi-k3
            supports max only.
        summary (ReasoningConfigSummary | Unset): Requests reasoning summaries, where the service provides them.
    """

    effort: ReasoningConfigEffort | Unset = UNSET
    summary: ReasoningConfigSummary | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        effort: str | Unset = UNSET
        if not isinstance(self.effort, Unset):
            effort = self.effort.value

        summary: str | Unset = UNSET
        if not isinstance(self.summary, Unset):
            summary = self.summary.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if effort is not UNSET:
            field_dict["effort"] = effort
        if summary is not UNSET:
            field_dict["summary"] = summary

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _effort = d.pop("effort", UNSET)
        effort: ReasoningConfigEffort | Unset
        if isinstance(_effort, Unset):
            effort = UNSET
        else:
            effort = ReasoningConfigEffort(_effort)

        _summary = d.pop("summary", UNSET)
        summary: ReasoningConfigSummary | Unset
        if isinstance(_summary, Unset):
            summary = UNSET
        else:
            summary = ReasoningConfigSummary(_summary)

        reasoning_config = cls(
            effort=effort,
            summary=summary,
        )

        reasoning_config.additional_properties = d
        return reasoning_config

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
