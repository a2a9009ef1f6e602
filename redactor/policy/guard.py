"""Answer guarding: split a text answer into atomic claims (sentences, clauses separated by
semicolons, list items), drop every claim that discloses a protected value and, unless
told otherwise, enough claims stating derivation operands that the value can no longer be
computed. This is DVA's verify step with the value checker as the verifier: no model.
The result is checked again and the guard fails closed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from redactor.errors import VerificationFailed
from redactor.policy.checker import CheckResult, check
from redactor.policy.model import Policy, PolicySet

# A claim ends at sentence punctuation followed by space (not a decimal point: "5.2"),
# at a semicolon, or at a line break; list markers start their own claim.
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9$€£¥*•-])|;\s+|\n+")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|Inc|Ltd|Co|Corp|Mr|Mrs|Ms|Dr|No|St|U\.S)\."
                     r"|\b[A-Z]\.)$")


@dataclass(frozen=True)
class Claim:
    start: int
    end: int      # end of the claim's own text
    stop: int     # where the next claim starts (separator included)
    text: str


def split_claims(text: str) -> list[Claim]:
    """Atomic claims of ``text`` with offsets; concatenating text[start:stop] of all
    claims gives back the text from the first claim on."""
    cuts = [0]
    for m in _BOUNDARY.finditer(text):
        before = text[cuts[-1]:m.start()]
        if _ABBREV.search(before):
            continue
        cuts.append(m.end())
    cuts.append(len(text))
    claims = []
    for a, b in zip(cuts, cuts[1:]):
        seg = text[a:b]
        if not seg.strip():
            continue
        lead = len(seg) - len(seg.lstrip())
        body = seg.strip()
        start = a + lead
        claims.append(Claim(start, start + len(body), b, body))
    return claims


@dataclass(frozen=True)
class GuardResult:
    text: str
    removed: tuple[Claim, ...]
    kept: tuple[Claim, ...]
    before: CheckResult
    after: CheckResult

    @property
    def changed(self) -> bool:
        return bool(self.removed)


def _overlapping(claims: list[Claim], start: int, end: int) -> list[int]:
    return [i for i, c in enumerate(claims) if c.start < end and start < c.stop]


def _assemble(text: str, claims: list[Claim], keep: list[bool]) -> str:
    # one space between claims of a paragraph, newlines where the text had them
    out = []
    for c, k in zip(claims, keep):
        if not k:
            continue
        sep = text[c.end:c.stop]
        out.append(c.text)
        out.append("\n" if "\n" in sep else " ")
    return "".join(out).strip()


def guard_text(policy: Policy | PolicySet, text: str, break_derivations: bool = True,
               placeholder: str = "") -> GuardResult:
    """Remove the claims of ``text`` that disclose a protected value (and, with
    ``break_derivations``, operands until no declared derivation is complete)."""
    before = check(policy, text)
    claims = split_claims(text)
    keep = [True] * len(claims)
    for s in before.value_spans:
        for i in _overlapping(claims, s.start, s.end):
            keep[i] = False
    if break_derivations:
        for _ in range(len(claims)):
            current = _assemble(text, claims, keep)
            res = check(policy, current)
            if not res.derivable:
                break
            # map operand spans of the current text back to claims: re-check claim by claim
            last = None
            for i, c in enumerate(claims):
                if keep[i] and check(policy, c.text).operand_spans:
                    last = i
            if last is None:
                # an operand spans two claims: give up on this text rather than keep it
                keep = [False] * len(claims)
                break
            keep[last] = False
    result = _assemble(text, claims, keep)
    if not result and placeholder:
        result = placeholder
    after = check(policy, result)
    if after.leaked or (break_derivations and after.derivable):
        raise VerificationFailed("guarded answer still discloses a protected value "
                                 f"({', '.join(after.leaked_policies or after.derivable_policies)})")
    removed = tuple(c for c, k in zip(claims, keep) if not k)
    kept = tuple(c for c, k in zip(claims, keep) if k)
    return GuardResult(result, removed, kept, before, after)
