"""One ``kimi chat`` conversation (:class:`ChatSession`): sends turns, prints them, keeps
and saves the history.

stdout carries only the answer (or, with ``--json``, one JSON document per turn: the same
envelope in every format, see :func:`envelope`). When stdout is a terminal the reasoning
is shown there too, dimmed; otherwise it goes to stderr (or nowhere with
``--hide-reasoning``). The usage line always goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

# Public names only (an import-linter contract forbids kimi_ext._core in the cli).
from kimi_ext import errors, normalize_effort
from kimi_ext.cli.options import api_key_of, base_url_of
from kimi_ext.cli.output import Printer, json_line, printable, put
from kimi_ext.cli.saved import load_conversation, save_conversation
from kimi_ext.client import Kimi
from kimi_ext.formats import Format, History, Result, format_named
from kimi_ext.structured import parse_result, place_schema
from kimi_ext.usage import Usage

DEFAULT_MODEL = "kimi-k3.1-pro"
DEFAULT_MAX_TOKENS = 32_768


class Style:
    """Where reasoning goes, and how it is marked: dimmed on a terminal, between
    ``[reasoning]`` and a blank line on a stream that is not one."""

    def __init__(self, out: TextIO, tty: bool) -> None:
        self.out = out
        self.tty = tty

    def reasoning_start(self) -> str:
        """What opens a reasoning section."""
        return "\x1b[2m" if self.tty else "[reasoning]\n"

    def reasoning_end(self) -> str:
        """What closes a reasoning section."""
        return "\x1b[0m\n" if self.tty else "\n\n"


class Thinking:
    """A one-line 'still thinking' indicator on stderr while reasoning is hidden."""

    FRAMES = "|/-\\"

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.frame = 0

    def tick(self) -> None:
        """Advance the indicator (at most ten times a second)."""
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.1:
            return
        self.last = now
        self.frame = (self.frame + 1) % len(self.FRAMES)
        self.stream.write(f"\rthinking {self.FRAMES[self.frame]} {now - self.started:4.0f}s")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the indicator line, if it is shown."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def usage_line(usage: Usage) -> str:
    """The one usage line printed after every answer."""
    return (
        f"usage: input {usage.total_input} (cached {usage.cache_read}, "
        f"cache written {usage.cache_write}) · output {usage.output} "
        f"(reasoning {usage.reasoning})"
    )


# Why the answer ended, in each format's own words (--json's "stop_reason").
STOP_REASON: dict[str, Callable[[Any], str | None]] = {
    "chat": lambda r: r.finish_reason,
    "messages": lambda r: r.stop_reason,
    "responses": lambda r: r.incomplete_reason or r.status,
}


def envelope(fmt: str, result: Result) -> dict[str, Any]:
    """The document ``--json`` prints for one turn: the same keys in every format, with
    the result's JSON as received under ``"raw"``."""
    usage = result.usage
    return {
        "format": fmt,
        "model": result.model,
        "request_id": result.request_id,
        "text": result.text,
        "reasoning": result.reasoning,
        "tool_calls": [
            {"id": c.id, "name": c.name, "arguments": c.arguments, "type": c.type}
            for c in result.tool_calls
        ],
        "stop_reason": STOP_REASON[fmt](result),
        "usage": {
            "total_input": usage.total_input,
            "uncached_input": usage.uncached_input,
            "cache_read": usage.cache_read,
            "cache_write": usage.cache_write,
            "cache_write_5m": usage.cache_write_5m,
            "cache_write_1h": usage.cache_write_1h,
            "output": usage.output,
            "reasoning": usage.reasoning,
            "web_search_requests": usage.web_search_requests,
        },
        "raw": result.to_dict(),
    }


def new_history(fmt: str, system: str | None) -> History:
    """An empty history of ``fmt`` with its system prompt / instructions."""
    wire = format_named(fmt)
    # The histories name it as their format does (Chat keeps it as its first message).
    make: Callable[..., History] = wire.history_type
    return make(**{wire.system_field or "system": system})


class ChatSession:
    """One conversation: sends turns, prints them, keeps and saves the history."""

    def __init__(self, args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> None:
        self.args = args
        self.out = out
        self.err = err or sys.stderr
        self.tty = out.isatty()
        # On a terminal the reasoning shares the screen with the answer; otherwise it goes
        # to stderr, so that stdout is the answer alone (`kimi chat ... > out.json`).
        self.reasoning_out = out if self.tty else self.err
        self.style = Style(self.reasoning_out, self.reasoning_out.isatty())
        self.save_path: Path | None = Path(args.save) if args.save else None
        self.saved = False  # whether this session wrote save_path
        model, effort = args.model, args.effort
        if args.load:
            saved = load_conversation(Path(args.load))
            self.fmt, self.history = saved.fmt, saved.history
            if args.format_given and args.format != self.fmt:
                raise errors.ClientConfigError(
                    f"--load {args.load} holds a {self.fmt} conversation; drop --format {args.format}"
                )
            # The settings saved with it, unless given again on this command line.
            model = model or saved.model
            effort = effort if effort is not None else saved.effort
        else:
            self.fmt, self.history = args.format, new_history(args.format, args.system)
        self.wire: Format[Any, Any, Any] = format_named(self.fmt)
        self.model: str = model or DEFAULT_MODEL
        if effort is not None:
            # Checked now, worded for the command line: a bad --effort stops before the
            # client is even built (exit 2, as any bad flag).
            try:
                normalize_effort(effort, model=self.model)
            except errors.RequestValidationError as exc:
                raise errors.RequestValidationError("--effort", effort, exc.rule) from None
        self.effort: str | None = effort
        self.schema: Any = None
        if args.json_schema:
            try:
                self.schema = json.loads(Path(args.json_schema).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise errors.ClientConfigError(f"--json-schema {args.json_schema}: {exc}") from None
        self.client = Kimi(
            api_key=api_key_of(args),
            base_url=base_url_of(args),
            max_retries=args.max_retries,
            timeout=args.timeout,
            allow_insecure_http=args.allow_insecure_http,
        )

    def params(self) -> dict[str, Any]:
        """The request of the next turn, in this session's format."""
        a = self.args
        params: dict[str, Any] = {"model": self.model, "effort": self.effort}
        wire = self.wire
        params[wire.history_field] = self.history
        if wire.system_field:
            params[wire.system_field] = getattr(self.history, wire.system_field, None)
        limit_field = wire.output_limit_field
        # Where the limit is required (Messages), a default stands in for "not given".
        required = limit_field in wire.contract.required
        params[limit_field] = a.max_tokens or (DEFAULT_MAX_TOKENS if required else None)
        if self.schema is not None:
            params = place_schema(wire, params, self.schema)
        return params

    def resource(self) -> Any:
        """The client resource of this session's format."""
        return self.wire.resource_of(self.client)

    def turn(self, text: str, images: Sequence[str] = ()) -> Result:
        """Send one user turn and print the answer; the history keeps it only when complete."""
        before = self.history.copy()
        self.history.add_user(text, images=list(images))
        try:
            result = self._send()
        except BaseException:
            self.history = before  # an unanswered user turn is not kept
            raise
        self.history.add(result)
        if self.schema is not None:
            parse_result(result, self.schema)  # raises StructuredOutputError
        if self.args.json:
            self.out.write(json_line(envelope(self.fmt, result), self.out))
            self.out.flush()
        print(usage_line(result.usage), file=self.err)
        if self.save_path is not None:
            self.save(self.save_path)
        return result

    def save(self, path: Path) -> None:
        """Save the conversation to ``path`` now."""
        save_conversation(path, self.history, {"model": self.model, "effort": self.effort})
        self.saved = self.saved or path == self.save_path

    def interrupted_message(self) -> str:
        """What Ctrl-C during a turn leaves behind, saying only what is true."""
        path = self.save_path
        if path is None:
            return "interrupted"
        if self.saved:
            return (
                f"interrupted; {path} holds the conversation up to the last complete answer "
                "(the interrupted turn is not in it)"
            )
        if path.exists():
            return f"interrupted; {path} was not changed (no answer was complete)"
        return f"interrupted; nothing was saved to {path} (no answer was complete)"

    def _send(self) -> Result:
        resource = self.resource()
        if self.args.no_stream:
            result: Result = resource.create(**self.params())
            if self.args.json:
                return result
            if result.reasoning and not self.args.hide_reasoning:
                self.reasoning_out.write(
                    self.style.reasoning_start()
                    + printable(result.reasoning, self.reasoning_out)
                    + self.style.reasoning_end()
                )
                self.reasoning_out.flush()
            self.out.write(printable(result.text, self.out) + "\n")
            self.out.flush()
            return result
        with resource.stream(**self.params()) as stream:
            self._print_stream(stream.fragments)
            final: Result = stream.final()
            return final

    def _print_stream(self, fragments: Any) -> None:
        quiet = self.args.json  # the JSON document is printed once the result is complete
        hide = self.args.hide_reasoning or quiet
        thinking = Thinking(enabled=hide and self.err.isatty(), stream=self.err)
        in_reasoning = False
        out, rout = self.out, self.reasoning_out
        answer, reasoning = Printer(out), Printer(rout)
        try:
            for kind, text in fragments:
                if kind == "reasoning":
                    if hide:
                        thinking.tick()
                        continue
                    if not in_reasoning:
                        rout.write(self.style.reasoning_start())
                        in_reasoning = True
                    reasoning.write(text)
                else:
                    thinking.clear()
                    if in_reasoning:
                        reasoning.end()
                        put(rout, self.style.reasoning_end())
                        in_reasoning = False
                    if not quiet:
                        answer.write(text)
        finally:
            thinking.clear()
            if in_reasoning:
                reasoning.end()
                put(rout, self.style.reasoning_end())
            if not quiet:
                answer.end()
                put(out, "\n")

    def close(self) -> None:
        """Close the client."""
        self.client.close()
