"""Images (and Chat video) from a path or bytes, as each format's content block.

    from kimi_ext.images import image_block, image_part, input_image, video_part
    client.messages.create(..., messages=[{"role": "user", "content": [
        image_block("photo.png"), {"type": "text", "text": "What is this?"}]}])

The media type is detected from the bytes (then the file name). Each format accepts its own
set: Messages JPEG, PNG, GIF and WebP; Chat images also BMP, HEIC and HEIF, and video;
Responses takes images as data URLs.
"""

from __future__ import annotations

import base64
import mimetypes
from os import PathLike
from pathlib import Path
from typing import Any

from kimi_ext._core.contract import contract
from kimi_ext._core.contract.arguments import checked
from kimi_ext.errors import RequestValidationError

Source = str | bytes | PathLike[str]


_FTYP_BRANDS = {
    b"heic": "image/heic", b"heix": "image/heic", b"hevc": "image/heic",
    b"mif1": "image/heif", b"msf1": "image/heif", b"qt  ": "video/quicktime",
    b"3gp4": "video/3gpp", b"3gp5": "video/3gpp", b"3g2a": "video/3gpp",
}  # fmt: skip


def sniff_media_type(data: bytes) -> str | None:
    """The media type of ``data`` from its first bytes, or None if unknown."""
    head = data[:32]
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
        return "video/x-msvideo"
    if head[:2] == b"BM":
        return "image/bmp"
    if head[4:8] == b"ftyp":
        return _FTYP_BRANDS.get(head[8:12], "video/mp4")
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm"
    if head.startswith((b"\x00\x00\x01\xba", b"\x00\x00\x01\xb3")):
        return "video/mpeg"
    if head.startswith(b"FLV"):
        return "video/x-flv"
    if head.startswith(b"\x30\x26\xb2\x75\x8e\x66\xcf\x11"):
        return "video/x-ms-wmv"
    return None


@checked(RequestValidationError)
def load(source: Source, media_type: str | None = None) -> tuple[bytes, str]:
    """(bytes, media type) of a path or bytes."""
    name: str | None = None
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise RequestValidationError(
                "image", str(path), f"cannot be read: {exc.strerror}"
            ) from None
        except ValueError as exc:  # a name no file can have: a lone surrogate, a NUL
            raise RequestValidationError("image", source, f"is not a usable path ({exc})") from None
        name = path.name
    kind = media_type or sniff_media_type(data) or (mimetypes.guess_type(name)[0] if name else None)
    if kind is None:
        raise RequestValidationError(
            "media_type", None, "could not detect the media type; pass media_type="
        )
    return data, kind


def _checked(
    source: Source, media_type: str | None, fmt: str, component: str, field: str, where: str
) -> tuple[str, str]:
    """(base64 data, media type), refused unless the spec lets ``component.field`` carry
    that media type (its ``x-kimi-media-types``)."""
    data, kind = load(source, media_type)
    allowed = contract(fmt).media_types(component, field)
    if kind not in allowed:
        raise RequestValidationError("media_type", kind, f"{where} accepts {', '.join(allowed)}")
    return base64.b64encode(data).decode("ascii"), kind


@checked(RequestValidationError)
def image_block(source: Source, media_type: str | None = None) -> dict[str, Any]:
    """A Messages image block (base64 source) from a path or bytes."""
    data, kind = _checked(
        source, media_type, "messages", "Base64ImageSource", "media_type", "Messages images"
    )
    return {"type": "image", "source": {"type": "base64", "media_type": kind, "data": data}}


@checked(RequestValidationError)
def image_part(source: Source, media_type: str | None = None) -> dict[str, Any]:
    """A Chat ``image_url`` content part (a data URL) from a path or bytes."""
    data, kind = _checked(source, media_type, "chat", "ImageUrl", "url", "Chat images")
    return {"type": "image_url", "image_url": {"url": f"data:{kind};base64,{data}"}}


@checked(RequestValidationError)
def video_part(source: Source, media_type: str | None = None) -> dict[str, Any]:
    """A Chat ``video_url`` content part (a data URL) from a path or bytes."""
    data, kind = _checked(source, media_type, "chat", "VideoUrl", "url", "Chat video")
    return {"type": "video_url", "video_url": {"url": f"data:{kind};base64,{data}"}}


@checked(RequestValidationError)
def input_image(source: Source, media_type: str | None = None) -> dict[str, Any]:
    """A Responses ``input_image`` part (a data URL) from a path or bytes."""
    data, kind = _checked(
        source, media_type, "responses", "InputImagePart", "image_url", "Responses images"
    )
    return {"type": "input_image", "image_url": f"data:{kind};base64,{data}"}
