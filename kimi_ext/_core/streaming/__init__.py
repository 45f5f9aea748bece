"""Streams: SSE decoding (:mod:`.sse`) and the sync and async stream classes each format's
``stream`` module extends (:mod:`.stream`). Imports transport and the model room."""
