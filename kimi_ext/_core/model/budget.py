"""The context budget: token counts before sending, and output limits that fit the window.

Kimi's gateways have no count endpoint and the tokenizer is not downloaded, so a count is
built from two sources:

* **What the service reported.** A history records, for each turn it received with
  ``add(result)``, the input tokens of the request that produced it and the turn's output
  tokens (an :class:`Anchor`). The prefix of that request is sent again unchanged, so its
  count is known exactly; only what came after needs an estimate. Finding the last anchor
  walks back from the end of the history over the turns added since, never over the whole
  history.
* **An estimate** of everything else: :class:`Estimator` measures the compact JSON of each
  message (so the format's own per-message keys are counted, as the wire carries them),
  at ``ascii_chars_per_token`` for ASCII characters and ``other_chars_per_token`` for the
  rest, and a fixed ``media_tokens`` per inline image or video (a base64 run). The scale
  of the ratio is learned from the reported usage of the same conversation: the tokens
  between consecutive anchors divided by the estimate of the messages between them (the
  last :data:`LEARN_ANCHORS` anchors, so the work is bounded).

Defaults, and why:

* 4 ASCII characters per token (English prose and code on BPE vocabularies of this size;
  the rule kimi-cli uses) and 1 token per other character (CJK text runs 1 to 1.5
  characters per token; counting 1 errs on the high side, the safe side for a window).
  Neither reference document gives a ratio; the learned scale corrects both within a
  conversation once two turns were reported.
* :data:`MEDIA_TOKENS` (1,024) per image: the documents give no per-image cost (images
  are sized by resolution); this is the order of a 1-megapixel image on vision encoders
  of this kind, and stays well away from counting the base64 text itself (which would
  count a 1 MB image as ~260,000 tokens).

``"auto"`` in the output-limit field (``max_tokens="auto"``) becomes the room left in the
window after the counted input, less :data:`ESTIMATE_MARGIN` of the estimated part (the
estimate can be short), at most the field's maximum. Below :data:`AUTO_OUTPUT_FLOOR` the
request is refused: reasoning spends from the same budget (the reference: "A small output
cap may stop before any visible answer appears"), so a smaller cap would likely buy only
reasoning.
"""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kimi_ext._core.contract import contract
from kimi_ext.errors import RequestValidationError

__all__ = [
    "AUTO_OUTPUT_FLOOR",
    "ESTIMATE_MARGIN",
    "LEARN_ANCHORS",
    "MEDIA_TOKENS",
    "Anchor",
    "CountKind",
    "Estimator",
    "Size",
    "TokenCount",
    "anchor_of",
    "count_history",
    "count_request",
    "fit_window",
]

MEDIA_TOKENS = 1024
"""The estimate for one inline image or video (a base64 run in a message)."""

AUTO_OUTPUT_FLOOR = 16_384
"""The smallest output limit ``"auto"`` sets: with less room the request is refused.

Reasoning is always on and counts against the output limit, and at effort ``max`` it can
run to thousands of tokens before the first visible word. 16,384 is 1/8 of the service's
default budget (131,072) and 1.6% of the window; the reference documents name no safe
minimum, only that a small cap may stop before any visible answer."""

ESTIMATE_MARGIN = 0.25
"""The share of the estimated tokens that ``"auto"`` keeps free, in case the estimate is
short (the reported tokens need no margin)."""

LEARN_ANCHORS = 8
"""How many of the last reported turns the ratio is learned from."""

_MIN_LEARNED = 64  # reported tokens needed before the ratio is learned
_SCALE_BOUNDS = (0.2, 5.0)  # a learned scale outside these means the anchors disagree
# Inline media: the base64 of a data URL (Chat, Responses) or of a Messages image source.
_MEDIA_RUN = re.compile(r'(?:;base64,|"media_type":"[^"]{1,100}","data":")[A-Za-z0-9+/]*={0,2}')


class CountKind(enum.Enum):
    """How a :class:`TokenCount` was made."""

    ANCHORED = "anchored"
    """The service's report of an earlier turn, plus an estimate of what came after."""
    ESTIMATED = "estimated"
    """No reported turn to start from: all of it is an estimate."""


@dataclass(frozen=True)
class TokenCount:
    """The input tokens of a request (or of a history as the next request would send it),
    counted before sending.

    ``input_tokens`` is the best estimate; ``anchored`` the part the service reported
    (exact) and ``estimated`` the part estimated on top (``input_tokens`` is their sum).
    ``lower_bound`` is what the input is sure to be at least: the reported input and output
    of the last reported turn (all of it is sent again). ``window`` is the model's context
    window (from the spec) and ``remaining`` what is left of it for output.
    """

    input_tokens: int
    kind: CountKind
    basis: str
    """A short sentence saying what the count rests on."""
    anchored: int = 0
    estimated: int = 0
    lower_bound: int = 0
    chars_per_token: float = 0.0
    """The ASCII characters per token the estimate used (learned, or the default)."""
    estimated_messages: int = 0
    """How many messages were estimated (the work a count did)."""
    window: int = 0

    @property
    def exact(self) -> bool:
        """True when every token was reported by the service and nothing estimated (a
        request always adds something after its last reported turn, so a count of one is
        exact only if it adds nothing the estimate has to cover)."""
        return self.kind is CountKind.ANCHORED and self.estimated == 0

    @property
    def remaining(self) -> int:
        """The window less ``input_tokens`` (negative when the input does not fit)."""
        return self.window - self.input_tokens

    def __int__(self) -> int:
        return self.input_tokens


@dataclass(frozen=True)
class Size:
    """What :meth:`Estimator.measure` found in a value: tokens of text at the default
    ratio, and the number of media runs (images, videos)."""

    text: float = 0.0
    media: int = 0

    def __add__(self, other: Size) -> Size:
        return Size(self.text + other.text, self.media + other.media)


@dataclass(frozen=True)
class Estimator:
    """Estimates the tokens of wire JSON without a tokenizer (see the module docstring for
    the defaults and why). Subclass it, overriding :meth:`measure`, to plug in another
    rule (a real tokenizer, say); the count learns its scale from reported usage either way.
    """

    ascii_chars_per_token: float = 4.0
    other_chars_per_token: float = 1.0
    media_tokens: int = MEDIA_TOKENS

    def measure(self, value: Any) -> Size:
        """The size of ``value`` (a message, a tool list, a system prompt) as sent."""
        text = value if isinstance(value, str) else _json(value)
        media = 0
        if (";base64," in text or '"media_type"' in text) and _MEDIA_RUN.search(text):
            text, media = _MEDIA_RUN.subn("", text)
        if text.isascii():
            ascii_chars, other = len(text), 0
        else:
            ascii_chars = len(text.encode("ascii", "ignore"))
            other = len(text) - ascii_chars
        return Size(
            ascii_chars / self.ascii_chars_per_token + other / self.other_chars_per_token,
            media,
        )

    def tokens(self, size: Size, scale: float = 1.0) -> float:
        """Tokens of ``size`` with the text scaled by ``scale`` (the learned correction)."""
        return size.text * scale + size.media * self.media_tokens


DEFAULT_ESTIMATOR = Estimator()


def _json(value: Any) -> str:
    """``value`` as the wire carries it; a value JSON cannot write (which ``create()``
    refuses, naming it) is measured by its repr, so a count never fails."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        try:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
        except (TypeError, ValueError, RecursionError):
            try:
                return repr(value)
            except RecursionError:
                return ""


@dataclass(frozen=True)
class Anchor:
    """What the service reported for a received turn: where the turn starts in the history
    (``at``: the request that produced it sent the ``at`` messages before it), the input
    tokens of that request and the turn's output tokens."""

    at: int
    input_tokens: int
    output_tokens: int


def anchor_of(usage: Any, at: int) -> Anchor | None:
    """The anchor of a turn added at ``at`` with ``usage`` (a :class:`~kimi_ext.Usage`);
    None when the result reported no input (a stream cut before its usage)."""
    total = getattr(usage, "total_input", 0)
    if not isinstance(total, int) or total <= 0:
        return None
    output = getattr(usage, "output", 0)
    return Anchor(at, total, output if isinstance(output, int) and output > 0 else 0)


def _anchors(meta: Sequence[Any], end: int | None = None) -> Iterator[tuple[Anchor, int]]:
    """(anchor, end of its turn's messages) of the anchored turns among the first ``end``
    messages, newest first, that are where they were when received (a history sliced from
    the middle has none). Walks back over the messages it passes, no further."""
    i = (len(meta) if end is None else end) - 1
    while i >= 0:
        turn = meta[i]
        if turn is None:
            i -= 1
            continue
        j = i
        while j > 0 and meta[j - 1] is turn:
            j -= 1
        anchor = getattr(turn, "anchor", None)
        if anchor is not None and anchor.at == j:
            yield anchor, i + 1
        i = j - 1


def _scale(
    items: Sequence[Any],
    meta: Sequence[Any],
    newest: Anchor,
    estimator: Estimator,
    header: Size | None,
) -> tuple[float, bool]:
    """The learned scale of the estimator's text tokens (and whether it was learned):
    reported tokens between consecutive anchors over the estimate of the messages between
    them, over the last LEARN_ANCHORS anchors. With one anchor only, its input over the
    estimate of the request before it (the ``header``: system prompt, tools)."""
    reported = 0.0
    measured = 0.0
    later = newest
    seen = 0
    for anchor, _ in _anchors(meta, newest.at):
        if seen >= LEARN_ANCHORS:
            break
        gained = later.input_tokens - anchor.input_tokens
        if gained <= 0:
            break  # the prefix was changed (compacted, edited): older anchors do not apply
        size = Size()
        for item in items[anchor.at : later.at]:
            size = size + estimator.measure(item)
        media = size.media * estimator.media_tokens
        if size.text > 0 and gained > media:
            reported += gained - media
            measured += size.text
        later = anchor
        seen += 1
    if seen == 0 and header is not None and newest.at <= 64:
        size = header
        for item in items[: newest.at]:
            size = size + estimator.measure(item)
        media = size.media * estimator.media_tokens
        if size.text > 0 and newest.input_tokens > media:
            reported, measured = newest.input_tokens - media, size.text
    if measured <= 0 or reported < _MIN_LEARNED:
        return 1.0, False  # too few reported tokens to learn from: rounding would dominate
    low, high = _SCALE_BOUNDS
    return min(high, max(low, reported / measured)), True


def count_history(
    items: Sequence[Any],
    meta: Sequence[Any],
    *,
    header: Sequence[Any] = (),
    estimator: Estimator | None = None,
    window: int,
) -> TokenCount:
    """The count of a request sending ``items`` (a history's messages, with ``meta`` its
    per-message records) and ``header`` (the other fields: system prompt, tools...)."""
    estimator = estimator or DEFAULT_ESTIMATOR
    found = next(iter(_anchors(meta)), None)
    header_size: Size | None = None
    if found is None:
        header_size = Size()
        for part in header:
            header_size = header_size + estimator.measure(part)
        size = header_size
        for item in items:
            size = size + estimator.measure(item)
        estimated = math.ceil(estimator.tokens(size))
        return TokenCount(
            input_tokens=estimated,
            kind=CountKind.ESTIMATED,
            basis=(
                f"estimated: no reported turn; {estimator.ascii_chars_per_token:g} ASCII "
                f"characters per token (the default)"
            ),
            estimated=estimated,
            chars_per_token=estimator.ascii_chars_per_token,
            estimated_messages=len(items),
            window=window,
        )
    anchor, turn_end = found
    if anchor.at <= 64:
        header_size = Size()
        for part in header:
            header_size = header_size + estimator.measure(part)
    scale, learned = _scale(items, meta, anchor, estimator, header_size)
    turn = Size()
    for item in items[anchor.at : turn_end]:
        turn = turn + estimator.measure(item)
    rest = Size()
    for item in items[turn_end:]:
        rest = rest + estimator.measure(item)
    turn_tokens = max(float(anchor.output_tokens), estimator.tokens(turn, scale))
    estimated = math.ceil(turn_tokens + estimator.tokens(rest, scale))
    ratio = estimator.ascii_chars_per_token / scale
    how = "learned from this conversation" if learned else "the default"
    return TokenCount(
        input_tokens=anchor.input_tokens + estimated,
        kind=CountKind.ANCHORED,
        basis=(
            f"the service's report for the turn at message {anchor.at} "
            f"({anchor.input_tokens:,} input + {anchor.output_tokens:,} output tokens), then "
            f"{_messages(len(items) - anchor.at)} estimated at {ratio:.2f} ASCII characters "
            f"per token ({how})"
        ),
        anchored=anchor.input_tokens,
        estimated=estimated,
        lower_bound=anchor.input_tokens + anchor.output_tokens,
        chars_per_token=ratio,
        estimated_messages=len(items) - anchor.at,
        window=window,
    )


def _messages(n: int) -> str:
    return f"{n} message" if n == 1 else f"{n} messages"


def lower_bound(meta: Sequence[Any]) -> tuple[int, Anchor | None]:
    """The tokens a request sending the history of ``meta`` is sure to have (0 with no
    reported turn), and the anchor it comes from."""
    found = next(iter(_anchors(meta)), None)
    if found is None:
        return 0, None
    anchor = found[0]
    return anchor.input_tokens + anchor.output_tokens, anchor


def _header(fmt: str, body: Mapping[str, Any], skip: Iterable[str]) -> list[Any]:
    """The fields of ``body`` other than the history and ``skip`` (settings that are not
    input: the output limits, the model, the stream flag)."""
    rules = contract(fmt)
    left_out = {rules.history_field, "model", "stream", "stream_options", *skip}
    left_out.update(rules.client_values)
    left_out.add(rules.output_limit_field)
    return [{k: v} for k, v in body.items() if k not in left_out and v is not None]


def count_request(
    fmt: str,
    body: Mapping[str, Any],
    *,
    meta: Sequence[Any] | None = None,
    estimator: Estimator | None = None,
    skip: Iterable[str] = (),
) -> TokenCount:
    """The count of a request body of format ``fmt`` whose history field holds a list of
    messages (``meta``: the history object's per-message records, when it was one) or a
    string."""
    rules = contract(fmt)
    history = body.get(rules.history_field)
    header = _header(fmt, body, skip)
    if isinstance(history, str):
        header.append(history)
        history = []
    items = list(history) if history is not None else []
    return count_history(
        items,
        meta if meta is not None else [None] * len(items),
        header=header,
        estimator=estimator,
        window=rules.context_window,
    )


def _maximum(fmt: str, name: str) -> int | None:
    """The ``maximum`` the spec gives field ``name`` (through its ``$ref``s), if any."""
    schema = contract(fmt).schema
    defs = schema["$defs"]
    request = defs[schema["$ref"].removeprefix("#/$defs/")]
    node: Any = request.get("properties", {}).get(name)
    while isinstance(node, Mapping) and "$ref" in node:
        node = defs[node["$ref"].removeprefix("#/$defs/")]
    value = node.get("maximum") if isinstance(node, Mapping) else None
    return value if isinstance(value, int) else None


def fit_window(fmt: str, body: dict[str, Any], meta: Sequence[Any] | None) -> None:
    """Refuse a request whose input is sure to exceed the context window, and replace an
    output limit of ``"auto"`` by what fits (see the module docstring). ``meta`` is the
    history object's per-message records (None for a plain list: nothing was reported, so
    nothing is sure, and a request without ``"auto"`` costs nothing here)."""
    rules = contract(fmt)
    window = rules.context_window
    auto = [
        name
        for name, values in rules.client_values.items()
        if isinstance(body.get(name), str) and body[name] in values
    ]
    field = rules.history_field
    if meta is not None:
        bound, anchor = lower_bound(meta)
        if bound > window and anchor is not None:
            raise RequestValidationError(
                field,
                f"<at least {bound:,} tokens>",
                f"the input is at least {bound:,} tokens (the service reported "
                f"{anchor.input_tokens:,} input and {anchor.output_tokens:,} output tokens for "
                f"the turn at message {anchor.at}, all sent again), over the "
                f"{window:,}-token context window; shorten the history (drop old rounds or "
                "old tool results, or start a new one from a summary) before sending",
            )
    if not auto:
        return
    count = count_request(fmt, body, meta=meta)
    room = window - count.anchored - math.ceil(count.estimated * (1 + ESTIMATE_MARGIN))
    if room < AUTO_OUTPUT_FLOOR:
        raise RequestValidationError(
            auto[0],
            "auto",
            f"the input is about {count.input_tokens:,} tokens ({count.basis}), which leaves "
            f"{max(room, 0):,} of the {window:,}-token context window for output, under the "
            f"{AUTO_OUTPUT_FLOOR:,} that 'auto' needs (reasoning spends from the same budget, "
            "so a smaller limit may end before any visible answer); shorten the history, or "
            "give a number to send anyway",
        )
    for name in auto:
        ceiling = _maximum(fmt, name)
        body[name] = room if ceiling is None else min(room, ceiling)
