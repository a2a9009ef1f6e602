"""One OpenAI-compatible chat client (plugins/_openai_chat.py) behind both the ``vlm`` system
and the Doc-PP harness: same retries (throttling included), same refusals, against a local
fake server on 127.0.0.1."""
from __future__ import annotations

import json

import fake_servers as fakes
import pytest
from PIL import Image

import redactor_plugins._openai_chat as chat
from redactor_eval.docpp.client import ChatClient, ChatError
from redactor_plugins.vlm import VlmSystem
from redactor.errors import PluginUnavailable

EMPTY = json.dumps({"coords": "normalized_0_999", "redactions": []})


def vlm(server) -> VlmSystem:
    return VlmSystem(base_url=f"{server.url}/v1", model="m", cache=False, retry_base_delay=0.001)


def docpp(server) -> ChatClient:
    return ChatClient(f"{server.url}/v1", "m", retries=2)


def test_both_callers_post_through_the_shared_endpoint(monkeypatch):
    posted = []

    def post(self, body):
        posted.append((self.url, body if isinstance(body, dict) else json.loads(body)))
        return fakes.chat_completion(EMPTY)
    monkeypatch.setattr(chat.ChatEndpoint, "post", post)
    assert VlmSystem(base_url="http://127.0.0.1:9/v1", model="m", cache=False).redact_page(
        Image.new("RGB", (64, 64), "white")) == []
    assert ChatClient("http://127.0.0.1:9/v1", "m").chat([{"role": "user", "content": "hi"}]) == EMPTY
    assert [url for url, _ in posted] == ["http://127.0.0.1:9/v1/chat/completions"] * 2
    assert [body["model"] for _, body in posted] == ["m", "m"]


def test_both_retry_throttling_and_server_errors_but_not_refusals():
    page = Image.new("RGB", (64, 64), "white")
    ask = [("vlm", vlm, lambda c: c.redact_page(page), []),
           ("docpp", docpp, lambda c: c.chat([{"role": "user", "content": "hi"}]), EMPTY)]
    for name, make, call, empty in ask:
        replies = [fakes.Reply(429, {"error": {"message": "slow down"}}),
                   fakes.Reply(503, {"error": {"message": "loading"}}),
                   fakes.Reply(200, fakes.chat_completion(EMPTY)),
                   fakes.Reply(401, "bad key\nsecond line")]     # a proxy's text answer
        with fakes.FakeServer(fakes.scripted(replies)) as server:
            client = make(server)
            assert call(client) == empty, name
            error = PluginUnavailable if name == "vlm" else ChatError
            with pytest.raises(error, match="HTTP 401.*: bad key second line$"):
                call(client)
        assert len(server.requests) == 4 and not server.errors, name      # 401: no retry
        assert all(r.headers["accept"] == "application/json" for r in server.requests), name
