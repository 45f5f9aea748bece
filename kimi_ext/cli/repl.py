"""``kimi chat`` without a prompt (:class:`Repl`): on a terminal, readline for line editing
and history, and the commands ``/help``, ``/exit``, ``/save``, ``/effort`` and ``/model``;
without one, each line read from stdin is a turn."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from kimi_ext import __version__, errors, normalize_effort
from kimi_ext.cli.output import one_line
from kimi_ext.cli.session import ChatSession

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
