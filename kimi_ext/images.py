"""Images (and Chat video) from a path or bytes, as each format's content block.

::

    from kimi_ext.images import image_block, image_part, input_image, video_part

    client.messages.create(..., messages=[{"role": "user", "content": [
        image_block("photo.png"), {"type": "text", "text": "What is this?"}]}])

The media type is detected from the bytes (then the file name). Each format accepts its own
set, as its spec lists it: Messages JPEG, PNG, GIF and WebP; Chat images also BMP, HEIC and
HEIF, and video; Responses takes images as data URLs. (The builders live in the core,
:mod:`kimi_ext._core.model.media`, because the histories' ``add_user(images=...)`` use them too.)
"""

from __future__ import annotations

from kimi_ext._core.model.media import (
    Source,
    image_block,
    image_part,
    input_image,
    load,
    sniff_media_type,
    video_part,
)

__all__ = [
    "Source",
    "image_block",
    "image_part",
    "input_image",
    "load",
    "sniff_media_type",
    "video_part",
]
