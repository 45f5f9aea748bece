"""kimi_ext.images: media types sniffed from bytes, blocks and parts per format, and each
format's image rules."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

import kimi_ext
from kimi_ext.images import image_block, image_part, input_image, sniff_media_type, video_part

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
BMP = b"BM" + b"\x00" * 30
MP4 = b"\x00\x00\x00\x18ftypisom" + b"\x00" * 16


def test_sniffing_and_blocks(tmp_path: Path) -> None:
    assert sniff_media_type(PNG) == "image/png"
    assert sniff_media_type(JPEG) == "image/jpeg"
    assert sniff_media_type(b"GIF89a....") == "image/gif"
    assert sniff_media_type(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert sniff_media_type(MP4) == "video/mp4"
    path = tmp_path / "p.png"
    path.write_bytes(PNG)
    data = base64.b64encode(PNG).decode()
    assert image_block(path) == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": data},
    }
    assert image_part(PNG) == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{data}"},
    }
    assert input_image(str(path)) == {
        "type": "input_image",
        "image_url": f"data:image/png;base64,{data}",
    }
    assert video_part(MP4)["video_url"]["url"].startswith("data:video/mp4;base64,")
    assert image_part(BMP)["image_url"]["url"].startswith("data:image/bmp;base64,")


def test_image_rules_per_format(tmp_path: Path) -> None:
    with pytest.raises(kimi_ext.RequestValidationError, match="Messages images accept"):
        image_block(BMP)
    with pytest.raises(kimi_ext.RequestValidationError, match="Chat video"):
        video_part(PNG)
    with pytest.raises(kimi_ext.RequestValidationError, match="media type"):
        image_block(b"not an image")
    with pytest.raises(kimi_ext.RequestValidationError, match="cannot be read"):
        image_block(tmp_path / "missing.png")
