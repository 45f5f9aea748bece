from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chat_completion_chunk_delta import ChatCompletionChunkDelta
    from ..models.choice_logprobs import ChoiceLogprobs
    from ..models.completion_usage import CompletionUsage


T = TypeVar("T", bound="ChatCompletionChunkChoice")


@_attrs_define
class ChatCompletionChunkChoice:
    """
    Attributes:
        index (int):
        delta (ChatCompletionChunkDelta | Unset): The new piece of the message; every field is optional.
        finish_reason (None | str | Unset): Null until the last chunk of the choice; then as in `ChatCompletionChoice`.
        logprobs (ChoiceLogprobs | None | Unset):
        usage (CompletionUsage | None | Unset): Usage, for gateways that report it on the choice instead of the chunk.
    """

    index: int
    delta: ChatCompletionChunkDelta | Unset = UNSET
    finish_reason: None | str | Unset = UNSET
    logprobs: ChoiceLogprobs | None | Unset = UNSET
    usage: CompletionUsage | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.choice_logprobs import ChoiceLogprobs
        from ..models.completion_usage import CompletionUsage

        index = self.index

        delta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delta, Unset):
            delta = self.delta.to_dict()

        finish_reason: None | str | Unset
        if isinstance(self.finish_reason, Unset):
            finish_reason = UNSET
        else:
            finish_reason = self.finish_reason

        logprobs: dict[str, Any] | None | Unset
        if isinstance(self.logprobs, Unset):
            logprobs = UNSET
        elif isinstance(self.logprobs, ChoiceLogprobs):
            logprobs = self.logprobs.to_dict()
        else:
            logprobs = self.logprobs

        usage: dict[str, Any] | None | Unset
        if isinstance(self.usage, Unset):
            usage = UNSET
        elif isinstance(self.usage, CompletionUsage):
            usage = self.usage.to_dict()
        else:
            usage = self.usage

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
            }
        )
        if delta is not UNSET:
            field_dict["delta"] = delta
        if finish_reason is not UNSET:
            field_dict["finish_reason"] = finish_reason
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.chat_completion_chunk_delta import ChatCompletionChunkDelta
        from ..models.choice_logprobs import ChoiceLogprobs
        from ..models.completion_usage import CompletionUsage

        d = dict(src_dict)
        index = d.pop("index")

        _delta = d.pop("delta", UNSET)
        delta: ChatCompletionChunkDelta | Unset
        if isinstance(_delta, Unset):
            delta = UNSET
        else:
            delta = ChatCompletionChunkDelta.from_dict(_delta)

        def _parse_finish_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        finish_reason = _parse_finish_reason(d.pop("finish_reason", UNSET))

        def _parse_logprobs(data: object) -> ChoiceLogprobs | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                logprobs_type_0 = ChoiceLogprobs.from_dict(data)

                return logprobs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChoiceLogprobs | None | Unset, data)

        logprobs = _parse_logprobs(d.pop("logprobs", UNSET))

        def _parse_usage(data: object) -> CompletionUsage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                usage_type_0 = CompletionUsage.from_dict(data)

                return usage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompletionUsage | None | Unset, data)

        usage = _parse_usage(d.pop("usage", UNSET))

        chat_completion_chunk_choice = cls(
            index=index,
            delta=delta,
            finish_reason=finish_reason,
            logprobs=logprobs,
            usage=usage,
        )

        chat_completion_chunk_choice.additional_properties = d
        return chat_completion_chunk_choice

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
