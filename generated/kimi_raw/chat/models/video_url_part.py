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
    from ..models.video_url import VideoUrl


T = TypeVar("T", bound="VideoUrlPart")


@_attrs_define
class VideoUrlPart:
    """A video as a base64 `data:` URL or an accepted `ms://` file reference. MP4, MPEG, MOV,
    AVI, FLV, MPG, WebM, WMV and 3GPP. The whole request body is limited to 100 MB.

        Attributes:
            type_ (Literal['video_url']):  Default: 'video_url'.
            video_url (VideoUrl):
    """

    video_url: VideoUrl
    type_: Literal["video_url"] = "video_url"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        video_url = self.video_url.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "video_url": video_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.video_url import VideoUrl

        d = dict(src_dict)
        type_ = cast(Literal["video_url"], d.pop("type"))
        if type_ != "video_url":
            raise ValueError(f"type must match const 'video_url', got '{type_}'")

        video_url = VideoUrl.from_dict(d.pop("video_url"))

        video_url_part = cls(
            type_=type_,
            video_url=video_url,
        )

        video_url_part.additional_properties = d
        return video_url_part

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
