"""A stream's two clocks: time since its last data event, and the whole request's deadline.

A server can hold a stream open for ever with SSE comments (``: keepalive``):
the client skips them, so no event reaches the reader, and the bytes keep
the socket's read timeout from ever firing. Nor can the reader look at a
clock while it waits inside the client. So a thread keeps both clocks; when
one runs out it shuts the connection's socket, which wakes the blocked read,
and the reader asks ``expired`` why its stream ended.

After the final event only a short grace is left (``finished``): Chat sends
its usage chunk next, and a server that then keeps the connection open and
silent has still sent a whole answer.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

FINAL_GRACE = 2.0  # seconds a finished stream may take to send its usage and close
IDLE, DEADLINE, FINISHED = "idle", "deadline", "finished"  # why a watch ended a stream


class StreamWatch:
    """Ends a stream with no data event for ``idle`` s, or still open at ``deadline``."""

    def __init__(self, stream: Any, idle: float, deadline: float) -> None:
        self.idle = idle  # seconds allowed between two data events
        self.deadline = deadline  # time.monotonic() at which the whole request is over
        self.expired: str | None = None  # IDLE, DEADLINE or FINISHED once the watch cut it
        self.done = False  # the final event arrived: what follows is only the usage
        self._socket = _socket(stream)
        self._last = time.monotonic()  # when the last data event arrived
        self._stopped = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._keep, name="stream-watch", daemon=True)

    def __enter__(self) -> StreamWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        # Under the lock: once this returns the watch can no longer cut the socket,
        # which the client may be about to hand to another request.
        with self._wake:
            self._stopped = True
            self._wake.notify()

    def data(self) -> None:
        """A data event arrived (a comment is none)."""
        self._last = time.monotonic()

    def finished(self) -> None:
        """The final event arrived: wait only ``FINAL_GRACE`` for the rest."""
        with self._wake:
            self.done = True
            self._last = time.monotonic()
            self._wake.notify()

    def _due(self) -> tuple[float, str]:
        idle = min(self.idle, FINAL_GRACE) if self.done else self.idle
        quiet = self._last + idle
        if self.deadline <= quiet:
            return self.deadline, DEADLINE
        return quiet, FINISHED if self.done else IDLE

    def _keep(self) -> None:
        with self._wake:
            while not self._stopped:
                due, why = self._due()
                left = due - time.monotonic()
                if left <= 0:
                    self.expired = why
                    self._cut()
                    return
                self._wake.wait(left)

    def _cut(self) -> None:
        if self._socket is None:
            return  # no socket to reach (another transport): the reader's own timeouts apply
        with contextlib.suppress(OSError):  # already closed
            # The plain socket's shutdown, also under TLS: it wakes a read in another thread.
            socket.socket.shutdown(self._socket, socket.SHUT_RDWR)


def _socket(stream: Any) -> socket.socket | None:
    """The socket under an ``openai`` stream's HTTP/1.1 response, if it can be reached."""
    response = getattr(stream, "response", None)
    extensions = getattr(response, "extensions", None)
    get = getattr(extensions, "get", None)
    network = get("network_stream") if get is not None else None
    found = network.get_extra_info("socket") if network is not None else None
    return found if isinstance(found, socket.socket) else None
