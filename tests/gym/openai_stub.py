"""A small OpenAI-compatible chat-completions server for the tests: a real HTTP server on
127.0.0.1 that answers with a task's reference tool calls, found from the goal text in
the conversation, as a test harness that knows its tasks would.

The model name chooses the behaviour:

- ``reference``: one reference call per reply, then `submit` with the task's answer;
- ``malformed``: first a call with broken JSON arguments and one to an unknown tool,
  then as ``reference``;
- ``refuse``: text only ("I can't help with that.");
- ``slow``: answers after `slow_seconds` (longer than the client's timeout);
- ``flaky``: the first request of each turn gets an HTTP 500, the retry as ``reference``;
- ``reference-text``: as ``reference``, but each call as JSON text in the reply's content
  (``{"tool": ..., "arguments": ...}``), for harnesses that read actions from text;
- ``parallel``: first every reference call at once in one reply, with a line of text
  ("On it."), then `submit`;
- ``not-json``: a 200 whose body is an HTML page (a proxy's), not a completion;
- ``no-choices``: a 200 completion with an empty ``choices`` list;
- ``null-function``: first a tool call whose ``function`` is null, then as ``reference``.

The goal is found in user and system messages, also inside JSON they carry (an
observation serialized by a harness).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from officegym.tasks import Task

REFUSAL = "I can't help with that."


class ScriptedModel:
    """The server, its known tasks (goal -> reference calls and answer) and what it saw."""

    def __init__(self, slow_seconds: float = 2.0) -> None:
        self.tasks: dict[str, tuple[list[tuple[str, dict]], str | None]] = {}
        self.requests: list[dict[str, Any]] = []
        self.slow_seconds = slow_seconds
        self._seen: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.http = StubServer(self._respond)

    @property
    def base_url(self) -> str:
        return self.http.base_url

    def learn(self, task: Task, *, names: dict[str, str] | None = None) -> None:
        """Know `task`'s reference solution (tool names renamed by `names`, if given)."""
        rename = names or {}
        calls = [(rename.get(c.name, c.name), dict(c.arguments)) for c in task.solution]
        self.tasks[task.goal] = (calls, task.answer)

    def close(self) -> None:
        self.http.close()

    # ------------------------------------------------------------ answering

    def reply(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(HTTP status, JSON body) for one chat-completions request."""
        with self._lock:
            self.requests.append(body)
        model, messages = body.get("model", ""), body.get("messages", [])
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        if model == "slow":
            time.sleep(self.slow_seconds)
        if model == "flaky":
            key = f"{_text(messages)[:200]}|{turn}"
            with self._lock:
                self._seen[key] += 1
                first = self._seen[key] == 1
            if first:
                return 500, {"error": {"message": "upstream overloaded", "type": "server_error"}}
        if model == "refuse":
            return 200, _completion(model, REFUSAL, [])
        if model == "no-choices":
            return 200, {**_completion(model, None, []), "choices": []}
        if model == "null-function":
            if turn == 0:
                empty = _completion(model, None, [("", "")])
                empty["choices"][0]["message"]["tool_calls"][0]["function"] = None
                return 200, empty
            turn -= 1
        if model == "malformed":
            if turn == 0:
                bad = [("slack_post_message", '{"channel": "general", "text": '), ("nope", "{}")]
                return 200, _completion(model, None, bad)
            turn -= 1
        calls, answer = self._script(messages, body.get("tools", []))
        if model == "parallel":
            if turn == 0 and calls:
                return 200, _completion(model, "On it.", [(n, json.dumps(a)) for n, a in calls])
            calls = []
        if turn < len(calls):
            name, args = calls[turn]
        else:
            name, args = self._submit_name(body), {} if answer is None else {"answer": answer}
        if model == "reference-text":
            return 200, _completion(model, json.dumps({"tool": name, "arguments": args}), [])
        return 200, _completion(model, None, [(name, json.dumps(args))])

    def _script(self, messages: list[dict], tools: list[dict]) -> tuple[list, str | None]:
        text = _text(messages)
        goals = [g for g in self.tasks if g in text]
        if not goals:
            raise LookupError("no known task's goal is in the conversation")
        return self.tasks[max(goals, key=len)]

    @staticmethod
    def _submit_name(body: dict[str, Any]) -> str:
        names = [t.get("function", {}).get("name", "") for t in body.get("tools", [])]
        return next((n for n in names if n.endswith("submit")), "submit")

    def _respond(self, path: str, body: dict[str, Any]) -> Response:
        """The HTTP answer to one request: `reply`'s, streamed when the body asks."""
        if body.get("model") == "not-json":
            return 200, "application/json", b"<html><body>502 Bad Gateway</body></html>"
        try:
            status, payload = self.reply(body)
        except LookupError as exc:
            status, payload = 400, {"error": {"message": str(exc)}}
        if body.get("stream") and status == 200:
            return status, "text/event-stream", _sse(payload)
        return as_json(status, payload)


Response = tuple[int, str, bytes]  # HTTP status, content type, body


class StubServer:
    """A real HTTP server on 127.0.0.1, on a thread of its own, answering each POST with
    `respond(path, JSON body)`; the tests' stand-ins for a model's endpoint share it."""

    def __init__(self, respond: Callable[[str, dict[str, Any]], Response]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(respond))
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``/v1``) of the server."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def as_json(status: int, payload: Any) -> Response:
    """`payload` as a JSON response with `status`."""
    return status, "application/json", json.dumps(payload).encode()


def _handler(respond: Callable[[str, dict[str, Any]], Response]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            status, kind, data = respond(self.path, json.loads(self.rfile.read(length) or b"{}"))
            try:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (the timeout tests)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def _sse(completion: dict[str, Any]) -> bytes:
    """A completion as a server-sent event stream of chunks (for ``"stream": true``)."""
    choice = completion["choices"][0]
    message = choice["message"]
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
    head = {k: completion[k] for k in ("id", "created", "model")}
    chunks = [
        {**head, "object": "chat.completion.chunk",
         "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "object": "chat.completion.chunk",
         "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
        {**head, "object": "chat.completion.chunk", "choices": [], "usage": completion["usage"]},
    ]  # fmt: skip
    events = [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
    return "".join(events).encode()


def _text(messages: list[dict]) -> str:
    """Every user and system message's text, joined, with the strings of JSON they hold."""
    parts = []
    for m in messages:
        if m.get("role") in ("user", "system"):
            content = m.get("content")
            if isinstance(content, list):
                content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
            parts.append(str(content or ""))
            parts.extend(_json_strings(str(content or "")))
    return "\n".join(parts)


def _json_strings(text: str) -> list[str]:
    """The string values inside `text` if it is JSON (an observation a harness sent)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _completion(model: str, content: str | None, calls: list[tuple[str, str]]) -> dict[str, Any]:
    tool_calls = [
        {"id": f"call_{i}", "type": "function",
         "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)
    ]  # fmt: skip
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
