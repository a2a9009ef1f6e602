"""A minimal client for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM,
llama.cpp's server, OpenRouter), over plain HTTP with urllib: the model under test and the
LLM judge both speak through it."""
from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from redactor.errors import InputError, PluginFailed


class ChatError(PluginFailed):
    """The endpoint failed or answered something that is not a chat completion."""


@dataclass
class ChatClient:
    base_url: str                 # e.g. http://127.0.0.1:8080/v1
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 1              # extra attempts on connection errors and 5xx
    max_tokens: int | None = None

    def __post_init__(self):
        if not self.base_url.startswith(("http://", "https://")):
            raise InputError(f"endpoint must be an http(s) URL, not {self.base_url!r}")
        self.base_url = self.base_url.rstrip("/")
        self.calls = 0

    @classmethod
    def from_options(cls, url: str, model: str, api_key_env: str | None = None, **kw) -> "ChatClient":
        key = os.environ.get(api_key_env) if api_key_env else None
        if api_key_env and not key:
            raise InputError(f"environment variable {api_key_env} is not set")
        return cls(url, model, key, **kw)

    def chat(self, messages: list[dict], temperature: float = 0.0, json_mode: bool = False) -> str:
        """The assistant message's text; raises ChatError with one line on any failure."""
        body = {"model": self.model, "messages": messages, "temperature": temperature}
        if self.max_tokens:
            body["max_tokens"] = self.max_tokens
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retries + 1):
            self.calls += 1
            req = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
                break
            except urllib.error.HTTPError as exc:
                detail = exc.read()[:200].decode("utf-8", "replace").replace("\n", " ")
                last = f"HTTP {exc.code} from {url}: {detail}"
                if exc.code < 500:
                    raise ChatError(last) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                reason = getattr(exc, "reason", exc)
                last = f"cannot reach {url}: {reason}"
            if attempt < self.retries:
                time.sleep(0.2 * (attempt + 1))
        else:
            raise ChatError(last)
        try:
            payload = json.loads(raw)
            content = payload["choices"][0]["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError):
            raise ChatError(f"{url} answered something that is not a chat completion: "
                            f"{raw[:120]!r}") from None
        if content is None:
            raise ChatError(f"{url} answered an empty message")
        if isinstance(content, list):   # some servers return content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return str(content)
