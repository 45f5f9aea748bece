"""The API key in your own code: where a client reads it, and how to keep it out of text.

A client made without ``api_key=`` reads :data:`ENV_API_KEY`, and without ``base_url=``
:data:`ENV_BASE_URL`. Plain ``http://`` is refused unless the host :func:`is_loopback`
(the key would cross the network unencrypted). :func:`redact` takes the key out of any
text before you log or show it::

    >>> from kimi_ext.keys import ENV_API_KEY, is_loopback, redact
    >>> ENV_API_KEY
    'KIMI_API_KEY'
    >>> redact("401: key sk-test-0123456789 is not valid", "sk-test-0123456789")
    '401: key <redacted> is not valid'
    >>> is_loopback("127.0.0.1"), is_loopback("api.example.com")
    (True, False)

A key kept under another tool's name (:data:`OTHER_KEY_VARIABLES`, such as
``MOONSHOT_API_KEY``) is not read; without ``KIMI_API_KEY`` the error names the variable
it found (never its value) and says how to use it. The ``kimi`` command uses these same
names. :class:`Secret` holds a key so that no ``repr`` or traceback's locals show it;
bodies and headers are searched for keys at least :data:`MIN_SEARCHED_KEY` characters long.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from kimi_ext._core.transport.config import ENV_API_KEY, ENV_BASE_URL
from kimi_ext._core.transport.secret import MIN_SEARCHED_KEY, Secret, redact
from kimi_ext._core.transport.sending import is_loopback

__all__ = [
    "ENV_API_KEY",
    "ENV_BASE_URL",
    "MIN_SEARCHED_KEY",
    "OTHER_KEY_VARIABLES",
    "Secret",
    "is_loopback",
    "missing_key_message",
    "redact",
]

# Where other tools and the gateways' own examples keep a Kimi key: Moonshot's SDKs and
# docs, seedrouter's guide, evolink's. Only named in the error, never read: a key meant for
# another endpoint must not be sent here unasked.
OTHER_KEY_VARIABLES = ("MOONSHOT_API_KEY", "SEEDROUTER_API_KEY", "EVOLINK_API_KEY")


def missing_key_message(
    option: str = "api_key=...", environ: Mapping[str, str] | None = None
) -> str:
    """The error for a client (or command) that found no key: what to set, and the
    variables of :data:`OTHER_KEY_VARIABLES` that hold one instead (named, not shown).
    ``option`` is how a key is passed directly (``api_key=...``, ``--api-key``)."""
    env = os.environ if environ is None else environ
    if ENV_API_KEY in env:
        problem = f"{ENV_API_KEY} is set but empty"
    else:
        problem = f"{ENV_API_KEY} is not set"
    text = f"no API key: {problem} (set it, or pass {option})"
    found = [name for name in OTHER_KEY_VARIABLES if env.get(name, "").strip()]
    if found:
        name = found[0]
        also = f" (also set: {', '.join(found[1:])})" if found[1:] else ""
        text += (
            f". {name} is set{also}, but only {ENV_API_KEY} is read: if it holds your Kimi "
            f'key, export {ENV_API_KEY}="${name}" (or pass it as {option})'
        )
    return text
