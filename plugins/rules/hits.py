"""The candidate a rule produces before merging: a rule name, a character range of the page
text and a score."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    rule: str
    start: int
    end: int
    score: float


def trim(text: str, start: int, end: int, chars: str = " \n\t,;:.") -> tuple[int, int]:
    """Shrink [start, end) so that it neither starts nor ends with whitespace or the given
    punctuation (a trailing '.' of an abbreviation is kept by callers that need it)."""
    while start < end and text[start] in chars:
        start += 1
    while end > start and text[end - 1] in chars:
        end -= 1
    return start, end
