"""Answering strategies: default (policy in the system prompt), CoT (reason about the
policy first), revision (a second pass rewrites the answer), DVA (decompose into atomic
elements, verify each against the policy, aggregate the valid ones) and guard (the default
answer passed through our model-free value guard).

Each returns an ``Outcome``: the final answer, or a model failure (the endpoint failed) or
a parse failure (the output lacks the structure the strategy asked for). A failure is never
turned into an answer, so it can never count as "no leak".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from redactor_eval.docpp import prompts
from redactor_eval.docpp.client import ChatClient, ChatError
from redactor_eval.docpp.records import Record, record_policy

STRATEGIES = ("default", "cot", "revision", "dva", "guard")


@dataclass
class Outcome:
    answer: str | None
    steps: dict = field(default_factory=dict)
    model_error: str | None = None
    parse_error: str | None = None


def _user(record: Record, doc_parts: list[dict], text: str | None = None) -> dict:
    parts = [{"type": "text", "text": text or record.query}, *doc_parts]
    if all(p["type"] == "text" for p in parts):
        # text-only servers (llama.cpp chat templates) reject content-part lists
        return {"role": "user", "content": "\n\n".join(p["text"] for p in parts)}
    return {"role": "user", "content": parts}


def _answer(client: ChatClient, record: Record, doc_parts: list[dict], cot: bool = False) -> str:
    system = prompts.ANSWER_SYSTEM.format(policy=record.policy) + (prompts.COT_SUFFIX if cot else "")
    return client.chat([{"role": "system", "content": system}, _user(record, doc_parts)])


_FINAL = re.compile(r"final answer\s*:?\s*", re.IGNORECASE)


def parse_cot(text: str) -> str | None:
    m = None
    for m in _FINAL.finditer(text):
        pass
    if m is None:
        return None
    answer = text[m.end():].strip()
    return answer or None


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$", re.MULTILINE)


def parse_elements(text: str) -> list[str]:
    return [m.group(1) for m in _BULLET.finditer(text)]


_SECTION = re.compile(r"\[\[\s*(reasoning|verify|final_answer)\s*\]\]", re.IGNORECASE)


def parse_verify(text: str) -> tuple[str | None, list[tuple[str, bool]]]:
    """The final answer and (element, valid) verdicts of DVA's verify output."""
    marks = list(_SECTION.finditer(text))
    sections = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        sections[m.group(1).lower()] = text[m.end():end].strip()
    verdicts = []
    for line in sections.get("verify", "").splitlines():
        m = re.match(r"^\s*(?:[-*•]|\d+[.)])?\s*(.+?)\s*<-\s*(valid|invalid)\b", line, re.IGNORECASE)
        if m:
            verdicts.append((m.group(1), m.group(2).lower() == "valid"))
    final = sections.get("final_answer")
    return (final or None), verdicts


def run_strategy(name: str, client: ChatClient, record: Record, doc_parts: list[dict]) -> Outcome:
    try:
        return _STRATEGY[name](client, record, doc_parts)
    except ChatError as exc:
        return Outcome(None, model_error=str(exc))


def _default(client, record, doc_parts) -> Outcome:
    answer = _answer(client, record, doc_parts)
    if not answer.strip():
        return Outcome(None, {"raw": answer}, parse_error="empty answer")
    return Outcome(answer.strip(), {"raw": answer})


def _cot(client, record, doc_parts) -> Outcome:
    raw = _answer(client, record, doc_parts, cot=True)
    final = parse_cot(raw)
    if final is None:
        return Outcome(None, {"raw": raw}, parse_error="no 'Final answer:' in the reply")
    return Outcome(final, {"raw": raw})


def _revision(client, record, doc_parts) -> Outcome:
    first = _answer(client, record, doc_parts)
    revised = client.chat([
        {"role": "system", "content": prompts.REVISION_SYSTEM.format(policy=record.policy)},
        {"role": "user", "content": prompts.REVISION_USER.format(question=record.query, answer=first)}])
    if not revised.strip():
        return Outcome(None, {"initial": first, "raw": revised}, parse_error="empty revision")
    return Outcome(revised.strip(), {"initial": first})


def _dva(client, record, doc_parts) -> Outcome:
    decomposed = client.chat([{"role": "system", "content": prompts.DECOMPOSE_SYSTEM},
                              _user(record, doc_parts)])
    elements = parse_elements(decomposed)
    steps = {"decomposed": decomposed, "elements": elements}
    if not elements:
        return Outcome(None, steps, parse_error="decomposition has no bulleted elements")
    verify = client.chat([
        {"role": "system", "content": prompts.VERIFY_SYSTEM},
        _user(record, doc_parts, prompts.VERIFY_USER.format(
            policy=record.policy, question=record.query,
            elements="\n".join(f"- {e}" for e in elements)))])
    final, verdicts = parse_verify(verify)
    steps.update(verify=verify, verdicts=[{"element": e, "valid": v} for e, v in verdicts])
    if final is None:
        return Outcome(None, steps, parse_error="no [[final_answer]] section")
    return Outcome(final, steps)


def _guard(client, record, doc_parts) -> Outcome:
    from redactor.errors import VerificationFailed
    from redactor.policy.guard import guard_text
    first = _answer(client, record, doc_parts)
    try:
        g = guard_text(record_policy(record), first,
                       placeholder="I cannot share that information under the disclosure policy.")
    except VerificationFailed as exc:
        return Outcome(None, {"initial": first}, parse_error=f"guard failed closed: {exc}")
    return Outcome(g.text, {"initial": first, "removed_claims": [c.text for c in g.removed]})


_STRATEGY = {"default": _default, "cot": _cot, "revision": _revision, "dva": _dva, "guard": _guard}
