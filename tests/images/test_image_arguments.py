"""The image and video builders refuse a source that is not a path or bytes, and a path no
file can have, with RequestValidationError (issue 30: image_block(5) raised TypeError and
image_block("\\ud800") UnicodeEncodeError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kimi_ext import ChatHistory, HistoryError, MessagesHistory, RequestValidationError
from kimi_ext.images import image_block, image_part, input_image, load, video_part

BUILDERS: list[Callable[..., Any]] = [image_block, image_part, input_image, video_part, load]


@pytest.mark.parametrize("build", BUILDERS)
@pytest.mark.parametrize("source", [5, None, 1.5, ["photo.png"], {"path": "x"}])
def test_a_source_that_is_not_a_path_or_bytes_is_refused(
    build: Callable[..., Any], source: Any
) -> None:
    with pytest.raises(
        RequestValidationError, match=r"source=.*: must be a str, bytes or a path"
    ) as info:
        build(source)
    assert info.value.field == "source"


@pytest.mark.parametrize("build", BUILDERS)
@pytest.mark.parametrize(
    ("source", "problem"),
    [("\ud800.png", "surrogates not allowed"), ("a\x00b.png", "embedded null byte")],
)
def test_a_path_no_file_can_have_is_refused(
    build: Callable[..., Any], source: str, problem: str
) -> None:
    with pytest.raises(RequestValidationError, match=f"is not a usable path .*{problem}") as info:
        build(source)
    assert info.value.field == "image"


@pytest.mark.parametrize("build", BUILDERS)
def test_a_media_type_that_is_not_a_str_is_refused(build: Callable[..., Any]) -> None:
    with pytest.raises(RequestValidationError, match=r"media_type=5: must be a str or None"):
        build(b"\x89PNG\r\n\x1a\n", 5)


def test_add_user_images_raise_kimi_errors_and_add_nothing() -> None:
    for history in (ChatHistory(), MessagesHistory()):
        with pytest.raises(RequestValidationError, match="must be a str, bytes or a path"):
            history.add_user("Look", images=[5])
        with pytest.raises(HistoryError, match="images=5: must be an iterable"):
            history.add_user("Look", images=5)
        assert len(history) == 0
