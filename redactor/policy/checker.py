"""The model-free value leak checker: does a text disclose a policy's protected value, or
every operand of a declared derivation of it?

``check(policy, text) -> CheckResult(leaked, derivable, spans)``. A stated quantity matches
a protected one when they are of the same kind (amount, ratio, date), of compatible units
(same currency or unit dimension, or a bare number that counts no things), and their values
differ by at most half of the coarser shown precision (plus the policy's own relative
tolerance). The match is ``exact`` (same value, same way of writing it), ``converted``
(same value, other scale/unit/form: "$5,000,000" for "$5 million", "a quarter" for "25 %")
or ``rounded`` (within the shown precision: "$5.2 million" for "$5,213,000"). Values that
state no single quantity (names, phrases) match as text, ignoring case, spacing and
punctuation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from redactor.policy.model import Policy, PolicySet, ProtectedValue, as_policy_set
from redactor.policy.values import Quantity, find_quantities

_PRECISION_RANK = {"day": 0, "month": 1, "year": 2}
_EPS = Decimal("1e-12")


@dataclass(frozen=True)
class LeakSpan:
    """Characters [start, end) of the checked text that state a protected value
    (role ``value``) or an operand of one of its derivations (role ``operand``)."""
    start: int
    end: int
    text: str
    policy_id: str
    role: str
    match: str       # exact | converted | rounded | text
    value: str       # the protected value or operand as the policy wrote it


@dataclass(frozen=True)
class CheckResult:
    leaked: bool
    derivable: bool
    spans: tuple[LeakSpan, ...]
    leaked_policies: tuple[str, ...] = ()
    derivable_policies: tuple[str, ...] = ()

    @property
    def value_spans(self) -> tuple[LeakSpan, ...]:
        return tuple(s for s in self.spans if s.role == "value")

    @property
    def operand_spans(self) -> tuple[LeakSpan, ...]:
        return tuple(s for s in self.spans if s.role == "operand")

    def to_json(self) -> dict:
        return {"leaked": self.leaked, "derivable": self.derivable,
                "leaked_policies": list(self.leaked_policies),
                "derivable_policies": list(self.derivable_policies),
                "spans": [s.__dict__ for s in self.spans]}


def _singular(noun: str) -> str:
    return noun[:-1] if noun.endswith("s") else noun


def _date_match(p: Quantity, t: Quantity) -> str | None:
    # the text must be at least as precise as the policy: "2024" does not disclose 5 March 2024
    if _PRECISION_RANK[t.precision] > _PRECISION_RANK[p.precision]:
        return None

    def key(d):
        return (d.year, d.month, d.day)[: 3 - _PRECISION_RANK[p.precision]]
    if not {key(d) for d in p.dates} & {key(d) for d in t.dates}:
        return None
    same = re.sub(r"\W", "", p.text.lower()) == re.sub(r"\W", "", t.text.lower())
    return "exact" if same else "converted"


def compare(p: Quantity, t: Quantity, tolerance: float = 0.0, rates: dict | None = None) -> str | None:
    """How the text's quantity ``t`` discloses the protected ``p``: exact, converted,
    rounded, or None."""
    if p.kind != t.kind:
        return None
    if p.kind == "date":
        return _date_match(p, t)
    pv, tv, tstep = p.value, t.value, t.step
    converted = False
    if p.kind == "amount":
        if p.dimension and t.dimension:
            if p.dimension != t.dimension:
                return None
            if p.dimension == "currency" and p.currency != t.currency:
                rates = rates or {}
                if p.currency not in rates or t.currency not in rates:
                    return None
                factor = rates[t.currency] / rates[p.currency]
                tv, tstep, converted = tv * factor, tstep * factor, True
            elif p.unit != t.unit:
                converted = True
        elif p.dimension and t.noun:
            return None          # "42 employees" never discloses "$42"
        elif t.dimension and p.noun:
            return None
        elif not p.dimension and not t.dimension and p.noun and t.noun \
                and _singular(p.noun) != _singular(t.noun):
            return None
    diff = abs(pv - tv)
    allowed = max(p.step, tstep) / 2 + Decimal(str(tolerance)) * abs(pv) + _EPS
    if diff > allowed:
        return None
    if diff <= _EPS:
        if converted or p.unit != t.unit or p.form != t.form or p.scale != t.scale \
                or p.dimension != t.dimension:
            return "converted"
        return "exact"
    return "rounded"


@lru_cache(maxsize=1024)
def _text_pattern(raw: str) -> re.Pattern | None:
    tokens = re.findall(r"\w+", raw)
    if not tokens:
        return None
    body = r"[\W_]*".join(re.escape(t) for t in tokens)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def _matches(pv: ProtectedValue, text: str, quantities: list[Quantity], tolerance: float,
             rates: dict) -> list[tuple[int, int, str]]:
    if pv.quantity is None:
        pat = _text_pattern(pv.raw)
        return [(m.start(), m.end(), "text") for m in pat.finditer(text)] if pat else []
    out = []
    for q in quantities:
        how = compare(pv.quantity, q, tolerance, rates)
        if how:
            out.append((q.start, q.end, how))
    return out


def _check_one(policy: Policy, text: str, quantities: list[Quantity]) -> tuple[bool, bool, list[LeakSpan]]:
    spans: list[LeakSpan] = []
    for pv in policy.values:
        for s, e, how in _matches(pv, text, quantities, policy.tolerance, policy.rates):
            spans.append(LeakSpan(s, e, text[s:e], policy.id, "value", how, pv.raw))
    leaked = bool(spans)
    derivable = False
    for d in policy.derivations:
        found = []
        for op in d.operands:
            hits = _matches(op, text, quantities, policy.tolerance, policy.rates)
            found.append([LeakSpan(s, e, text[s:e], policy.id, "operand", how, op.raw)
                          for s, e, how in hits])
        if all(found):
            derivable = True
        for hits in found:
            spans.extend(hits)
    return leaked, derivable, spans


def check(policy: Policy | PolicySet, text: str) -> CheckResult:
    """Check ``text`` against one policy or a set (leaked/derivable if any policy is)."""
    quantities = find_quantities(text)
    spans: list[LeakSpan] = []
    leaked_ids, derivable_ids = [], []
    for p in as_policy_set(policy):
        leaked, derivable, s = _check_one(p, text, quantities)
        spans.extend(s)
        if leaked:
            leaked_ids.append(p.id)
        if derivable:
            derivable_ids.append(p.id)
    uniq = {(s.start, s.end, s.policy_id, s.role, s.value): s for s in spans}
    ordered = tuple(sorted(uniq.values(), key=lambda s: (s.start, s.end, s.role)))
    return CheckResult(bool(leaked_ids), bool(derivable_ids), ordered,
                       tuple(leaked_ids), tuple(derivable_ids))
