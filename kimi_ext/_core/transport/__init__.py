"""Getting bytes to the service and back: the sender (retries, deadlines, the gateway
fallback), the request it sends, the client's settings, errors read off the wire, the key
kept secret, logging, the hook seam, and every use of an httpx internal
(:mod:`.httpx_compat`). Imports only the model room."""
