"""Merging the spans of several detectors run on the same OCR page into one set of
non-overlapping spans, without ever losing a critical character any member found.

The rule (pure, order-independent):
0. With the page text, a PERSON span is first cut at line breaks and sentence ends (a name is
   written on one line, inside one sentence; ``split_names_at_line_ends``), and a model's
   LOCATION at line breaks (a form's place field and the field under it); every piece stays.
1. Spans that share at least one character form a cluster (transitively).
2. The cluster's winner is the span ranked highest by: critical type (direct + linkage) before
   the rest, then the strength of the evidence behind it (``evidence_of``: a label or a
   checksum > a pattern > a statistical model), then higher score, then the fixed type
   priority ``DEFAULT_PRIORITY`` (more specific identifiers first), then the tighter
   (shorter) span. Scores of different detectors are not comparable (Presidio's 0.85 for
   a spaCy PERSON says nothing against our 0.75 for the name line under "Sincerely,"), so
   they only decide between findings of equal evidence.
3. The winner takes its type and the union extent of the cluster's spans of that type from
   the same detector (parts of one value a detector's rules found); every span of the
   cluster inside that extent is absorbed.
   With the page text, the winner also takes the rest of any word it shares with spans of
   its type or of weaker evidence (a word is the smallest thing a box hides).
4. The parts of the other spans that stick out of the winner are kept, each with its own
   type, and merged again by the same rule. So every character any member found stays
   covered, every character of a critical span stays inside a critical span (a critical
   winner beats every non-critical span), and a sloppy long span ("Maria Lopez February 19,"
   from one detector beside "Maria Lopez" from another) neither widens the tight box of the
   value nor retypes another critical value it merely touches: its extra words become a
   separate span.
5. The merged span records every detector of its cluster in ``detector``, joined by "+", and
   the highest score among spans of its type.
   One exception: the type is decided by evidence before a model's guess. An organisation
   found by its form or its label (pattern or label evidence: a legal form, a firm of
   partners, "Company:") wins over names a model guessed in it, when they are the cluster's
   only critical spans: the surnames in "James, Compton and Becker LLP", spaCy's PERSON on
   all of "Qorvis MSL LLC", its PERSON "Marc Elrich Marc Elrich" reaching into "Friends of
   Marc Elrich". What of such a name sticks out of the organisation stays a PERSON (rule 4),
   every character stays covered, and a run restricted to critical types drops organisation
   spans before merging, so that the names stand there.
6. With the page text, "Last, First M." is one name: a one-word PERSON span followed after
   ", " by a PERSON span of one or two words becomes one span (``join_inverted_names``).
7. With the page text, a web address or e-mail is written without spaces: two ONLINE_ID (or
   two EMAIL) spans on one line with only a space, perhaps after a stop, comma or colon,
   between them are pieces of one address OCR broke ("www.smith" "U8oper.biz"), and become
   one span, unless the second begins a new address ("www.", "http") or both hold an @
   (``join_split_addresses``).
8. With the page text, two PERSON spans of at most three words on one line with only one or
   two tokens of marks between them (no letter, digit, comma, slash or "&": OCR's reading
   of a middle initial, "Robert £ Mulhorin", or of a fill-in line) are one name
   (``join_names_across_marks``).
9. With the page text, two PERSON spans a space apart on one line that one input PERSON span
   holds whole (the rules' "D. Colin" and the part "Selley," of the model's "D. Colin
   Selley" that rule 4 kept) are one name, one box (``join_names_read_whole``).
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

from redactor.census_names import given_names, surnames
from redactor.errors import InputError
from redactor.model import PATTERN, STATISTICAL, STRUCTURAL, Span  # noqa: F401 (tiers re-exported)
from redactor.taxonomy import is_critical, is_known

# More specific identifiers first: when two equally scored findings disagree, the one that
# says more about what the characters are wins.
DEFAULT_PRIORITY: tuple[str, ...] = (
    "CARD_NUMBER", "ID_NUMBER", "ACCOUNT_NUMBER", "EMAIL", "PHONE", "ONLINE_ID",
    "REFERENCE_NUMBER", "ADDRESS", "PERSON", "BUSINESS_ID", "DATE", "ORGANIZATION", "LOCATION",
    "SIGNATURE", "OTHER",
)


def evidence_of(span: Span) -> int:
    """The evidence tier the detector declared for ``span`` (``Span.evidence``, filled by the
    pipeline from ``Detector.evidence_of``); a span without one counts as a statistical
    guess. Merged spans carry the strongest of their members'."""
    return span.evidence or STATISTICAL


def _critical(t: str) -> bool:
    return is_known(t) and is_critical(t)


def _rank(span: Span, priority: Sequence[str], evidence: Callable[[Span], int]):
    prio = priority.index(span.type) if span.type in priority else len(priority)
    # among equals the tighter span wins: its box matches the value; what the looser one
    # adds is kept beside it as its own span
    return (_critical(span.type), evidence(span), span.score, -prio, -(span.end - span.start),
            -span.start)


def _detectors(spans: Iterable[Span]) -> str:
    names = sorted({d for s in spans for d in s.detector.split("+") if d})
    return "+".join(names)


def _joined(prev: Span, s: Span, text: str) -> Span:
    """Two spans of one value (``prev`` before ``s``) as one: the extent of both, the
    higher score, every detector and the stronger evidence."""
    return prev.with_(end=s.end, score=max(prev.score, s.score), detector=_detectors([prev, s]),
                      text=text[prev.start:s.end], evidence=max(evidence_of(prev), evidence_of(s)))


def _clusters(spans: list[Span]) -> list[list[Span]]:
    out: list[list[Span]] = []
    end = -1
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        if out and s.start < end:
            out[-1].append(s)
            end = max(end, s.end)
        else:
            out.append([s])
            end = s.end
    return out


def _strip(span: Span, text: str | None) -> Span | None:
    s, e = span.start, span.end
    if text is not None:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if not any(c.isalnum() for c in text[s:e]):
            return None
    if e <= s:
        return None
    return span.with_(start=s, end=e, text=text[s:e] if text is not None else "")


def _firm_holding_names(cluster: list[Span], evidence: Callable[[Span], int]) -> Span | None:
    """An organisation found by its form or label (pattern or label evidence) that every
    critical span of the cluster overlaps, all of them names guessed by a model: the
    surnames in "James, Compton and Becker LLP" are part of the firm's name, and a model's
    PERSON on all of "Qorvis MSL LLC" is a model's guess against a legal form. Each name
    must overlap the firm itself: a name the cluster joins to it only through a neighbour
    is another value, and then the firm does not win."""
    firms = [s for s in cluster if s.type == "ORGANIZATION" and evidence(s) >= PATTERN]
    for firm in sorted(firms, key=lambda s: s.start - s.end):
        inside = [s for s in cluster if _critical(s.type)]
        if inside and all(s.type == "PERSON" and evidence(s) == STATISTICAL and
                          s.start < firm.end and firm.start < s.end for s in inside):
            return firm
    return None


def _resolve(cluster: list[Span], text: str | None, priority: Sequence[str],
             evidence: Callable[[Span], int]) -> list[Span]:
    winner = _firm_holding_names(cluster, evidence) or max(cluster, key=lambda s: _rank(s, priority, evidence))
    # parts of one value found by the same detector's rules join; other detectors' spans
    # do not widen it
    start, end = winner.start, winner.end
    grown = True
    while grown:    # same type, same detector, overlapping the extent (transitively)
        grown = False
        for s in cluster:
            if s.type == winner.type and s.detector == winner.detector and s.start < end and \
                    start < s.end and (s.start < start or s.end > end):
                start, end = min(start, s.start), max(end, s.end)
                grown = True
    if text is not None:
        # a word is the smallest thing a box hides: the winner takes the rest of a word it
        # shares with spans of weaker evidence or its own type ("664-" of a fallback guess
        # beside Presidio's "T29" in "664-T29"), or both would box the word twice under
        # two types; an equally supported value of another type keeps its characters
        top = evidence(winner)

        def covered(i: int) -> bool:
            over = [s for s in cluster if s.start <= i < s.end]
            return bool(over) and all(s.type == winner.type or evidence(s) < top for s in over)
        while start > 0 and not text[start - 1].isspace() and covered(start - 1):
            start -= 1
        while end < len(text) and not text[end].isspace() and covered(end):
            end += 1
    pieces: list[Span] = []
    for s in cluster:
        if start <= s.start and s.end <= end:
            continue
        # a span of another type that sticks out keeps what lies outside, with its type
        if s.start < start:
            pieces.append(s.with_(end=min(s.end, start)))
        if s.end > end:
            pieces.append(s.with_(start=max(s.start, end)))
    merged = Span(start, end, winner.type,
                  max(s.score for s in cluster if s.type == winner.type),
                  _detectors(cluster), text[start:end] if text is not None else
                  winner.text if (start, end) == (winner.start, winner.end) else "",
                  max(evidence(s) for s in cluster))
    out = [merged]
    kept = [p for p in (_strip(p, text) for p in pieces) if p is not None]
    out.extend(merge_spans(kept, text=text, priority=priority, evidence=evidence))
    return out


# Abbreviations whose dot ends no sentence inside a name ("Dr. Maria Lopez", "John Smith Jr.")
_NAME_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "rev", "hon",
                                 "capt", "col", "gen", "lt", "sgt", "mt", "ft"})
_LINE_END = re.compile(r"\n+")
_LINE_OR_SENTENCE_END = re.compile(r"\n+|(?<=[A-Za-z]{3})\.[ ]+(?=[A-Z])")


def split_names_at_line_ends(spans: Iterable[Span], text: str) -> list[Span]:
    """A person's name is written on one line and within one sentence: a PERSON span that
    runs over a line break ("Renee L. Sullivan\nClothing/Textile Technologist", a model
    reading on into the job title under a signature) or over a sentence end ("approved by
    Patrick Lee. Copies of") is cut there; every piece stays a PERSON span, so nothing any
    detector found is dropped. A place a model found is cut at line breaks the same way:
    on a form a place is one field's value ("The Russian Federation"), and a model reads on
    into the field under it ("Gazpom Export"); places found by rules or labels stay whole
    (an address's town may wrap)."""
    out = []
    for s in spans:
        place = s.type == "LOCATION" and evidence_of(s) == STATISTICAL
        if s.type != "PERSON" and not place:
            out.append(s)
            continue
        start = s.start
        for m in (_LINE_END if place else _LINE_OR_SENTENCE_END).finditer(text, s.start, s.end):
            if m.group(0).startswith("."):
                word = re.search(r"(\w+)$", text[s.start:m.start()])
                if word and word.group(1).lower() in _NAME_ABBREVIATIONS:
                    continue
                cut = m.start() + 1     # the dot stays with the word it ends
            else:
                cut = m.start()
            if cut > start:
                out.append(s.with_(start=start, end=cut, text=text[start:cut]))
            start = m.end()
        if start == s.start:
            out.append(s)
        elif start < s.end:
            out.append(s.with_(start=start, end=s.end, text=text[start:s.end]))
    return out


_INVERTED_NAME_GAP = re.compile(r",[ ]")
# "Richard, Smith and Taylor" lists the partners of a firm, not one person's name
_FIRM_TAIL = re.compile(r"[ ](?:and|&)[ ][A-Z]")


_FIRST_AND_INITIAL = re.compile(r"[A-Z][a-z'’\-]+[ ][A-Z]\.?")
_SURNAME_BEFORE = re.compile(r"(?<![\w,])[A-Z][A-Za-z'’\-]+,[ ]$")


def join_inverted_names(spans: list[Span], text: str) -> list[Span]:
    """"Last, First M." is one name: a one-word PERSON span followed, after ", " on the same
    line, by a PERSON span of one or two words (a model that tagged "Anderson" and "Sarah"
    apart) becomes one span; a "First M." span takes the "Last, " written right before it.
    ``spans`` are non-overlapping and sorted."""
    out: list[Span] = []
    for s in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.type == s.type == "PERSON" and \
                _INVERTED_NAME_GAP.fullmatch(text[prev.end:s.start]) and \
                len(text[prev.start:prev.end].split()) == 1 and \
                1 <= len(text[s.start:s.end].split()) <= 2 and \
                not (prev.detector == s.detector == "rules") and \
                not (len(text[s.start:s.end].split()) == 1 and _FIRM_TAIL.match(text, s.end)):
            out[-1] = _joined(prev, s, text)
            continue
        if s.type == "PERSON" and _FIRST_AND_INITIAL.fullmatch(text[s.start:s.end]):
            # "Walker, Maria L." where only "Maria L." was tagged: a form's "Last, First
            # M.I." field; the capitalised word and comma right before it are the surname
            m = _SURNAME_BEFORE.search(text, max(0, s.start - 40), s.start)
            if m is not None and (prev is None or prev.end <= m.start()):
                s = s.with_(start=m.start(), text=text[m.start():s.end])
        out.append(s)
    return out


# Between two parts of one name on a line: one or two tokens without a letter or a digit,
# what OCR makes of a middle initial on a poor scan ("Robert £ Mulhorin") or of the dotted
# fill-in line a name was typed over ("Edwin -- -_—-. Garcia"). A comma, a slash, "&" or
# "and" separate two people and never join.
_NAME_MARKS_GAP = re.compile(r"[ ]+(?:(?:[^\w\s,/&;:|()\[\]{}]|_){1,6}[ ]+){1,2}")


def join_names_across_marks(spans: list[Span], text: str) -> list[Span]:
    """Two PERSON spans of one to three words each, on one line, with only marks of a
    misread initial or a fill-in line between them, are one name. ``spans`` are
    non-overlapping and sorted."""
    return _join_neighbours(spans, text, lambda prev, s: (
        prev.type == s.type == "PERSON" and _NAME_MARKS_GAP.fullmatch(text, prev.end, s.start) is not None and
        len(text[prev.start:prev.end].split()) <= 3 and len(text[s.start:s.end].split()) <= 3))


def _join_neighbours(spans: list[Span], text: str, one_value: Callable[[Span, Span], bool]) -> list[Span]:
    """``spans`` (non-overlapping, sorted) with each span joined to the one before it (as
    that one stands after its own joins) where ``one_value(prev, span)`` says they are one
    value."""
    out: list[Span] = []
    for s in spans:
        if out and one_value(out[-1], s):
            out[-1] = _joined(out[-1], s, text)
        else:
            out.append(s)
    return out


_ADDRESS_PIECE_GAP = re.compile(r"[.,:;]?[ ]")
# how a web address begins (its scheme or "www"): no piece of another address
WEB_ADDRESS_START = re.compile(r"(?i)(?:https?|ftp|www)\b")
_SPACELESS_TYPES = frozenset({"ONLINE_ID", "EMAIL"})


def join_split_addresses(spans: list[Span], text: str) -> list[Span]:
    """Rule 7 of this module: pieces of one web or e-mail address that OCR broke at a
    space become one span. ``spans`` are non-overlapping and sorted."""
    return _join_neighbours(spans, text, lambda prev, s: (
        prev.type == s.type and s.type in _SPACELESS_TYPES and
        _ADDRESS_PIECE_GAP.fullmatch(text[prev.end:s.start]) is not None and
        not WEB_ADDRESS_START.match(text, s.start) and
        not ("@" in text[prev.start:prev.end] and "@" in text[s.start:s.end])))


def merge_spans(spans: Iterable[Span], *, text: str | None = None,
                priority: Sequence[str] = DEFAULT_PRIORITY,
                evidence: Callable[[Span], int] = evidence_of) -> list[Span]:
    """Union of the spans of one page (from one or several detectors) as non-overlapping
    spans, by the rule in this module's docstring. With ``text`` (the page text) the
    result's ``text`` fields are filled and pieces of whitespace or punctuation only are
    dropped. Raises InputError for a span with negative or reversed offsets or beyond the
    text."""
    items = []
    for s in spans:
        if s.start < 0 or s.end < s.start or (text is not None and s.end > len(text)):
            raise InputError(f"span [{s.start}, {s.end}) of type {s.type} is outside the page text")
        if s.end > s.start:
            items.append(s)
    if text is not None:
        items = split_names_at_line_ends(items, text)
    out: list[Span] = []
    for cluster in _clusters(items):
        if len(cluster) == 1:
            s = cluster[0]
            out.append(s.with_(text=text[s.start:s.end]) if text is not None else s)
        else:
            out.extend(_resolve(cluster, text, priority, evidence))
    out = sorted(out, key=lambda s: (s.start, s.end))
    if text is None:
        return out
    out = join_names_read_whole(out, items, text)
    return join_split_addresses(join_names_across_marks(join_inverted_names(out, text), text), text)


def join_names_read_whole(spans: list[Span], items: list[Span], text: str) -> list[Span]:
    """Rule 9 of this module: two PERSON spans a space apart on one line that one
    detector's PERSON span holds whole ("D. Colin" of the rules and "Selley," sticking out
    of the model's "D. Colin Selley") are one name: rule 4 keeps every character covered,
    and the name keeps one box. ``spans`` are non-overlapping and sorted."""
    whole = [(i.start, i.end) for i in items if i.type == "PERSON"]
    return _join_neighbours(spans, text, lambda prev, s: (
        prev.type == s.type == "PERSON" and text[prev.end:s.start] == " " and
        _name_and_surname(text[prev.start:prev.end], text[s.start:s.end]) and
        any(a <= prev.start and s.end <= b for a, b in whole)))


def _name_and_surname(head: str, tail: str) -> bool:
    """``tail`` is the surname ``head`` wants: one census surname after a name's start whose
    last word is an initial or a given name ("D. Colin" + "Selley,"), three words in all. Not
    a whole name a caption's word follows ("Heather Thompson" + "Phong", "Phone:" misread),
    nor a row of several names a model read as one."""
    words, last = head.split(), tail.strip(" ,.;:")
    end = words[-1].rstrip(".,") if words else ""
    return bool(words) and words[0][:1].isupper() and len(words) <= 2 and \
        ((len(end) == 1 and end.isalpha()) or end.upper() in given_names()) and \
        " " not in last and last[:1].isupper() and last.upper() in surnames()
