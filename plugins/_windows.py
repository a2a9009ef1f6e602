"""Text windowing and span merging for detectors whose models see a limited number of tokens.

A page text is cut into overlapping windows of whole units (words or tokens) whose summed
cost (usually sub-word tokens) stays within a budget; a detector runs on each window, its
spans are shifted back to page offsets, and the spans of all windows are merged: same-type
spans that overlap become one, a span inside a stronger span of another type is dropped.
Pure functions only, so they are tested without any model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from redactor.plugin_api import Span

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Unit:
    """A piece of the text a model counts: characters [start, end) costing ``cost`` tokens."""
    start: int
    end: int
    cost: int = 1


@dataclass(frozen=True)
class Window:
    """Characters [start, end) of the page text, made of whole units."""
    start: int
    end: int


def whitespace_units(text: str) -> list[Unit]:
    """Every run of non-space characters, cost 1 each."""
    return [Unit(m.start(), m.end(), 1) for m in _WORD.finditer(text)]


def plan_windows(units: Sequence[Unit], budget: int, overlap: int,
                 max_units: int | None = None) -> list[Window]:
    """Group consecutive units into windows whose cost sums to at most ``budget`` (and of
    at most ``max_units`` units, when the model also counts words); each
    window after the first starts ``overlap`` units (at most) before the previous one ended,
    so an entity cut at one window's edge is whole in the next. A single unit costlier than
    the budget gets a window of its own (the model truncates it; nothing is skipped).
    Every unit lies in at least one window."""
    if budget < 1:
        raise ValueError(f"window budget must be at least 1 token, got {budget}")
    if max_units is not None and max_units < 1:
        raise ValueError(f"window size must be at least 1 unit, got {max_units}")
    if overlap < 0:
        raise ValueError(f"window overlap must be >= 0, got {overlap}")
    windows: list[Window] = []
    n = len(units)
    i = 0
    while i < n:
        j = i
        cost = 0
        while j < n and (j == i or (cost + units[j].cost <= budget
                                    and (max_units is None or j - i < max_units))):
            cost += units[j].cost
            j += 1
        windows.append(Window(units[i].start, units[j - 1].end))
        if j >= n:
            break
        # next window starts `overlap` units back, but always moves forward by one unit
        i = max(i + 1, j - overlap)
    return windows


def shift(spans: Iterable[Span], offset: int) -> list[Span]:
    return [s.with_(start=s.start + offset, end=s.end + offset) for s in spans]


def trim(span: Span, text: str) -> Span | None:
    """Drop leading/trailing whitespace and stray punctuation models like to include;
    None if nothing is left."""
    start, end = span.start, span.end
    while start < end and (text[start].isspace() or text[start] in ",;:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:"):
        end -= 1
    if start >= end:
        return None
    return span.with_(start=start, end=end, text=text[start:end])


_JOINABLE_GAP = re.compile(r"[ \t,]*")


def merge_spans(spans: Iterable[Span], text: str, join_adjacent: bool = False) -> list[Span]:
    """Trim, then merge: overlapping spans of one type become their union (highest score);
    with ``join_adjacent``, so do same-type spans separated only by spaces or commas on one
    line (a first and a last name, a city and a postcode). A span lying inside a span of
    another type with at least its score is dropped (e.g. a URL inside an e-mail address).
    Sorted by start, end, type."""
    by_type: dict[str, list[Span]] = {}
    for s in spans:
        t = trim(s, text)
        if t is not None:
            by_type.setdefault(t.type, []).append(t)
    merged: list[Span] = []
    for typed in by_type.values():
        typed.sort(key=lambda s: (s.start, s.end))
        cur = typed[0]
        for s in typed[1:]:
            if s.start < cur.end or (join_adjacent and _JOINABLE_GAP.fullmatch(text[cur.end:s.start])):
                end = max(cur.end, s.end)
                cur = cur.with_(end=end, score=max(cur.score, s.score), text=text[cur.start:end])
            else:
                merged.append(cur)
                cur = s
        merged.append(cur)
    kept = [s for s in merged if not any(_outranks(o, s) for o in merged)]
    return sorted(kept, key=lambda s: (s.start, s.end, s.type))


def _outranks(o: Span, s: Span) -> bool:
    """Whether ``o``, of another type, contains ``s`` and wins: a longer span needs at least
    s's score; an identical range needs a higher score (ties go to the smaller type name, so
    exactly one of two equal spans survives)."""
    if o.type == s.type or not (o.start <= s.start and s.end <= o.end):
        return False
    if (o.start, o.end) != (s.start, s.end):
        return o.score >= s.score
    return (o.score, s.type) > (s.score, o.type)
