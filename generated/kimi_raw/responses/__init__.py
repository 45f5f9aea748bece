"""A client library for accessing Kimi K3.1 Pro - Responses format"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
