"""Local HTTP fakes of cloud services, for tests: a threading HTTP server on 127.0.0.1 that
records every request and answers through a handler function, plus handlers that speak
Google DLP's documented REST JSON and an OpenAI-compatible chat-completions API.

Test modules load it by file path (tests run with --import-mode=importlib, so sibling
modules are not importable by name)."""
from __future__ import annotations

import base64
import io
import json
import math
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import unquote


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


@dataclass
class Reply:
    status: int = 200
    body: Any = None                 # dict/list -> JSON; str/bytes sent as they are
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> tuple[bytes, str]:
        if isinstance(self.body, (dict, list)):
            return json.dumps(self.body).encode("utf-8"), "application/json"
        if isinstance(self.body, str):
            return self.body.encode("utf-8"), "text/plain; charset=utf-8"
        return self.body or b"", "application/octet-stream"


class FakeServer:
    """``with FakeServer(handler) as server:`` serves on ``server.url`` until the block ends.
    ``handler(request) -> Reply``; a handler that raises answers 500 with the error, which
    the test sees through the client's error and ``server.errors``."""

    def __init__(self, handler: Callable[[RecordedRequest], Reply]):
        self.handler = handler
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):   # keep test output clean
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = RecordedRequest(self.command, self.path,
                                          {k.lower(): v for k, v in self.headers.items()}, body)
                fake.requests.append(request)
                try:
                    reply = fake.handler(request)
                except Exception as exc:   # surfaced to the test as a 500 and in .errors
                    fake.errors.append(f"{type(exc).__name__}: {exc}")
                    reply = Reply(500, {"error": {"code": 500, "message": str(exc), "status": "INTERNAL"}})
                data, ctype = reply.encoded()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.headers.get("Content-Type", ctype))
                self.send_header("Content-Length", str(len(data)))
                for k, v in reply.headers.items():
                    if k != "Content-Type":
                        self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def scripted(replies: list[Reply | Callable[[RecordedRequest], Reply]]) -> Callable[[RecordedRequest], Reply]:
    """A handler that answers with the given replies in order (a callable reply is called
    with the request); one request too many is an error."""
    queue = deque(replies)

    def handler(request: RecordedRequest) -> Reply:
        if not queue:
            raise AssertionError(f"unexpected extra request {request.method} {request.path}")
        reply = queue.popleft()
        return reply(request) if callable(reply) else reply
    return handler


# --- Google DLP (REST, camelCase JSON as documented for projects.content.inspect) ---

@dataclass
class DlpFinding:
    """What the fake DLP 'finds': an info type and likelihood, and either a quote to look
    up in inspected text or page-pixel boxes of an inspected image."""
    info_type: str
    likelihood: str
    quote: str
    page_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    ranges: str = "both"             # text findings: "both", "bytes" or "codepoints"


# Enum numbers of google.privacy.dlp.v2.Likelihood, for clients that ask for
# ``$alt=json;enum-encoding=int`` (the Python client does).
DLP_LIKELIHOOD_NUMBERS = {"LIKELIHOOD_UNSPECIFIED": 0, "VERY_UNLIKELY": 1, "UNLIKELY": 2,
                          "POSSIBLE": 3, "LIKELY": 4, "VERY_LIKELY": 5}


def dlp_inspect_handler(findings: list[DlpFinding], page_size: tuple[int, int] | None = None,
                        checks: Callable[[RecordedRequest, dict], None] | None = None):
    """A handler for ``POST /v2/projects/*/locations/*/content:inspect``. Text items: each
    occurrence of a finding's quote is reported with UTF-8 ``byteRange`` and/or
    ``codepointRange``. Image items: the base64 image is decoded, and each finding's page
    boxes are scaled to the size received and reported as ``imageLocation.boundingBoxes``
    (integer pixels, origin top-left). ``checks(request, body)`` may assert on the request."""
    from PIL import Image

    def handler(request: RecordedRequest) -> Reply:
        if request.method != "POST" or not request.path.split("?")[0].endswith("/content:inspect"):
            return Reply(404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}})
        query = unquote(request.path.partition("?")[2])
        ints = "enum-encoding=int" in query

        def likelihood(name: str):
            return DLP_LIKELIHOOD_NUMBERS[name] if ints else name

        body = request.json()
        if checks:
            checks(request, body)
        item = body.get("item") or {}
        out = []
        if "value" in item:
            text = item["value"]
            for f in findings:
                start = 0
                while (i := text.find(f.quote, start)) >= 0:
                    location: dict[str, Any] = {}
                    b0 = len(text[:i].encode("utf-8"))
                    b1 = b0 + len(f.quote.encode("utf-8"))
                    if f.ranges in ("both", "bytes"):
                        location["byteRange"] = {"start": str(b0), "end": str(b1)}
                    if f.ranges in ("both", "codepoints"):
                        location["codepointRange"] = {"start": str(i), "end": str(i + len(f.quote))}
                    out.append({"quote": f.quote, "infoType": {"name": f.info_type},
                                "likelihood": likelihood(f.likelihood), "location": location,
                                "createTime": "2024-05-01T10:00:00.000Z"})
                    start = i + len(f.quote)
        elif "byteItem" in item:
            image = Image.open(io.BytesIO(base64.b64decode(item["byteItem"]["data"])))
            sw, sh = image.size
            pw, ph = page_size or image.size
            for f in findings:
                boxes = []
                for x0, y0, x1, y1 in f.page_boxes:
                    left, top = math.floor(x0 * sw / pw), math.floor(y0 * sh / ph)
                    right, bottom = math.ceil(x1 * sw / pw), math.ceil(y1 * sh / ph)
                    boxes.append({"top": top, "left": left, "width": right - left, "height": bottom - top})
                out.append({"quote": f.quote, "infoType": {"name": f.info_type},
                            "likelihood": likelihood(f.likelihood),
                            "location": {"contentLocations": [{"imageLocation": {"boundingBoxes": boxes}}]},
                            "createTime": "2024-05-01T10:00:00.000Z"})
        return Reply(200, {"result": {"findings": out}} if out else {"result": {}})
    return handler


# --- OpenAI-compatible chat completions ---

def chat_completion(content: str | None, finish_reason: str = "stop", model: str = "fake-vlm") -> dict:
    """A chat.completion object as the OpenAI API documents it."""
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1714557600,
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}
