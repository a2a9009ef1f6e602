"""A minimal client for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM,
llama.cpp's server, OpenRouter): the model under test and the LLM judge both speak through
it. The HTTP side (retries, timeouts, error wording) is ``plugins._openai_chat``, shared with
the ``vlm`` system; here are the harness's request shape and its one error type."""
from __future__ import annotations

import json
from dataclasses import dataclass

from redactor_plugins._openai_chat import ChatEndpoint, EndpointError, api_key_from_env, first_choice, is_http_url
from redactor.errors import InputError, PluginFailed

RETRY_BASE_DELAY = 0.2     # seconds; a local server restarting is back within a second or two


class ChatError(PluginFailed):
    """The endpoint failed or answered something that is not a chat completion."""


@dataclass
class ChatClient:
    base_url: str                 # e.g. http://127.0.0.1:8080/v1
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 1              # extra attempts on connection errors, 408, 429 and 5xx
    max_tokens: int | None = None

    def __post_init__(self):
        if not is_http_url(self.base_url):
            raise InputError(f"endpoint must be an http(s) URL, not {self.base_url!r}")
        self.base_url = self.base_url.rstrip("/")
        self.calls = 0            # HTTP requests sent, retries included

    @classmethod
    def from_options(cls, url: str, model: str, api_key_env: str | None = None, **kw) -> "ChatClient":
        key = api_key_from_env([api_key_env]) if api_key_env else None
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
        # built per call: the fields are a dataclass's, which a caller may change
        endpoint = ChatEndpoint(self.base_url, self.api_key, self.timeout, self.retries,
                                RETRY_BASE_DELAY)
        url = endpoint.url
        try:
            response = endpoint.post(body)
            content, _ = first_choice(response)
        except EndpointError as exc:
            if exc.kind != "answer":
                raise ChatError(str(exc)) from None
            raise ChatError(f"{url} answered something that is not a chat completion: "
                            f"{exc.raw[:120]!r}") from None
        except ValueError:
            raise ChatError(f"{url} answered something that is not a chat completion: "
                            f"{json.dumps(response)[:120]}") from None
        finally:
            self.calls += endpoint.attempts
        if content is None:
            raise ChatError(f"{url} answered an empty message")
        return str(content)
