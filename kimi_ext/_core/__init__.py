"""The machinery the three formats share, in five rooms, each a package with its own
import contract in ``pyproject.toml`` (checked by ``make lint``):

- :mod:`~kimi_ext._core.contract`: the specs' rules, derived by ``make generate`` (the
  request contract and its checks, effort aliases, call options, replay rules). Imports no
  other room.
- :mod:`~kimi_ext._core.model`: what a call gives back and what a conversation keeps
  (results, histories, usage, image parts). Imports only the contract.
- :mod:`~kimi_ext._core.transport`: sending bytes (retries, deadlines, the fallback,
  errors read off the wire, redaction, logging, the hook seam). Imports only the model.
- :mod:`~kimi_ext._core.streaming`: SSE decoding and the stream classes the formats
  extend. Imports transport and the model.
- :mod:`~kimi_ext._core.call`: the :class:`~kimi_ext._core.call.format.Format` object,
  request building and the caller, which join the rooms; no other room imports it.

A request goes one way: the resource builds and checks it (``call.building``), hands it to
the caller its client gave it (``call.calling``), which has transport send it
(``transport.sending``) and the format's result or stream class parse the reply
(``model.result``, ``streaming.stream``). Nothing on the way calls back into the client.
"""
