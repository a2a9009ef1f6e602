"""One HTTP client for OpenAI-compatible chat-completions endpoints (OpenAI, vLLM, llama.cpp's
server, OpenRouter), over the standard library's urllib so that no SDK is needed. The
``vlm`` system and the Doc-PP harness (model under test and LLM judge) both post through
it, so timeouts, retries and error wording are one thing.

It only moves a JSON body to ``{base_url}/chat/completions`` and a JSON object back: what to
ask, what the answer means and which error type a caller raises stay with the caller. A
failure is an ``EndpointError`` whose text is one line naming the endpoint; its ``kind``
says which failure it was (``http``, ``unreachable``, ``answer``)."""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Sequence

from redactor_plugins._retry import call_with_retries
from redactor.plugin_api import PluginFailed

# Worth another try: a timeout, throttling, and server errors other than "not implemented"
# (501) and "HTTP version not supported" (505), which a retry cannot change.
_PERMANENT_5XX = {501, 505}


class EndpointError(PluginFailed):
    """The endpoint could not be reached (``unreachable``), refused the request (``http``,
    with ``status`` and the start of its answer in ``detail``) or answered something that
    is not a JSON object (``answer``, with the bytes in ``raw``)."""

    def __init__(self, message: str, kind: str, status: int | None = None, detail: str = "",
                 raw: bytes = b""):
        super().__init__(message)
        self.kind, self.status, self.detail, self.raw = kind, status, detail, raw


def is_http_url(url: str) -> bool:
    parsed = urllib.parse.urlparse(url)
    return parsed.scheme in ("http", "https") and bool(parsed.netloc)


def api_key_from_env(names: Sequence[str]) -> str | None:
    """The value of the first of the environment variables ``names`` that is set."""
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


def is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code in (408, 429) or (exc.code >= 500 and exc.code not in _PERMANENT_5XX)
    return isinstance(exc, (urllib.error.URLError, ConnectionError, TimeoutError))


class ChatEndpoint:
    """``post`` a chat-completions request body; retried with backoff on what may pass."""

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 120.0,
                 max_retries: int = 1, retry_base_delay: float = 0.2, name: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"
        self.name = name or self.url            # how error messages call the endpoint
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        self.attempts = 0                       # HTTP requests sent, retries included

    def _request(self, payload: bytes) -> urllib.request.Request:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return urllib.request.Request(self.url, data=payload, headers=headers, method="POST")

    def post(self, body: dict[str, Any] | bytes) -> dict[str, Any]:
        """The endpoint's JSON answer to ``body`` (a dict, or its JSON bytes)."""
        payload = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        request = self._request(payload)

        def once() -> bytes:
            self.attempts += 1
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.read()

        try:
            raw = call_with_retries(once, is_retryable, self.max_retries, self.retry_base_delay,
                                    what=self.name)
        except urllib.error.HTTPError as exc:
            detail = " ".join(exc.read()[:300].decode("utf-8", "replace").split())
            raise EndpointError(f"HTTP {exc.code} from {self.name}: {detail}", "http",
                                status=exc.code, detail=detail) from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise EndpointError(f"cannot reach {self.name}: {reason}", "unreachable") from exc
        return self._decode(raw)

    def _decode(self, raw: bytes) -> dict[str, Any]:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise EndpointError(f"{self.name} answered with non-JSON: {raw[:80]!r}", "answer",
                                raw=raw) from exc
        if not isinstance(data, dict):
            raise EndpointError(f"{self.name} answered with a JSON {type(data).__name__}", "answer",
                                raw=raw)
        return data


def first_choice(response: dict[str, Any]) -> tuple[str | None, str | None]:
    """(text, finish_reason) of ``choices[0]``; a message given as content parts (as some
    servers answer) is joined into one text. ValueError when the response has no
    ``choices[0].message``."""
    try:
        choice = response["choices"][0]
        content = choice["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ValueError("no choices[0].message in the response") from None
    if isinstance(content, list):
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content, choice.get("finish_reason")
