"""A built book served on 127.0.0.1, and a call run in a thread of its own.

Shared by the browser tests (``test_book_browser``, ``test_book_student``, ``test_book_pdf``) and
by ``book_pdf`` (``python3 dev.py pdf``), which imports it with ``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files from the build; no log lines; an empty favicon (browsers always ask)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


@contextmanager
def serve(directory: Path | str, name: str = "book-server") -> Iterator[str]:
    """Base URL of a local HTTP server (random port, own thread ``name``) serving ``directory``."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def in_own_thread(work: Callable[[], T], name: str) -> T:
    """``work()`` run in a new thread ``name`` and waited for; what it raised is re-raised here.

    Playwright's sync API and ``asyncio.run`` refuse a thread that already runs an event loop
    (as an xdist worker's does once the browser test opened its own session).
    """
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:  # re-raised in the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=run, name=name)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
