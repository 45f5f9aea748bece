"""The ``kimi`` command: chat with Kimi from a terminal, or run the offline stand-in.

    kimi chat "Explain idempotency keys in one paragraph."
    kimi chat --format chat --effort low --save talk.json      # interactive, saved each turn
    kimi chat --load talk.json "And with retries?"             # resume a saved conversation
    kimi stand-in --port 8765                                  # offline server for tests

Exit codes: one per kind of mistake, whichever layer notices it (``EXIT_TABLE``, shown by
``kimi --help``; ``EXIT_CODES`` maps the error classes). Errors are one line naming CLI
flags and environment variables (``--api-key`` / ``KIMI_API_KEY``...); a bad command line
shows the usage of its (sub)command and the closest option or choice.

Output contract: stdout carries only the answer (or, with ``--json``, one JSON document
per turn: the same envelope in every format, see :func:`envelope`). When stdout is a
terminal the reasoning is shown there too, dimmed; otherwise it goes to stderr (or nowhere
with ``--hide-reasoning``). The usage line, banner and messages always go to stderr.

Saved conversations are the ``History.dumps()`` document with the CLI's settings under
``"cli"`` (see :func:`save_conversation` and :func:`load_conversation`).

Interactive sessions (no prompt, stdin a terminal) use readline for line editing and
history, and understand ``/help``, ``/exit``, ``/save``, ``/effort`` and ``/model``.
"""

# ruff: noqa: E402 - the imports follow the Ctrl-C handling, on purpose (see below)
from __future__ import annotations

import os
import signal
import sys
from typing import Any

EXIT_INTERRUPTED = 130


def _interrupted_while_starting(signum: int, frame: object) -> None:
    # Ctrl-C before the command has anything to lose (imports, argument parsing): one line
    # and 130, never a traceback. os._exit because this may run inside an import.
    os.write(2, b"\ninterrupted\n")
    os._exit(EXIT_INTERRUPTED)


def _quiet_start() -> Any:
    """Make Ctrl-C exit quietly with 130 until the command installs its own handling;
    returns the handler it replaced (None when it left SIGINT alone: ignored, as for a
    job a shell started with ``&``, or outside the main thread, where none can be set)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return None  # Python's rule too: an ignored SIGINT stays ignored
    try:
        return signal.signal(signal.SIGINT, _interrupted_while_starting)
    except ValueError:  # not the main thread: an import by some program's worker
        return None


# First thing, before the imports below: the start-up of `python -m kimi_ext.cli` and of
# the `kimi` script is covered from here on (restored at the end of this module, so that
# a program importing kimi_ext.cli keeps its own handler; main() installs it again).
_PREVIOUS_SIGINT = _quiet_start()

import argparse
import contextlib
import difflib
import json
import re
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

import httpx

# Public names only (an import-linter contract forbids kimi_ext._core here): what the
# command needs, an application can use too.
from kimi_ext import __version__, errors, normalize_effort
from kimi_ext.batch import command as batch_command
from kimi_ext.batch.lines import BatchInputError
from kimi_ext.client import Kimi
from kimi_ext.formats import FORMATS as WIRE_FORMATS
from kimi_ext.formats import Format, History, Result, format_named
from kimi_ext.keys import ENV_API_KEY, ENV_BASE_URL, is_loopback, missing_key_message, redact
from kimi_ext.structured import parse_result, place_schema
from kimi_ext.usage import Usage

FORMATS = tuple(f.name for f in WIRE_FORMATS)
DEFAULT_MODEL = "kimi-k3.1-pro"
DEFAULT_MAX_TOKENS = 32_768

EXIT_USAGE = 2  # a bad command line: argparse's own code, and that of RequestValidationError
EXIT_BATCH_INPUT = batch_command.EXIT_BAD_INPUT  # kimi batch: bad input lines, nothing sent
EXIT_SETUP = 6  # the setup cannot be used: no key, a bad address, a file that cannot be used
EXIT_STANDIN = 7  # the stand-in could not listen on its port (python -m kimi_ext.testing too)
EXIT_CASSETTES = 9  # a cassette check failed: a secret, an unused cassette or interaction

# Narrowest class first: the first match decides the exit code. One code per kind of
# mistake, whichever layer notices it: a flag or value the command refuses and a request
# those flags make invalid (RequestValidationError, e.g. `--effort extreme`) are both 2.
EXIT_CODES: tuple[tuple[type[BaseException], int], ...] = (
    (BatchInputError, EXIT_BATCH_INPUT),
    (errors.RequestValidationError, EXIT_USAGE),
    (errors.HistoryError, 4),
    (errors.StructuredOutputError, 5),
    (errors.ClientConfigError, EXIT_SETUP),
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

# The table `kimi --help` shows and the README documents: (code or range, meaning).
EXIT_TABLE: tuple[tuple[str, str], ...] = (
    ("0", "success"),
    ("1", "any other kimi_ext error"),
    (
        f"{EXIT_USAGE}",
        "bad command line: an unknown flag or command, a bad value, a request the flags "
        "make invalid (RequestValidationError, e.g. --effort extreme)",
    ),
    (
        f"{EXIT_BATCH_INPUT}",
        "kimi batch: the input has bad lines (BatchInputError: invalid, duplicate "
        "custom_id, unknown url, changed since its result was written); nothing was sent",
    ),
    ("4", "the conversation would be refused (HistoryError, e.g. an edited --load file)"),
    ("5", "the answer does not match --json-schema (StructuredOutputError)"),
    (
        f"{EXIT_SETUP}",
        "setup: no API key, an unusable address (--base-url or KIMI_BASE_URL), a file "
        "named by --load, --json-schema or --script that cannot be used (ClientConfigError)",
    ),
    (f"{EXIT_STANDIN}", "the stand-in cannot listen on its port (busy or not allowed)"),
    (
        f"{batch_command.EXIT_SOME_FAILED}",
        "kimi batch finished, but some lines failed (their output lines carry the error; "
        "--retry-failed sends them again)",
    ),
    (
        f"{EXIT_CASSETTES}",
        "a cassette check failed: kimi cassettes check found a key-like string or a cassette "
        "no test used, or kimi stand-in --strict left a recorded interaction unused",
    ),
    (
        "10-17",
        "the service refused: 10 AuthenticationError, 11 PermissionDeniedError, "
        "12 NotFoundError, 13 QuotaExceededError, 14 RateLimitError, 15 BadRequestError, "
        "16 InternalServerError, 17 any other HTTP status (APIStatusError)",
    ),
    (
        "20-23",
        "the answer did not arrive: 20 IncompleteStreamError, 21 APITimeoutError, "
        "22 APIConnectionError, 23 APIResponseError (not the service's JSON)",
    ),
    (f"{EXIT_INTERRUPTED}", "interrupted (Ctrl-C)"),
)


def exit_table() -> str:
    """The exit-code table, as ``kimi --help`` prints it."""
    lines = ["exit codes:"]
    for code, meaning in EXIT_TABLE:
        # "12 NotFoundError" stays on one line (a no-break space while wrapping).
        glued = re.sub(r"(\d+) (?=[A-Z])", "\\1\u00a0", meaning)
        first, *rest = (t.replace("\u00a0", " ") for t in textwrap.wrap(glued, width=78))
        lines.append(f"  {code:>5}  {first}")
        lines += [" " * 9 + line for line in rest]
    return "\n".join(lines)


SAVE_VERSION = 1  # the CLI settings saved beside the history (see save_conversation)


def exit_code(error: BaseException) -> int:
    """The exit code of ``error``: that of the narrowest class in ``EXIT_CODES``."""
    for cls, code in EXIT_CODES:
        if isinstance(error, cls):
            return code
    return 1


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


class Saved:
    """A conversation read by ``--load``: its format, history and the CLI settings saved
    with it (None where the file has none)."""

    def __init__(self, fmt: str, history: History, settings: dict[str, Any]) -> None:
        self.fmt = fmt
        self.history = history
        self.model: str | None = _str_or_none(settings.get("model"))
        self.effort: str | None = _str_or_none(settings.get("effort"))


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


HISTORY_CLASSES = {f.history_type.__name__: f.name for f in WIRE_FORMATS}


def load_conversation(path: Path) -> Saved:
    """The conversation in ``path``: a file written by ``--save`` or ``/save``, or by
    ``History.dumps()`` (its format is that of the saved class), or by a kimi before 0.x
    (the history as a JSON string under ``"history"``). Anything else: a
    ClientConfigError naming the file and what is wrong with it."""

    def refuse(problem: str) -> errors.ClientConfigError:
        return errors.ClientConfigError(f"--load {path}: {problem}")

    try:
        text = path.read_bytes()
    except OSError as exc:
        raise refuse(f"cannot read it ({exc.strerror or exc})") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise refuse(f"not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise refuse(f"not a saved conversation (a JSON {type(doc).__name__}, not an object)")
    settings: Any = doc.get("cli")
    if isinstance(doc.get("history"), str) and "kimi_ext" not in doc:
        # The earlier --save layout: {"version", "format", "history": "<dumps text>"}.
        settings, text = {}, doc["history"]
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise refuse(f"damaged: its 'history' is not JSON ({exc})") from None
        if not isinstance(doc, dict):
            raise refuse("damaged: its 'history' is not a saved history")
    kind = doc.get("kimi_ext")
    fmt = HISTORY_CLASSES.get(kind) if isinstance(kind, str) else None
    if fmt is None:
        known = ", ".join(HISTORY_CLASSES)
        found = f"{kind!r}" if "kimi_ext" in doc else "no 'kimi_ext' key"
        raise refuse(
            f"not a saved conversation ({found}; expected a file from kimi chat --save or "
            f"History.dumps(), whose 'kimi_ext' names one of {known})"
        )
    try:
        history = format_named(fmt).history_type.loads(text)
    except errors.HistoryError as exc:
        raise refuse(str(exc)) from None
    return Saved(fmt, history, settings if isinstance(settings, dict) else {})


def save_conversation(path: Path, history: History, settings: dict[str, Any]) -> None:
    """Write ``history`` to ``path`` (atomically): the ``History.dumps()`` document, which
    ``History.loads`` reads as it is, with the CLI's ``settings`` under ``"cli"``."""
    text = history.dumps()
    # dumps() is one JSON object: the settings go in as its first key, without parsing
    # (and writing again) the whole history on every turn.
    cli = json.dumps({"version": SAVE_VERSION, **settings}, ensure_ascii=False)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text('{"cli": ' + cli + ", " + text[1:], encoding="utf-8")
    tmp.replace(path)  # never leave a half-written file behind


def api_key_of(args: argparse.Namespace) -> str:
    """The key from ``--api-key`` or ``$KIMI_API_KEY``; a CLI-worded error without one."""
    key = args.api_key or os.environ.get(ENV_API_KEY)
    if not key:
        raise errors.ClientConfigError(
            f"{missing_key_message('--api-key')}; for the offline stand-in use the key "
            "`kimi stand-in` prints"
        )
    return key


def base_url_of(args: argparse.Namespace) -> str | None:
    """``--base-url`` or ``$KIMI_BASE_URL`` (None: the default address), checked here so the
    error names the flag or variable it came from."""
    url = args.base_url or os.environ.get(ENV_BASE_URL)
    if not url:
        return None
    source = "--base-url" if args.base_url else ENV_BASE_URL
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise errors.ClientConfigError(f"{source} {url!r}: not a URL ({exc})") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise errors.ClientConfigError(
            f"{source} {url!r}: must be an https:// address (or http:// to this machine, "
            "e.g. http://127.0.0.1:8765 for `kimi stand-in --port 8765`)"
        )
    if parsed.scheme == "http" and not args.allow_insecure_http and not is_loopback(parsed.host):
        raise errors.ClientConfigError(
            f"{source} {url!r}: plain http would send the API key unencrypted; use https, "
            "or add --allow-insecure-http if you really mean it"
        )
    return url


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
        answer, reasoning = _Printer(out), _Printer(rout)
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
                        _put(rout, self.style.reasoning_end())
                        in_reasoning = False
                    if not quiet:
                        answer.write(text)
        finally:
            thinking.clear()
            if in_reasoning:
                reasoning.end()
                _put(rout, self.style.reasoning_end())
            if not quiet:
                answer.end()
                _put(out, "\n")

    def close(self) -> None:
        """Close the client."""
        self.client.close()


PROMPT = "you> "
HELP = """commands:
  /help              this list
  /exit              leave (also: exit, quit, Ctrl-D)
  /save [FILE]       save the conversation now (to FILE, or the --save file); with FILE,
                     it is saved there after every later turn too
  /effort [LEVEL]    show or set the effort: low, high, max (aliases: medium, xhigh,
                     minimal, none)
  /model [NAME]      show or set the model (kimi-k3.1-pro, kimi-k3.1-pro-highspeed, kimi-k3)
start a message with // to send one that begins with /"""


class Repl:
    """The interactive loop: reads lines (with readline on a terminal), runs commands, sends
    the rest as turns. Without a terminal it reads lines from stdin and sends each one."""

    def __init__(self, session: ChatSession, stdin: TextIO, images: Sequence[str]) -> None:
        self.session = session
        self.stdin = stdin
        self.err = session.err
        self.interactive = stdin.isatty()
        # input() edits with readline only when both ends are this process's terminal.
        self.readline = self.interactive and stdin is sys.stdin and sys.stdout.isatty()
        if self.readline:
            import readline  # noqa: F401 - importing it gives input() editing and history
        self.images = list(images)  # attached to the first turn only

    def banner(self) -> str:
        """The one line shown when an interactive session starts."""
        s = self.session
        effort = s.effort or "max (default)"
        return (
            f"kimi {__version__} · {s.model} · {s.fmt} · effort {effort} · "
            "/help for commands, /exit or Ctrl-D to leave"
        )

    def read(self) -> str | None:
        """The next line, or None at end of input (Ctrl-D)."""
        if self.readline:
            try:
                return input(PROMPT)
            except EOFError:
                sys.stdout.write("\n")  # leave the terminal on a fresh line
                sys.stdout.flush()
                return None
        if self.interactive:
            self.err.write(PROMPT)
            self.err.flush()
        line = self.stdin.readline()
        if not line:
            if self.interactive:
                self.err.write("\n")
            return None
        return line

    def run(self) -> int:
        """Run until /exit or end of input; returns the exit code."""
        if self.interactive:
            print(self.banner(), file=self.err, flush=True)
        while True:
            try:
                line = self.read()
            except KeyboardInterrupt:  # at the prompt: drop the line, as shells do
                print("\n(/exit or Ctrl-D to leave)", file=self.err, flush=True)
                continue
            if line is None:
                return 0
            text = line.strip()
            if not text:
                continue
            if self.interactive and text in ("exit", "quit"):
                return 0
            if text.startswith("/") and not text.startswith("//"):
                if self.command(text) == "exit":
                    return 0
                continue
            if text.startswith("//"):
                text = text[1:]
            try:
                self.session.turn(text, self.images)
            except errors.KimiError as exc:
                if not self.interactive:
                    raise
                # A terminal session goes on after a failed turn (an unanswered turn is
                # not kept in the history).
                print(f"kimi: {type(exc).__name__}: {one_line(str(exc))}", file=self.err)
                continue
            self.images = []

    def command(self, text: str) -> str | None:
        """Run one /command; returns "exit" for /exit."""
        name, _, rest = text.partition(" ")
        rest = rest.strip()
        s, say = self.session, self._say
        if name in ("/exit", "/quit"):
            return "exit"
        if name == "/help":
            say(HELP)
        elif name == "/save":
            if not rest and s.save_path is None:
                say("usage: /save FILE (or start with --save FILE)")
                return None
            path = Path(rest) if rest else s.save_path
            assert path is not None
            if rest:
                s.save_path, s.saved = path, False
            try:
                s.save(path)
            except OSError as exc:
                say(f"/save {path}: {exc.strerror or exc}")
                return None
            say(f"saved to {path}")
        elif name == "/effort":
            if not rest:
                say(f"effort: {s.effort or 'max (default)'}")
                return None
            try:
                level = normalize_effort(rest, model=s.model)
            except errors.RequestValidationError as exc:
                say(f"/effort {rest}: {exc.rule}")
                return None
            s.effort = level
            say(f"effort: {level}")
        elif name == "/model":
            if rest:
                s.model = rest
            say(f"model: {s.model}")
        else:
            say(f"unknown command {name} (/help lists the commands)")
        return None

    def _say(self, text: str) -> None:
        print(text, file=self.err, flush=True)


def run_chat(
    args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO | None = None
) -> int:
    """Run ``kimi chat``: one turn with a prompt, else the interactive loop."""
    session = ChatSession(args, out, err)
    try:
        if args.prompt:
            session.turn(" ".join(args.prompt), args.image)
            return 0
        return Repl(session, stdin, args.image).run()
    except KeyboardInterrupt:
        print("\n" + session.interrupted_message(), file=session.err, flush=True)
        return EXIT_INTERRUPTED
    finally:
        session.close()


_N = TypeVar("_N", int, float)


def _number_type(
    convert: Callable[[str], _N], noun: str, ok: Callable[[_N], bool], rule: str
) -> Callable[[str], _N]:
    """An argparse type: ``convert`` the text, then refuse a value ``ok`` refuses, both
    with a message naming the text given (argparse prefixes the option's name)."""

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return value

    return parse


_positive_int = _number_type(int, "a whole number", lambda v: v > 0, "must be at least 1")
_non_negative_int = _number_type(int, "a whole number", lambda v: v >= 0, "must be 0 or more")
_seconds = _number_type(
    float,
    "a number of seconds",
    lambda v: 0 < v < float("inf"),
    "must be a number of seconds above 0",
)
_port = _number_type(
    int, "a port number", lambda v: 0 <= v <= 65535, "must be 0-65535 (0: any free port)"
)


STANDIN_HOWTO = """\
offline, with no key and no network:
  kimi stand-in --port 8765                  # in one terminal; prints its address and key
  kimi stand-in --script replies.json        # answer from a script file (rules and replies)
  kimi stand-in --record cassettes --upstream https://direct.evolink.ai   # record real answers
  kimi stand-in --replay cassettes           # answer with what was recorded
  KIMI_API_KEY=test-key kimi chat --base-url http://127.0.0.1:8765 "Hello"   # in another"""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors show the usage of the command they belong to
    (``kimi chat``'s for a ``kimi chat`` flag) and suggest the closest option or choice."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse, refusing unknown arguments here: argparse would otherwise pass a
        subcommand's up to ``kimi`` and print the top-level usage."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            hints = [hint for arg in extras if (hint := self._closest_option(arg))]
            more = f" (did you mean {', '.join(hints)}?)" if hints else ""
            self.error(f"unrecognized arguments: {' '.join(extras)}{more}")
        return parsed, extras

    def _closest_option(self, arg: str) -> str | None:
        if not arg.startswith("-"):
            return None
        name = arg.partition("=")[0]
        match = difflib.get_close_matches(name, list(self._option_string_actions), n=1)
        return match[0] if match else None

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            names = [str(c) for c in choices]
            match = difflib.get_close_matches(str(value), names, n=1)
            more = f"; did you mean {match[0]}?" if match else ""
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r} (choose from {', '.join(names)}){more}"
            )


def build_parser() -> argparse.ArgumentParser:
    """The ``kimi`` argument parser (``chat``, ``batch`` and ``stand-in``)."""
    parser = Parser(
        prog="kimi",
        description="Talk to Kimi K3.1 Pro (key from KIMI_API_KEY), or run the offline stand-in.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=STANDIN_HOWTO + "\n\n" + exit_table(),
    )
    parser.add_argument("--version", action="version", version=f"kimi {__version__} (kimi-ext)")
    sub = parser.add_subparsers(dest="command", required=True)
    chat = sub.add_parser(
        "chat",
        help="ask once (with a prompt) or talk interactively",
        description="Ask once (with a prompt) or talk interactively (without one). stdout "
        "carries only the answer; reasoning goes there too on a terminal, else to stderr.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=STANDIN_HOWTO,
    )
    chat.add_argument("prompt", nargs="*", help="the message; omit it for an interactive session")
    chat.add_argument(
        "--format", choices=FORMATS, default=None, help="wire format (default messages)"
    )
    chat.add_argument(
        "--model", default=None, help=f"the model (default {DEFAULT_MODEL}, or the --load file's)"
    )
    chat.add_argument(
        "--effort", default=None, help="low, high, max (aliases: medium, xhigh, minimal, none)"
    )
    chat.add_argument("--system", default=None, help="system prompt / instructions")
    chat.add_argument(
        "--max-tokens", type=_positive_int, default=None, help="output limit, reasoning included"
    )
    chat.add_argument(
        "--json-schema", metavar="FILE", help="structured output: the answer must match it"
    )
    chat.add_argument(
        "--json", action="store_true", help="print each whole result as one JSON document"
    )
    chat.add_argument(
        "--image", metavar="FILE", action="append", default=[], help="attach an image (repeatable)"
    )
    chat.add_argument("--no-stream", action="store_true", help="wait for the whole answer")
    chat.add_argument("--hide-reasoning", action="store_true", help="do not print the reasoning")
    chat.add_argument(
        "--api-key",
        default=None,
        help=f"the API key (default ${ENV_API_KEY}; prefer the variable: "
        "other users can see command lines)",
    )
    chat.add_argument(
        "--base-url", default=None, help=f"API address (default ${ENV_BASE_URL}, else evolink)"
    )
    chat.add_argument(
        "--allow-insecure-http",
        action="store_true",
        help="allow a plain http:// --base-url that is not this machine",
    )
    chat.add_argument("--max-retries", type=_non_negative_int, default=2)
    chat.add_argument("--timeout", type=_seconds, default=900.0, help="timeout in seconds")
    chat.add_argument("--save", metavar="FILE", help="save the conversation after every turn")
    chat.add_argument("--load", metavar="FILE", help="continue a conversation saved with --save")
    batch = sub.add_parser(
        "batch",
        help="run a batch JSONL file of requests (resumable)",
        description=batch_command.DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    batch_command.add_arguments(
        batch, positive=_positive_int, non_negative=_non_negative_int, seconds=_seconds
    )
    batch.add_argument("--api-key", default=None, help=f"the API key (default ${ENV_API_KEY})")
    batch.add_argument(
        "--base-url", default=None, help=f"API address (default ${ENV_BASE_URL}, else evolink)"
    )
    batch.add_argument(
        "--allow-insecure-http",
        action="store_true",
        help="allow a plain http:// --base-url that is not this machine",
    )
    standin = sub.add_parser(
        "stand-in",
        help="run the offline Kimi stand-in in the foreground",
        description="Run the offline Kimi stand-in on 127.0.0.1 until Ctrl-C.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=STANDIN_HOWTO,
    )
    standin.add_argument("--port", type=_port, default=0, help="port (0: any free port)")
    standin.add_argument("--api-key", default="test-key", help="the key it accepts")
    standin.add_argument(
        "--script",
        metavar="FILE",
        help="answer from a JSON script file of rules, replies and faults (see the README)",
    )
    standin.add_argument(
        "--record",
        metavar="DIR",
        help="be a recording proxy: forward to --upstream and store each exchange in DIR "
        "(a folder: one cassette per exchange; a .json file: all in it)",
    )
    standin.add_argument(
        "--upstream",
        metavar="URL",
        type=_upstream,
        help="the service to record from (https, or http on this machine)",
    )
    standin.add_argument(
        "--scrub",
        metavar="REGEX",
        action="append",
        type=_pattern,
        default=[],
        help="also keep what matches REGEX out of the recordings (repeatable)",
    )
    standin.add_argument(
        "--keep-header",
        metavar="NAME",
        action="append",
        default=[],
        help="also record this response header (a pattern such as x-kimi-*; repeatable)",
    )
    standin.add_argument(
        "--replay",
        metavar="DIR",
        help="answer with the cassettes in DIR (a folder or a .json file); with --record, "
        "record what they do not answer",
    )
    standin.add_argument(
        "--timing",
        choices=("fast", "recorded"),
        default="fast",
        help="replay as fast as possible (default) or at the recorded pace",
    )
    standin.add_argument(
        "--allow-repeats",
        action="store_true",
        help="let a recording answer again once every match was used",
    )
    standin.add_argument(
        "--strict",
        action="store_true",
        help=f"on Ctrl-C, list the interactions no request used and exit {EXIT_CASSETTES} "
        "if there are any",
    )
    cassettes = sub.add_parser(
        "cassettes",
        help="check recorded cassettes",
        description="Check recorded cassettes (see kimi stand-in --record).",
    )
    checks = cassettes.add_subparsers(dest="cassettes_command", required=True)
    check = checks.add_parser(
        "check",
        help="scan cassettes for secrets and unused cassettes (for CI)",
        description="Scan every cassette under DIR (or the cassette FILE) for key-like "
        "strings (and for pieces of the key in KIMI_API_KEY, if set, also split across a "
        "stream's frames) and, with --used, for cassettes no test used. "
        f"Exit 0 when clean, {EXIT_CASSETTES} with one line per problem.",
    )
    check.add_argument("folder", metavar="DIR|FILE", help="a cassette folder, or one cassette")
    check.add_argument(
        "--used",
        metavar="FILE",
        help="the list of used cassettes pytest --kimi-cassettes-used FILE wrote",
    )
    return parser


def _pattern(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a regular expression: {exc}") from None


def _upstream(value: str) -> str:
    from kimi_ext.testing.recorder import check_upstream

    try:
        return check_upstream(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"upstream {value!r}: ")) from None


def run_standin(args: argparse.Namespace) -> int:
    """Run ``kimi stand-in``: a one-line error (no traceback) when the port is taken."""
    from kimi_ext.testing import KimiStandIn, ScriptError, StandInError, serve
    from kimi_ext.testing.cassette import CassetteError

    if (args.record is None) != (args.upstream is None):
        print("kimi stand-in: error: --record and --upstream go together", file=sys.stderr)
        return EXIT_USAGE
    try:
        standin = KimiStandIn(args.api_key, port=args.port, script=args.script)
        if args.replay is not None:
            standin.replay(
                args.replay,
                timing=args.timing,
                allow_repeats=args.allow_repeats,
                strict=args.strict,
            )
        if args.record is not None:
            standin.record(
                args.record, args.upstream, scrubbers=args.scrub, keep_headers=args.keep_header
            )
        problems = serve(standin)
    except (ScriptError, CassetteError) as exc:
        # Read before the port is bound: a broken file serves nothing.
        print(f"kimi: stand-in: {exc}", file=sys.stderr)
        return EXIT_SETUP
    except StandInError as exc:
        print(f"kimi: stand-in: {exc}", file=sys.stderr)
        return EXIT_STANDIN
    for problem in problems:
        print(f"kimi: stand-in: {problem}", file=sys.stderr)
    return EXIT_CASSETTES if problems else 0


def run_cassettes(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``kimi cassettes check DIR|FILE [--used FILE]``: one line per problem."""
    from kimi_ext.testing.cassette import CassetteError
    from kimi_ext.testing.check import check_folder

    key = (os.environ.get("KIMI_API_KEY") or "").strip()
    try:
        problems = check_folder(args.folder, used=args.used, keys=[key] if key else [])
    except CassetteError as exc:
        print(f"kimi: cassettes: {exc}", file=sys.stderr)
        return EXIT_SETUP
    for problem in problems:
        print(redact(str(problem), key or None), file=out)
    if problems:
        print(f"kimi: cassettes: {len(problems)} problem(s)", file=sys.stderr)
        return EXIT_CASSETTES
    print(
        f"{args.folder}: no secret found" + (", every cassette used" if args.used else ""), file=out
    )
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    exit: Callable[[int], Any] = sys.exit,
) -> int:
    """Entry point of the ``kimi`` console script."""
    # Until the command runs, Ctrl-C exits quietly with 130 (the module did the same while
    # it was imported); then it raises KeyboardInterrupt, which each command turns into
    # its own message (a session says what its --save file holds).
    previous = _quiet_start()
    try:
        args = build_parser().parse_args(argv)
        if previous is not None:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        code = run_command(args, stdin or sys.stdin, out or sys.stdout)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    exit(code)
    return code


def run_command(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run the parsed command; returns its exit code (see ``EXIT_TABLE``)."""
    if args.command == "stand-in":
        return run_standin(args)
    if args.command == "cassettes":
        return run_cassettes(args, out)
    try:
        if args.command == "batch":
            return batch_command.run_command(
                args, api_key=api_key_of(args), base_url=base_url_of(args), out=out
            )
        args.format_given = args.format is not None
        args.format = args.format or "messages"
        return run_chat(args, stdin, out)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except errors.KimiError as exc:
        # The key never reaches an error's text; redacted here too, in case a key read
        # from the environment differs (say by whitespace) from the one the client holds.
        key = (os.environ.get("KIMI_API_KEY") or "").strip()
        text = one_line(redact(str(exc), key or None))
        print(f"kimi: {type(exc).__name__}: {text}", file=sys.stderr)
        return exit_code(exc)


def printable(text: str, stream: TextIO | None = None) -> str:
    """``text`` as ``stream`` (UTF-8 when None) can write it. A server may escape each half
    of a surrogate pair on its own: two halves in a row are joined into their character, a
    lone half becomes U+FFFD, the mark for a character that cannot be shown (not a
    backslash escape, which would read as text the model wrote). On a stream whose encoding
    lacks a character (``PYTHONIOENCODING=latin-1``), it becomes that codec's ``?``. Only
    what is printed changes: the history, ``--save`` and ``--json`` keep the text as
    received."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        with contextlib.suppress(LookupError):
            text = text.encode(encoding, "replace").decode(encoding)
    return text


def json_line(doc: Any, stream: TextIO | None = None) -> str:
    """``doc`` as one line of JSON that ``stream`` (UTF-8 when None) can write: where it
    cannot (a lone surrogate, a character its encoding lacks), as ASCII with ``\\u``
    escapes, so nothing received is lost."""
    text = json.dumps(doc, ensure_ascii=False)
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(doc)
    return text + "\n"


class _Printer:
    """Streamed text written as :func:`printable`: the first half of a surrogate pair that
    ends a fragment is held until the next fragment shows whether its second half follows."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.held = ""

    def write(self, text: str) -> None:
        text, self.held = self.held + text, ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self.held = text[:-1], text[-1]
        if text:
            _put(self.stream, printable(text, self.stream))

    def end(self) -> None:
        """Write what is held (a lone half: no second half came)."""
        if self.held:
            _put(self.stream, printable(self.held, self.stream))
            self.held = ""


def _put(stream: TextIO, text: str) -> None:
    # Flushed at once: the reader watches the answer arrive (and a pipe sees it in order).
    stream.write(text)
    stream.flush()


def one_line(text: str) -> str:
    """``text`` on one line, at most 300 characters."""
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
elif _PREVIOUS_SIGINT is not None:
    # Imported (by the `kimi` script, which calls main() next, or by a program): the
    # importer's handler is back; main() installs the quiet one again.
    signal.signal(signal.SIGINT, _PREVIOUS_SIGINT)
