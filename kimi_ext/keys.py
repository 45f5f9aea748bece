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

The ``kimi`` command uses these same names.
"""

from __future__ import annotations

from kimi_ext._core.transport.config import ENV_API_KEY, ENV_BASE_URL
from kimi_ext._core.transport.secret import redact
from kimi_ext._core.transport.sending import is_loopback

__all__ = ["ENV_API_KEY", "ENV_BASE_URL", "is_loopback", "redact"]
