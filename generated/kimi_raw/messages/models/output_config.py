from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.output_config_effort import OutputConfigEffort
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.output_format import OutputFormat


T = TypeVar("T", bound="OutputConfig")


@_attrs_define
class OutputConfig:
    """Reasoning effort and structured output settings.

    Attributes:
        effort (OutputConfigEffort | Unset): How much the model reasons before answering. `low`, `high` and `max` are
            the native levels (default `max`); the service also takes aliases: `medium` means `high`, `xhigh` means `max`,
            `minimal` and `none` mean `low`. Reasoning cannot be turned off (`none` still reasons). More effort costs more
            output tokens and time. `kimi-k3` accepts only `max`.
        format_ (OutputFormat | Unset): Structured output: the answer is JSON that satisfies `schema` (K3.1 models
            only).
    """

    effort: OutputConfigEffort | Unset = UNSET
    format_: OutputFormat | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        effort: str | Unset = UNSET
        if not isinstance(self.effort, Unset):
            effort = self.effort.value

        format_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if effort is not UNSET:
            field_dict["effort"] = effort
        if format_ is not UNSET:
            field_dict["format"] = format_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.output_format import OutputFormat

        d = dict(src_dict)
        _effort = d.pop("effort", UNSET)
        effort: OutputConfigEffort | Unset
        if isinstance(_effort, Unset):
            effort = UNSET
        else:
            effort = OutputConfigEffort(_effort)

        _format_ = d.pop("format", UNSET)
        format_: OutputFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = OutputFormat.from_dict(_format_)

        output_config = cls(
            effort=effort,
            format_=format_,
        )

        output_config.additional_properties = d
        return output_config

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
