"""A client library for accessing Kimi K3.1 Pro - Chat Completions"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
