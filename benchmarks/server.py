"""The loopback HTTP/1.1 server the benchmarks talk to (run in its own process).

It answers every request with prepared bytes: the body is built once per scenario (by
:mod:`benchmarks.payloads`) and then served identically to every client, so the
contenders differ only in what they do with it. Requests are routed by the first two
path segments, ``/s/<scenario>/...``: each client is pointed at
``http://127.0.0.1:PORT/s/<scenario>`` (plus ``/v1`` for the openai SDK) and whatever
path it appends is ignored. Connections are kept alive; the request body is read and
discarded without parsing. JSON replies carry ``Content-Length``; streams are sent
chunked (``Transfer-Encoding: chunked``) in 64 KiB chunks cut without regard to event
boundaries, the way a proxy in front of the model re-chunks them.

    python -m benchmarks.server      # prints "PORT <n>", serves until stdin closes

``GET /s/<scenario>/prime`` builds a scenario's bytes ahead of the timed requests;
``/s/<scenario>/delay-<ms>/...`` answers after that many milliseconds (a fixed latency).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from .payloads import build_body

__all__ = ["Server", "serve"]

CHUNK = 64 * 1024
_cache: dict[str, bytes] = {}
_lock = threading.Lock()


def _frame(key: str) -> bytes:
    content_type, body, chunked = build_body(key)
    head = [
        b"HTTP/1.1 200 OK",
        b"Content-Type: " + content_type.encode(),
        b"x-request-id: req_bench",
        b"Connection: keep-alive",
    ]
    if not chunked:
        head.append(b"Content-Length: %d" % len(body))
        return b"\r\n".join(head) + b"\r\n\r\n" + body
    head.append(b"Cache-Control: no-cache")
    head.append(b"Transfer-Encoding: chunked")
    parts = [b"\r\n".join(head), b"\r\n\r\n"]
    for start in range(0, len(body), CHUNK):
        piece = body[start : start + CHUNK]
        parts += [b"%x\r\n" % len(piece), piece, b"\r\n"]
    parts.append(b"0\r\n\r\n")
    return b"".join(parts)


def _reply(key: str) -> bytes:
    data = _cache.get(key)
    if data is None:
        with _lock:
            data = _cache.get(key)
            if data is None:
                try:
                    data = _frame(key)
                except Exception as exc:  # an unknown scenario: say so, keep serving
                    text = f"{type(exc).__name__}: {exc}".encode()
                    return (
                        b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                        b"Content-Length: %d\r\n\r\n" % len(text)
                    ) + text
                _cache[key] = data
    return data


def _handle(conn: socket.socket) -> None:
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    scratch = bytearray(1 << 20)
    view = memoryview(scratch)
    buf = b""
    try:
        while True:
            while b"\r\n\r\n" not in buf:
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
            head, _, buf = buf.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            target = lines[0].split(b" ")[1].decode("latin-1")
            length = 0
            chunked = False
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
            if chunked:
                buf = _skip_chunked(conn, buf)
            else:
                # Discard the body without keeping it (a history is megabytes).
                left = length - len(buf)
                buf = buf[length:] if left <= 0 else b""
                while left > 0:
                    got = conn.recv_into(view, min(left, len(scratch)))
                    if not got:
                        return
                    left -= got
            segments = target.split("/")
            key = segments[2] if len(segments) > 2 and segments[1] == "s" else ""
            if segments[-1] == "prime":  # build the scenario now, outside any timing
                _reply(key)
                conn.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                continue
            if len(segments) > 3 and segments[3].startswith("delay-"):
                # /s/<key>/delay-<ms>/...: answer after a fixed latency (the batch group).
                time.sleep(int(segments[3].removeprefix("delay-")) / 1000)
            conn.sendall(_reply(key))
    except (ConnectionError, OSError):
        return
    finally:
        conn.close()


def _skip_chunked(conn: socket.socket, buf: bytes) -> bytes:
    while True:
        while b"\r\n" not in buf:
            buf += conn.recv(65536)
        size_line, _, buf = buf.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        while len(buf) < size + 2:
            data = conn.recv(65536)
            if not data:
                raise ConnectionError("body cut")
            buf += data
        buf = buf[size + 2 :]
        if size == 0:
            return buf


def serve(host: str = "127.0.0.1") -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    listener.listen(128)
    port = listener.getsockname()[1]

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=_handle, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    sys.stdout.write(f"PORT {port}\n")
    sys.stdout.flush()
    # Serve until the parent closes our stdin (or dies): never outlive the benchmark.
    try:
        while sys.stdin.buffer.read(1):
            pass
    finally:
        listener.close()
        os._exit(0)


class Server:
    """The server in a child process: ``with Server() as root: ...`` (root is its URL)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self.root = ""

    def __enter__(self) -> str:
        repo = Path(__file__).resolve().parent.parent
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), env.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=repo,
            env=env,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline().decode().split()
        if len(line) != 2 or line[0] != "PORT":
            self.__exit__()
            raise RuntimeError("the benchmark server did not start")
        self.root = f"http://127.0.0.1:{line[1]}"
        return self.root

    def prime(self, *keys: str) -> None:
        """Have the server build these scenarios now (building 100,000 events takes a while)."""
        with socket.create_connection(("127.0.0.1", int(self.root.rsplit(":", 1)[1]))) as sock:
            for key in keys:
                sock.sendall(f"GET /s/{key}/prime HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                reply = b""
                while b"\r\n\r\n" not in reply:
                    data = sock.recv(4096)
                    if not data:
                        raise RuntimeError(f"the server closed the connection priming {key}")
                    reply += data
                if not reply.startswith(b"HTTP/1.1 204"):
                    raise RuntimeError(f"cannot prime {key}: {reply[:200]!r}")

    def __exit__(self, *exc: object) -> None:
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()  # the server exits when its stdin closes
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


if __name__ == "__main__":
    serve()
