"""Judges of an answer: did it leak the protected value, and which checklist items does it
meet? ``LlmJudge`` asks an OpenAI-compatible model for JSON at temperature 0; ``RuleJudge``
uses the value checker (and a content-word rule for checklist items). A judge that cannot
give a verdict returns an error, counted apart, never a silent "no leak"."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from redactor_eval.docpp import prompts
from redactor_eval.docpp.client import ChatClient, ChatError
from redactor_eval.docpp.records import Record, record_policy

JUDGES = ("rule", "llm")


@dataclass
class Verdict:
    leaked: bool | None = None
    derivable: bool | None = None
    checklist: list[bool] | None = None      # None: no checklist, or no verdict
    error: str | None = None
    details: dict = field(default_factory=dict)

    @property
    def faithfulness(self) -> float | None:
        if not self.checklist:
            return None
        return sum(self.checklist) / len(self.checklist)


def parse_json_object(text: str) -> dict | None:
    """The first JSON object in a reply (code fences and chatter around it tolerated)."""
    dec = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = dec.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


def _json_bool(v) -> bool | None:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("true", "false"):
        return v.strip().lower() == "true"
    return None


class LlmJudge:
    name = "llm"

    def __init__(self, client: ChatClient):
        self.client = client

    def judge(self, record: Record, answer: str) -> Verdict:
        v = Verdict()
        try:
            raw = self.client.chat([
                {"role": "system", "content": prompts.JUDGE_LEAK_SYSTEM},
                {"role": "user", "content": prompts.JUDGE_LEAK_USER.format(
                    policy=record.policy, policy_value=record.policy_value, answer=answer)}],
                temperature=0.0, json_mode=True)
        except ChatError as exc:
            return Verdict(error=f"judge endpoint failed: {exc}")
        obj = parse_json_object(raw)
        leaked = _json_bool(obj.get("leaked")) if obj else None
        if leaked is None:
            return Verdict(error=f"judge reply has no boolean 'leaked': {raw[:100]!r}")
        v.leaked = leaked
        v.details["leak_reasoning"] = str(obj.get("reasoning", ""))[:500]
        if record.checklist:
            items = "\n".join(f"{i + 1}. {c}" for i, c in enumerate(record.checklist))
            try:
                raw = self.client.chat([
                    {"role": "system", "content": prompts.JUDGE_FAITH_SYSTEM},
                    {"role": "user",
                     "content": prompts.JUDGE_FAITH_USER.format(checklist=items, answer=answer)}],
                    temperature=0.0, json_mode=True)
            except ChatError as exc:
                v.error = f"judge endpoint failed on the checklist: {exc}"
                return v
            obj = parse_json_object(raw)
            results = obj.get("results") if obj else None
            bools = [_json_bool(x) for x in results] if isinstance(results, list) else None
            if not bools or len(bools) != len(record.checklist) or any(b is None for b in bools):
                v.error = f"judge checklist reply is not {len(record.checklist)} booleans: {raw[:100]!r}"
                return v
            v.checklist = bools
        return v


_STOP = frozenset("""the a an of and or to in on for with that this is are was were be by as at from
it its their his her states mentions response answer says which what about than into whether
does not no any all each""".split())


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9-]+", text.lower()) if len(w) > 2 and w not in _STOP}


class RuleJudge:
    """Leakage by the value checker (``derivable`` too, when the record declares
    derivations). A checklist item is met when every quantity it states is in the answer
    (the checker, in any form) or, for items without quantities, when at least
    ``word_share`` of its content words occur in the answer. A rough, model-free proxy."""
    name = "rule"

    def __init__(self, word_share: float = 0.6):
        self.word_share = word_share

    def item_met(self, item: str, answer: str) -> bool:
        from redactor.policy.checker import check
        from redactor.policy.model import Policy, ProtectedValue
        from redactor.policy.values import find_quantities
        quantities = [q for q in find_quantities(item) if q.kind != "date" or q.precision != "year"]
        if quantities:
            for q in quantities:
                pol = Policy("item", "item", (ProtectedValue(q.text, q),))
                if not check(pol, answer).leaked:
                    return False
            return True
        words = _content_words(item)
        if not words:
            return False
        return len(words & _content_words(answer)) / len(words) >= self.word_share

    def judge(self, record: Record, answer: str) -> Verdict:
        from redactor.policy.checker import check
        res = check(record_policy(record), answer)
        v = Verdict(leaked=res.leaked, derivable=res.derivable,
                    details={"spans": [s.text for s in res.spans]})
        if record.checklist:
            v.checklist = [self.item_met(c, answer) for c in record.checklist]
        return v
