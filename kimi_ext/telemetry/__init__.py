"""OpenTelemetry for kimi_ext: GenAI spans and metrics, opt-in, built on :mod:`kimi_ext.hooks`.

Turn it on per client (``Kimi(telemetry=True)``) or for every client made without
``telemetry=`` with ``KIMI_TELEMETRY=1``. It needs ``opentelemetry-api``
(``pip install 'kimi-ext[otel]'``) and records to the global tracer and meter providers, or
to those given to :class:`Telemetry`::

    from kimi_ext import Kimi
    from kimi_ext.telemetry import Telemetry

    client = Kimi(telemetry=Telemetry(tracer_provider=tp, meter_provider=mp))

The names follow the GenAI semantic conventions v1.41.1 (see :mod:`.semconv`, which also
says how to select a later version). Importing this package does not import
opentelemetry; :class:`Telemetry` does, on first use.

A group of calls (a batch run) gets one parent span with :func:`kimi_ext.hooks.scope`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from kimi_ext._core.call.lazy import lazy_attributes
from kimi_ext.errors import ClientConfigError

if TYPE_CHECKING:
    from kimi_ext.telemetry.recorder import Telemetry

__all__ = ["Telemetry", "telemetry_hook"]


def telemetry_hook(setting: Any) -> Any:
    """The hook a client's ``telemetry=`` setting means: True makes a :class:`Telemetry`
    on the global providers; a Telemetry is used as it is. ClientConfigError for anything
    else, or when opentelemetry-api is not installed."""
    if setting is True:
        try:
            from kimi_ext.telemetry.recorder import Telemetry
        except ImportError as exc:
            raise ClientConfigError(
                "telemetry needs opentelemetry-api, which is not installed "
                f"({exc}); pip install 'kimi-ext[otel]'"
            ) from None
        return Telemetry()
    # A Telemetry instance means its module (and opentelemetry) is already imported.
    recorder = sys.modules.get("kimi_ext.telemetry.recorder")
    if recorder is not None and isinstance(setting, recorder.Telemetry):
        return setting
    raise ClientConfigError(
        f"telemetry={setting!r}: must be True, False, None (follow $KIMI_TELEMETRY) "
        "or a kimi_ext.telemetry.Telemetry"
    )


# Imported on first use (it imports opentelemetry, which the extra "otel" installs).
_HOMES = {"Telemetry": "kimi_ext.telemetry.recorder"}
__getattr__ = lazy_attributes(__name__, _HOMES, extras={"kimi_ext.telemetry.recorder": "otel"})
