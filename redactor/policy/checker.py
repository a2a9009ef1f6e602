"""The model-free value leak checker: does a text disclose a policy's protected value, or
every operand of a declared derivation of it?

``check(policy, text) -> CheckResult(leaked, derivable, spans)``. A stated quantity matches
a protected one when they are of the same kind (amount, ratio, date), of one dimension
(same currency or unit dimension; counts of the same group, see units.py; a bare number
compares with any count), and one is a rounding of the other at its shown precision, or
they agree within the policy's relative tolerance (another currency: within 1 %). The
match is ``exact`` (same value, same way of writing it), ``converted`` (same value, other
scale/unit/form: "$5,000,000" for "$5 million", "a quarter" for "25 %") or ``rounded``
(within the shown precision: "$5.2 million" for "$5,213,000"). Values that state no single
quantity (names, phrases) match as text, ignoring case, spacing and punctuation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from functools import lru_cache

from redactor.policy.model import Policy, PolicySet, ProtectedValue, as_policy_set
from redactor.policy.units import count_noun, counts_compatible
from redactor.policy.values import Quantity, find_quantities

_PRECISION_RANK = {"day": 0, "month": 1, "year": 2}
_EPS = Decimal("1e-12")
_FX_AGREEMENT = Decimal("0.01")


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


def _counts_clash(p: Quantity, t: Quantity) -> bool:
    """Two bare numbers that count different things ("17 employees", "17 offices")."""
    if not (p.noun and t.noun):
        return False
    a, b = count_noun(p.noun), count_noun(t.noun)
    if a and b:
        return not counts_compatible(a, b)
    return _singular(p.noun) != _singular(t.noun)


def _rounds_to(value: Decimal, step: Decimal, shown: Decimal) -> bool:
    """Is ``shown`` ``value`` rounded to ``step``, half-up or half-to-even (a text may use
    either: 12.5 % is shown as 13 % or 12 %, 0.415 only as 0.42)?"""
    if step <= 0:
        return abs(value - shown) <= _EPS
    k = value / step
    return any(abs(k.to_integral_value(rounding=r) * step - shown) <= _EPS
               for r in (ROUND_HALF_UP, ROUND_HALF_EVEN))


def _within(p: Decimal, p_step: Decimal, t: Decimal, t_step: Decimal, slack: Decimal) -> bool:
    """Does ``t`` state ``p``? The text is a rounding of the value at the text's precision,
    or lies strictly within half a step of the value at the policy's precision (a text
    value exactly halfway to the next rounded value is as close to that neighbour:
    "$5.5 million" does not state "$5 million"), or within the tolerance."""
    diff = abs(p - t)
    return _rounds_to(p, t_step, t) or diff < p_step / 2 - _EPS or diff <= slack + _EPS


def compare(p: Quantity, t: Quantity, tolerance: float = 0.0, rates: dict | None = None) -> str | None:
    """How the text's quantity ``t`` discloses the protected ``p``: exact, converted,
    rounded, or None."""
    if p.kind != t.kind:
        return None
    if p.kind == "date":
        return _date_match(p, t)
    pv, tv, tstep = p.value, t.value, t.step
    converted = False
    tol = Decimal(str(tolerance)) * abs(pv)
    if p.kind == "amount":
        if p.dimension and t.dimension:
            if p.dimension != t.dimension:
                return None
            if p.dimension == "currency" and p.currency != t.currency:
                rates = rates or {}
                if p.currency not in rates or t.currency not in rates:
                    return None
                factor = rates[t.currency] / rates[p.currency]
                tv = tv * factor
                # A figure in another currency states the value only when it agrees to
                # the precision of a conversion (1 %), not to its own coarse rounding:
                # "€5 million" is a round figure of its own, not $5 million at 1.08.
                if abs(pv - tv) > max(_FX_AGREEMENT * abs(pv), tol) + _EPS:
                    return None
                return "converted"
            elif p.unit != t.unit:
                converted = True
        elif p.dimension and t.noun:
            return None          # "42 employees" never discloses "$42"
        elif t.dimension and p.noun:
            return None
        elif not p.dimension and not t.dimension and _counts_clash(p, t):
            return None
    if not _within(pv, p.step, tv, tstep, tol):
        return None
    if abs(pv - tv) <= _EPS:
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
