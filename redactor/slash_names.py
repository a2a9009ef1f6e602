"""People whose names a slash joins ("Williams/Giordano", "Smith/Jones", as memos and forms
list a project's two contacts or a letter's authors) are two people: a PERSON span across
the slash is cut into one span per name, and a PERSON span that ends (or starts) at such a
slash brings the name on its other side in as a PERSON of its own, so each name gets a box
of its own and none is left readable (the aligner cuts the word box at the slash's ink,
``redactor.edge_trim.cut_at_slash``, for persons only). Pure function on spans and the
page text."""
from __future__ import annotations

import re

from redactor.model import Span

# A slash with a name word right on both sides: a letter before it, a capital after it.
_JOIN = re.compile(r"(?<=[A-Za-z.])/(?=[A-Z][a-z])|(?<=[A-Z]{2})/(?=[A-Z]{2})")
# Each part a name: capitalised words, initials, hyphens and apostrophes, at least 2 letters.
_PART = re.compile(r"[A-Z][A-Za-z.'\-]*(?:\s+[A-Z][A-Za-z.'\-]*)*")
# The name on the other side of a slash the span stops at, within the same word.
_AFTER = re.compile(r"/([A-Z][A-Za-z.'\-]+)")
_BEFORE = re.compile(r"([A-Z][A-Za-z.'\-]+)/$")


def split_slash_joined_names(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with each PERSON span whose text joins names with a slash cut into one
    span per name (a span with any part that is no name, "3/4", "and/or", is kept), and the
    name across a slash from a PERSON span's edge added."""
    out: list[Span] = []
    for s in _with_neighbours(text, spans):
        value = text[s.start:s.end]
        cuts = [m.start() for m in _JOIN.finditer(value)] if s.type == "PERSON" else []
        if not cuts:
            out.append(s)
            continue
        bounds = [0, *[c for cut in cuts for c in (cut, cut + 1)], len(value)]
        parts = [(bounds[k], bounds[k + 1]) for k in range(0, len(bounds), 2)]
        if not all(_PART.fullmatch(value[a:b].strip()) and sum(c.isalpha() for c in value[a:b]) >= 2
                   for a, b in parts):
            out.append(s)
            continue
        for a, b in parts:
            lead = len(value[a:b]) - len(value[a:b].lstrip())
            trail = len(value[a:b]) - len(value[a:b].rstrip())
            start, end = s.start + a + lead, s.start + b - trail
            out.append(s.with_(start=start, end=end, text=text[start:end]))
    return out


def _with_neighbours(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` and, for each PERSON span whose first or last word goes on across a slash
    into another name ("Williams" of "Williams/Giordano"), that name as a PERSON span."""
    taken = {(s.start, s.end) for s in spans if s.type == "PERSON"}
    extra: list[Span] = []
    absorbed: set[int] = set()
    for s in spans:
        if s.type != "PERSON":
            continue
        after = _AFTER.match(text, s.end)
        if after and (after.start(1), after.end(1)) not in taken:
            end = after.end(1)
            # the slash took the name's first initial into its word ("Anders/J. E. Mann"):
            # the rest of the name, found as a name of its own, is the same person
            rest = _rest_of_name(text, end, spans)
            if rest is not None:
                absorbed.add(id(rest))
                end = rest.end
            extra.append(s.with_(start=after.start(1), end=end, text=text[after.start(1):end]))
            taken.add((after.start(1), after.end(1)))
        head = text[max(0, s.start - 40):s.start]
        before = _BEFORE.search(head)
        if before and not head[:before.start()].endswith("/") and \
                (before.start() == 0 or not head[before.start() - 1].isalnum()):
            a = s.start - len(head) + before.start(1)
            b = s.start - len(head) + before.end(1)
            if (a, b) not in taken:
                extra.append(s.with_(start=a, end=b, text=text[a:b]))
                taken.add((a, b))
    return [s for s in spans if id(s) not in absorbed] + extra


def _rest_of_name(text: str, end: int, spans: list[Span]) -> Span | None:
    """The PERSON span that goes on, after one space on the same line, from an initial at
    ``end`` ("J." then "E. Mann"), or None."""
    if text[end - 1:end] != "." or text[end:end + 1] != " ":
        return None
    return next((t for t in spans if t.type == "PERSON" and t.start == end + 1), None)
