"""``make demo``: a short scripted session through all three formats, offline by default.

It starts the stand-in (:mod:`kimi_ext.testing`), scripts what the "model" says, and then
uses the library exactly as an application would: a streamed answer with reasoning, a
two-round tool loop, a validated structured answer, a second turn that hits the prompt
cache, and a stream cut by the network and resumed. ``--live`` (with ``KIMI_API_KEY`` set)
runs the same session against the real service; the model then speaks for itself and the
network cut is simulated by closing the stream early.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kimi_ext._core.model.result import Result
from kimi_ext.client import Kimi
from kimi_ext.continuation import resume
from kimi_ext.errors import IncompleteStreamError, KimiError
from kimi_ext.messages import MessagesHistory
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from kimi_ext.usage import Usage

if TYPE_CHECKING:
    from kimi_ext.chat.params import ChatMessageParam

MODEL = "kimi-k3.1-pro"
SYSTEM = (
    "You are a concise travel assistant. Answer in two sentences at most. "
    "Prefer metric units, name your sources, and never invent prices. " * 4
)


@dataclass
class CityFacts:
    """Facts about a city."""

    city: str
    country: str
    population_millions: float


def get_weather(city: str) -> dict[str, Any]:
    """Current weather in a city.

    Args:
        city: the city name, e.g. Paris.
    """
    return {"city": city, "celsius": 18, "sky": "light rain"}


def to_fahrenheit(celsius: float) -> float:
    """Convert Celsius to Fahrenheit.

    Args:
        celsius: the temperature in degrees Celsius.
    """
    return round(celsius * 9 / 5 + 32, 1)


# What the stand-in's "model" says in steps 1 to 4 (offline only; live, the model speaks).
KYOTO = Reply(
    text="Kyoto in early April: cherry blossoms peak, mild days around 15 °C.",
    reasoning="The user asks about spring in Kyoto; blossom season is early April.",
)
WEATHER_ROUNDS = (
    Reply(
        reasoning="I need the weather first.",
        tool_calls=[ToolCallSpec("get_weather", {"city": "Paris"})],
    ),
    Reply(
        reasoning="Now convert 18 °C.",
        tool_calls=[ToolCallSpec("to_fahrenheit", {"celsius": 18})],
    ),
    Reply(text="Paris: light rain, 18 °C (64.4 °F). Take an umbrella."),
)
LYON = Reply.structured({"city": "Lyon", "country": "France", "population_millions": 0.52})
LISBON_TURNS = (
    Reply(text="Lisbon: trams, tiles and the Tagus."),
    Reply(text="Try pastéis de nata in Belém."),
)


class Printer:
    """What a user sees: headings, dimmed reasoning, answers and usage lines."""

    def __init__(self) -> None:
        self.tty = sys.stdout.isatty()

    def heading(self, text: str) -> None:
        print(f"\n== {text}")

    def reasoning(self, text: str) -> None:
        print(f"\x1b[2m{text}\x1b[0m" if self.tty else f"  (thinking) {text}")

    def line(self, text: str) -> None:
        print(f"  {text}")

    def usage(self, usage: Usage) -> None:
        print(
            f"  usage: input {usage.total_input} (cached {usage.cache_read}, cache written "
            f"{usage.cache_write}) · output {usage.output} (reasoning {usage.reasoning})"
        )


def streamed_answer(client: Kimi, out: Printer, standin: KimiStandIn | None) -> None:
    out.heading("1. Messages: a streamed answer with reasoning")
    if standin:
        standin.queue(KYOTO)
    with client.messages.stream(
        model=MODEL,
        max_tokens=2048,
        effort="medium",  # an alias: sent as "high"
        messages=[{"role": "user", "content": "When is Kyoto at its best in spring?"}],
    ) as stream:
        reasoning: list[str] = []
        text: list[str] = []
        for kind, fragment in stream.fragments:
            (reasoning if kind == "reasoning" else text).append(fragment)
        message = stream.final()
    out.reasoning("".join(reasoning))
    out.line("".join(text))
    out.line(
        f"stop_reason={message.stop_reason}; thinking signed: {bool(message.content[0].get('signature'))}"
    )
    out.usage(message.usage)


def tool_loop(client: Kimi, out: Printer, standin: KimiStandIn | None) -> None:
    out.heading("2. Chat: a two-round tool loop with run_tools")
    if standin:
        standin.queue(*WEATHER_ROUNDS)
    run = client.chat.completions.run_tools(
        model=MODEL,
        effort="low",
        tools=[get_weather, to_fahrenheit],
        messages=[{"role": "user", "content": "Weather in Paris, in Fahrenheit too?"}],
    )
    for result in run.results[:-1]:
        for call in result.tool_calls:
            out.line(f"tool call {call.id}: {call.name}({call.arguments})")
    out.line(run.final.text)
    out.line(
        f"rounds={run.rounds}; history keeps {len(run.history)} messages with reasoning intact"
    )
    out.usage(run.final.usage)


def structured(client: Kimi, out: Printer, standin: KimiStandIn | None) -> None:
    out.heading("3. Responses: structured output, validated against its schema")
    if standin:
        standin.queue(LYON)
    answer = client.responses.parse(
        schema=CityFacts,
        model=MODEL,
        input="Give me facts about Lyon as JSON.",
        max_output_tokens=1024,
    )
    out.line(repr(answer.value))
    out.usage(answer.result.usage)


def cache_hit(client: Kimi, out: Printer, standin: KimiStandIn | None) -> None:
    out.heading("4. Messages: the second turn reads the prompt cache")
    if standin:
        standin.queue(*LISBON_TURNS)
    history = MessagesHistory(system=SYSTEM)
    for question in ("One line about Lisbon?", "And what should I eat there?"):
        history.add_user(question)
        message = client.messages.create(
            model=MODEL, max_tokens=1024, system=history.system, messages=history,
            cache_control={"type": "ephemeral", "ttl": "1h"},
        )  # fmt: skip
        history.add(message)
        out.line(f"you: {question}")
        out.line(f"kimi: {message.text}")
        out.usage(message.usage)


def resumed_stream(client: Kimi, out: Printer, standin: KimiStandIn | None) -> None:
    out.heading("5. Chat: a stream cut by the network, then resumed")
    story = (
        "Day one: walk the Alfama at dawn, then ride tram 28 to Estrela. "
        "Day two: take the train to Sintra for Pena Palace and the Moorish Castle."
    )
    if standin:
        standin.queue(Reply(text=story, reasoning="Plan two days."))
        standin.fault(Fault.cut_stream(after=6))
    messages: list[ChatMessageParam] = [
        {"role": "user", "content": "A two-day Lisbon plan, briefly."}
    ]
    try:
        with client.chat.completions.stream(model=MODEL, messages=messages) as stream:
            for index, _ in enumerate(stream):
                if standin is None and index == 40:
                    stream.close()  # live: simulate the cut
        return out.line("(the stream was not cut)")
    except IncompleteStreamError as error:
        partial: Result = error.partial
        out.line(f"cut: {error}")
        out.line(f"kept {len(partial.text)} characters: {partial.text!r}")
        if standin:  # the model goes on from where the network cut it
            standin.queue(Reply(text=story[len(partial.text) :]))
        resumed = resume(client, error, messages=messages)
        out.line(f"resumed: {resumed.text}")
        out.usage(resumed.usage)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kimi_ext.demo", description=__doc__)
    parser.add_argument(
        "--live", action="store_true", help="use the real service (needs KIMI_API_KEY)"
    )
    args = parser.parse_args(argv)
    out = Printer()
    standin: KimiStandIn | None = None
    if args.live:
        if not os.environ.get("KIMI_API_KEY"):
            print("LIVE=1 needs KIMI_API_KEY in the environment", file=sys.stderr)
            return 2
        client = Kimi()
        print(f"kimi-ext demo against {client.base_url}")
    else:
        standin = KimiStandIn().start()
        client = Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None)
        print(
            f"kimi-ext demo against the offline stand-in at {standin.base_url} (no key, no network)"
        )
    try:
        for step in (streamed_answer, tool_loop, structured, cache_hit, resumed_stream):
            step(client, out, standin)
    except KimiError as exc:
        print(f"\ndemo failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if standin is not None:
            standin.stop()
    print("\ndone.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
