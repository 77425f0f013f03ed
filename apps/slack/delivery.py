"""Delivering Events API requests to apps' request URLs, off the request path.

`dispatcher()` is one per process: a daemon thread that POSTs each envelope as JSON,
signed the way Slack signs (``X-Slack-Signature: v0=`` HMAC-SHA256 of
``v0:<timestamp>:<body>`` with the app's signing secret, and
``X-Slack-Request-Timestamp``), so Bolt's own verification accepts it. An answer
other than 2xx within `TIMEOUT` seconds is retried up to three times, with
``X-Slack-Retry-Num`` and ``X-Slack-Retry-Reason``, after `retry_delays` (Slack:
at once, after a minute, after five).

The request timestamp is real wall-clock time, not the world's simulated clock:
Bolt refuses requests whose timestamp is more than five minutes from its own clock.
The events themselves carry the simulated time (``event_ts``, ``event_time``).
Nothing here runs unless an app subscribed: tool calls in the gym never wait on it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import queue
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TIMEOUT", "Dispatcher", "dispatcher", "sign", "verify_url"]

TIMEOUT = 3.0  # seconds Slack waits for an answer
log = logging.getLogger(__name__)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """Slack's request signature: ``v0=`` + HMAC-SHA256 of ``v0:<timestamp>:<body>``."""
    base = b"v0:" + timestamp.encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Slack does not follow a request URL's redirects; neither do we (it could point off
    this machine)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def _post(url: str, secret: str, body: bytes, retry: int, reason: str) -> tuple[int, bytes]:
    """One signed POST: the HTTP status (0 when no answer came) and the answer's body."""
    stamp = str(int(time.time()))  # real time: Bolt checks it against its own clock
    headers = {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": sign(secret, stamp, body),
        "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    }
    if retry:
        headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": reason}
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _OPENER.open(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""
    except (TimeoutError, urllib.error.URLError, OSError) as exc:
        log.info("event delivery to %s failed: %s", url, exc)
        return 0, b""


def verify_url(url: str, secret: str, token: str) -> bool:
    """Slack's url_verification handshake: the URL must answer the challenge it is sent."""
    challenge = secrets.token_urlsafe(24)
    body = json.dumps({"token": token, "challenge": challenge, "type": "url_verification"})
    status, answer = _post(url, secret, body.encode(), 0, "")
    if status != 200:
        return False
    try:
        return json.loads(answer).get("challenge") == challenge
    except (ValueError, AttributeError):
        return answer.decode(errors="replace").strip() == challenge


@dataclass
class Dispatcher:
    """Posts envelopes in order on a thread of its own; retries on timers."""

    retry_delays: Sequence[float] = (0.0, 60.0, 300.0)
    delivered: int = 0  # envelopes answered with 2xx
    dropped: int = 0  # envelopes that failed every retry
    _queue: queue.Queue = field(default_factory=queue.Queue)
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def submit(self, deliveries: Sequence[dict[str, Any]]) -> None:
        """Queue deliveries (``url``, ``secret``, ``body``) made by a committed transaction."""
        for d in deliveries:
            self._queue.put((d["url"], d["secret"], json.dumps(d["body"]).encode(), 0, ""))
        self._start()

    def join(self, timeout: float = 10.0) -> bool:
        """Wait until the queue is empty (retries still pending on timers excepted)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="slack-events", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            url, secret, body, retry, reason = self._queue.get()
            try:
                self._deliver(url, secret, body, retry, reason)
            finally:
                self._queue.task_done()

    def _deliver(self, url: str, secret: str, body: bytes, retry: int, reason: str) -> None:
        status, _ = _post(url, secret, body, retry, reason)
        if 200 <= status < 300:
            self.delivered += 1
            return
        if retry >= len(self.retry_delays):
            self.dropped += 1
            log.warning("event to %s dropped after %d retries", url, retry)
            return
        why = "http_timeout" if status == 0 else "http_error"
        again = (url, secret, body, retry + 1, why)
        timer = threading.Timer(self.retry_delays[retry], self._queue.put, args=(again,))
        timer.daemon = True
        timer.start()


_DISPATCHER: Dispatcher | None = None
_CREATE = threading.Lock()


def dispatcher() -> Dispatcher:
    """The process's dispatcher (created on first use)."""
    global _DISPATCHER
    with _CREATE:
        if _DISPATCHER is None:
            _DISPATCHER = Dispatcher()
        return _DISPATCHER
