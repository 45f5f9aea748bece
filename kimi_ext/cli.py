"""The ``kimi`` command: chat with Kimi from a terminal, or run the offline stand-in.

    kimi chat "Explain idempotency keys in one paragraph."
    kimi chat --format chat --effort low --save talk.json      # interactive, saved each turn
    kimi chat --load talk.json "And with retries?"             # resume a saved conversation
    kimi stand-in --port 8765                                  # offline server for tests

Every error class has its own exit code (see ``EXIT_CODES``) and a one-line message.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import errors
from .client import Kimi
from .history import ChatHistory, History, MessagesHistory, ResponsesHistory
from .results import Result
from .structured import parse_result, place_schema
from .usage import Usage

FORMATS = ("chat", "messages", "responses")
DEFAULT_MODEL = "kimi-k3.1-pro"
DEFAULT_MAX_TOKENS = 32_768
FINAL = {
    "chat": "get_final_completion",
    "messages": "get_final_message",
    "responses": "get_final_response",
}

# Narrowest class first: the first match decides the exit code.
EXIT_CODES: tuple[tuple[type[BaseException], int], ...] = (
    (errors.RequestValidationError, 3),
    (errors.HistoryError, 4),
    (errors.StructuredOutputError, 5),
    (errors.ClientConfigError, 6),
    (errors.AuthenticationError, 10),
    (errors.PermissionDeniedError, 11),
    (errors.NotFoundError, 12),
    (errors.QuotaExceededError, 13),
    (errors.RateLimitError, 14),
    (errors.BadRequestError, 15),
    (errors.InternalServerError, 16),
    (errors.APIStatusError, 17),
    (errors.IncompleteStreamError, 20),
    (errors.APITimeoutError, 21),
    (errors.APIConnectionError, 22),
    (errors.APIResponseError, 23),
    (errors.KimiError, 1),
)
EXIT_INTERRUPTED = 130
SAVE_VERSION = 1


def exit_code(error: BaseException) -> int:
    for cls, code in EXIT_CODES:
        if isinstance(error, cls):
            return code
    return 1


class Style:
    """Terminal styling: dim reasoning on a terminal, labelled sections elsewhere."""

    def __init__(self, out: TextIO, tty: bool) -> None:
        self.out = out
        self.tty = tty

    def reasoning_start(self) -> str:
        return "\x1b[2m" if self.tty else "[reasoning]\n"

    def reasoning_end(self) -> str:
        return "\x1b[0m\n" if self.tty else "\n[answer]\n"


class Thinking:
    """A one-line 'still thinking' indicator on stderr while reasoning is hidden."""

    FRAMES = "|/-\\"

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.frame = 0

    def tick(self) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.1:
            return
        self.last = now
        self.frame = (self.frame + 1) % len(self.FRAMES)
        sys.stderr.write(f"\rthinking {self.FRAMES[self.frame]} {now - self.started:4.0f}s")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def usage_line(usage: Usage) -> str:
    """The one usage line printed after every answer."""
    return (
        f"usage: input {usage.total_input} (cached {usage.cache_read}, "
        f"cache written {usage.cache_write}) · output {usage.output} "
        f"(reasoning {usage.reasoning})"
    )


def new_history(fmt: str, system: str | None) -> History:
    if fmt == "chat":
        return ChatHistory(system=system)
    if fmt == "messages":
        return MessagesHistory(system=system)
    return ResponsesHistory(instructions=system)


def load_conversation(path: Path) -> tuple[str, History]:
    """(format, history) from a file written by ``--save``."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        fmt = saved["format"]
        loaders: dict[str, Callable[[str], History]] = {
            "chat": ChatHistory.loads,
            "messages": MessagesHistory.loads,
            "responses": ResponsesHistory.loads,
        }
        return fmt, loaders[fmt](saved["history"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise errors.ClientConfigError(f"--load {path}: not a saved conversation ({exc})") from None


def save_conversation(path: Path, fmt: str, history: History) -> None:
    data = {"version": SAVE_VERSION, "format": fmt, "history": history.dumps()}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)  # never leave a half-written file behind


class ChatSession:
    """One conversation: sends turns, prints them, keeps and saves the history."""

    def __init__(self, args: argparse.Namespace, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.tty = out.isatty()
        self.style = Style(out, self.tty)
        if args.load:
            self.fmt, self.history = load_conversation(Path(args.load))
            if args.format_given and args.format != self.fmt:
                raise errors.ClientConfigError(
                    f"--load {args.load} holds a {self.fmt} conversation; drop --format {args.format}"
                )
        else:
            self.fmt, self.history = args.format, new_history(args.format, args.system)
        self.schema: Any = None
        if args.json_schema:
            try:
                self.schema = json.loads(Path(args.json_schema).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise errors.ClientConfigError(f"--json-schema {args.json_schema}: {exc}") from None
        self.client = Kimi(
            base_url=args.base_url, max_retries=args.max_retries, timeout=args.timeout
        )

    def params(self) -> dict[str, Any]:
        a = self.args
        params: dict[str, Any] = {"model": a.model, "effort": a.effort}
        limit = a.max_tokens
        if self.fmt == "chat":
            params["messages"] = self.history
            params["max_completion_tokens"] = limit
        elif self.fmt == "messages":
            params["messages"] = self.history
            params["system"] = getattr(self.history, "system", None)
            params["max_tokens"] = limit or DEFAULT_MAX_TOKENS
        else:
            params["input"] = self.history
            params["instructions"] = getattr(self.history, "instructions", None)
            params["max_output_tokens"] = limit
        if self.schema is not None:
            params = place_schema(self.fmt, params, self.schema)
        return params

    def resource(self) -> Any:
        c = self.client
        return {"chat": c.chat.completions, "messages": c.messages, "responses": c.responses}[
            self.fmt
        ]

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
        print(usage_line(result.usage), file=sys.stderr)
        if self.args.save:
            save_conversation(Path(self.args.save), self.fmt, self.history)
        return result

    def _send(self) -> Result:
        resource = self.resource()
        if self.args.no_stream:
            result: Result = resource.create(**self.params())
            if result.reasoning and not self.args.hide_reasoning:
                self.out.write(
                    self.style.reasoning_start() + result.reasoning + self.style.reasoning_end()
                )
            self.out.write(result.text + "\n")
            self.out.flush()
            return result
        with resource.stream(**self.params()) as stream:
            self._print_stream(stream.fragments)
            final: Result = getattr(stream, FINAL[self.fmt])()
            return final

    def _print_stream(self, fragments: Any) -> None:
        hide = self.args.hide_reasoning
        thinking = Thinking(enabled=hide and sys.stderr.isatty())
        in_reasoning = False
        write, flush = self.out.write, self.out.flush
        try:
            for kind, text in fragments:
                if kind == "reasoning":
                    if hide:
                        thinking.tick()
                        continue
                    if not in_reasoning:
                        write(self.style.reasoning_start())
                        in_reasoning = True
                    write(text)
                else:
                    thinking.clear()
                    if in_reasoning:
                        write(self.style.reasoning_end())
                        in_reasoning = False
                    write(text)
                flush()
        finally:
            thinking.clear()
            if in_reasoning:
                write(self.style.reasoning_end())
            write("\n")
            flush()

    def close(self) -> None:
        self.client.close()


def run_chat(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    session = ChatSession(args, out)
    try:
        if args.prompt:
            session.turn(" ".join(args.prompt), args.image)
            return 0
        interactive = stdin.isatty()
        images = list(args.image)  # attached to the first turn only
        while True:
            if interactive:
                out.write("you> ")
                out.flush()
            line = stdin.readline()
            if not line:
                return 0
            text = line.strip()
            if not text:
                continue
            if text in ("/exit", "/quit"):
                return 0
            session.turn(text, images)
            images = []
    finally:
        session.close()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kimi",
        description="Talk to Kimi K3.1 Pro (key from KIMI_API_KEY), or run the offline stand-in.",
        epilog="exit codes: "
        + ", ".join(f"{code} {cls.__name__}" for cls, code in EXIT_CODES)
        + f", {EXIT_INTERRUPTED} interrupted",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    chat = sub.add_parser("chat", help="ask once (with a prompt) or talk interactively")
    chat.add_argument("prompt", nargs="*", help="the message; omit it for an interactive session")
    chat.add_argument(
        "--format", choices=FORMATS, default=None, help="wire format (default messages)"
    )
    chat.add_argument("--model", default=DEFAULT_MODEL)
    chat.add_argument(
        "--effort", default=None, help="low, high, max (aliases: medium, xhigh, minimal, none)"
    )
    chat.add_argument("--system", default=None, help="system prompt / instructions")
    chat.add_argument(
        "--max-tokens", type=int, default=None, help="output limit, reasoning included"
    )
    chat.add_argument(
        "--json-schema", metavar="FILE", help="structured output: the answer must match it"
    )
    chat.add_argument(
        "--image", metavar="FILE", action="append", default=[], help="attach an image (repeatable)"
    )
    chat.add_argument("--no-stream", action="store_true", help="wait for the whole answer")
    chat.add_argument("--hide-reasoning", action="store_true", help="do not print the reasoning")
    chat.add_argument("--base-url", default=None, help="API address (default from KIMI_BASE_URL)")
    chat.add_argument("--max-retries", type=int, default=2)
    chat.add_argument("--timeout", type=float, default=900.0, help="read timeout in seconds")
    chat.add_argument("--save", metavar="FILE", help="save the conversation after every turn")
    chat.add_argument("--load", metavar="FILE", help="continue a conversation saved with --save")
    standin = sub.add_parser("stand-in", help="run the offline Kimi stand-in in the foreground")
    standin.add_argument("--port", type=int, default=0, help="port (0: any free port)")
    standin.add_argument("--api-key", default="test-key", help="the key it accepts")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    exit: Callable[[int], Any] = sys.exit,
) -> int:
    """Entry point of the ``kimi`` console script."""
    args = build_parser().parse_args(argv)
    if args.command == "stand-in":
        from .testing import serve_forever

        serve_forever(port=args.port, api_key=args.api_key)
        return 0
    args.format_given = args.format is not None
    args.format = args.format or "messages"
    code = 0
    try:
        code = run_chat(args, stdin or sys.stdin, out or sys.stdout)
    except KeyboardInterrupt:
        print(
            "\ninterrupted" + (f"; conversation kept in {args.save}" if args.save else ""),
            file=sys.stderr,
        )
        code = EXIT_INTERRUPTED
    except errors.KimiError as exc:
        # The key never reaches an error's text; redacted here too, in case a key read
        # from the environment differs (say by whitespace) from the one the client holds.
        key = (os.environ.get("KIMI_API_KEY") or "").strip()
        text = one_line(errors.redact(str(exc), key or None))
        print(f"kimi: {type(exc).__name__}: {text}", file=sys.stderr)
        code = exit_code(exc)
    exit(code)
    return code


def one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
