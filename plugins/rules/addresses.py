"""Postal addresses without a label: street lines (US/UK/EU), PO boxes, city-state-ZIP lines,
UK and Canadian postcodes, EU "12345 City" lines, found per line segment (a cell of a line);
``address_blocks`` joins the lines of one address into a block, ``join_address_rows`` the
cells of a form's address row."""
from __future__ import annotations

import re
from dataclasses import dataclass

from redactor_plugins.rules import values as V
from redactor_plugins.rules.address_patterns import AddressRegexes
from redactor_plugins.rules.hits import Hit
from redactor.plugin_api import UNSURE_CONF, PageView, given_names, is_census_name
from redactor_plugins.rules.lexicon import Vocab, normalise_label


# how strongly each kind of line says "address" on its own
SCORES = {"street": 0.8, "po_box": 0.85, "city_line": 0.85, "city_line_loose": 0.6,
           "uk_postcode": 0.7, "ca_postcode": 0.8,
           "eu_street": 0.6, "eu_city": 0.5, "eu_city_coded": 0.7, "state_zip": 0.6,
           "au_city": 0.8, "sg_city": 0.85, "in_city": 0.5, "in_street": 0.5}
RULES = {"street": "address_street", "po_box": "address_po_box", "city_line": "address_city_line",
          "city_line_loose": "address_city_line",
          "uk_postcode": "address_postcode", "ca_postcode": "address_postcode",
          "eu_street": "address_street", "eu_city": "address_city_line", "eu_city_coded": "address_city_line",
          "state_zip": "address_city_line", "au_city": "address_city_line",
          "sg_city": "address_city_line", "in_city": "address_city_line", "in_street": "address_street"}
# kinds of line that end an address (city + state + ZIP, postcode lines)
ENDS_ADDRESS = {"city_line", "city_line_loose", "uk_postcode", "ca_postcode", "eu_city", "eu_city_coded",
                 "state_zip", "au_city", "sg_city", "in_city"}
# kinds that need a neighbouring address line before they count
NEEDS_COMPANY = {"eu_street", "eu_city", "city_line_loose", "in_city", "in_street"}
# kinds whose whole line (cell) is the address's, not the match alone
WHOLE_LINE = {"in_street"}


@dataclass
class LineHit:
    kind: str
    start: int
    end: int
    seg: int          # the line segment (cell) the hit starts in


SEGMENT_GAP = 2.2     # text heights: a wider gap between words starts another cell/column
# A row's cell starts under (or over) a cell of the next row at most ROW_STEP text heights
# away, after a gap of at least COLUMN_GAP text heights (a word space is about 0.3)
ROW_STEP = 1.8
COLUMN_GAP = 1.2
CITY_TAIL_GAP = 4.5   # text heights: the gap a city line's state and ZIP may follow its place
ROW_CHAIN = 3         # segments of one printed row an address line may run over
JOIN_CHARS = 24       # address parts on one line this close together are one address


# Typed addresses put two spaces between the state and the ZIP code (the Post Office's
# style for typewriters, "New York, N.Y.  10022"), which at a typewriter's pitch and with
# OCR's tight word boxes is wider than SEGMENT_GAP: a ZIP this close after a state keeps
# its line's segment.
ZIP_AFTER_STATE_GAP = 4.0
_ZIP_WORD = re.compile(r"\d{5}(?:-\d{4})?")
_STATE_WORD = re.compile(r"(?:[A-Z]{2}|(?:[A-Z][A-Za-z]{0,4}\.)+),?")


def _zip_after_state(layout: PageView, prev: int, w: int, height: float) -> bool:
    gap = layout.words[w].bbox[0] - layout.words[prev].bbox[2]
    return gap <= ZIP_AFTER_STATE_GAP * height and \
        bool(_ZIP_WORD.fullmatch(layout.words[w].text)) and \
        bool(_STATE_WORD.fullmatch(layout.words[prev].text))


def line_segments(layout: PageView) -> tuple[list[list[int]], list[int]]:
    """Lines cut at wide gaps into segments (form cells, columns OCR merged into one
    line); returns the segments (word ids) and each word's segment."""
    segs: list[list[int]] = []
    seg_of = [0] * len(layout.words)
    for line in layout.lines:
        cur: list[int] = []
        for w in line.words:
            if cur and layout.words[w].bbox[0] - layout.words[cur[-1]].bbox[2] > SEGMENT_GAP * line.height \
                    and not _zip_after_state(layout, cur[-1], w, line.height):
                segs.append(cur)
                cur = []
            cur.append(w)
        if cur:
            segs.append(cur)
    segs = _split_at_columns(layout, segs)
    for i, seg in enumerate(segs):
        for w in seg:
            seg_of[w] = i
    return segs, seg_of


def _split_at_columns(layout: PageView, segs: list[list[int]]) -> list[list[int]]:
    """Segments cut again where a word starts a column of the row above or below: a table
    of addresses set its columns closer than SEGMENT_GAP ("New York, NY 10166-4193" |
    "Washington, DC 20005-3502" read as one line), but each cell starts under the cell
    above it. A cut needs a gap of COLUMN_GAP text heights before the word."""
    starts = [(layout.words[s[0]].bbox[0], layout.line_of_word(s[0])) for s in segs]
    out: list[list[int]] = []
    for seg in segs:
        line = layout.line_of_word(seg[0])
        h = line.height
        near = [x for x, other in starts if other is not line and
                0 < abs(other.yc - line.yc) <= ROW_STEP * h]
        cur = [seg[0]]
        for prev, w in zip(seg, seg[1:]):
            x0 = layout.words[w].bbox[0]
            if x0 - layout.words[prev].bbox[2] > COLUMN_GAP * h and \
                    any(abs(x0 - x) <= 0.5 * h for x in near):
                out.append(cur)
                cur = []
            cur.append(w)
        out.append(cur)
    return out


def _has_comma(text: str) -> bool:
    return "," in text


def _extend_over_place_words(layout: PageView, seg: list[int], w: int, start: int) -> int:
    """Start of the town words before a postcode in its cell ("London SW1A 2AA")."""
    pos = seg.index(w)
    k = 0
    while pos - 1 >= 0 and k < 3:
        prev = seg[pos - 1]
        t = layout.words[prev].text.rstrip(",")
        if not re.fullmatch(r"[A-Z][A-Za-z'’.\-]+", t):
            break
        start = layout.offsets[prev][0]
        pos -= 1
        k += 1
    return start


def raw_hits(layout: PageView, rx: AddressRegexes, segs, seg_of,
              label_regex: re.Pattern | None = None) -> list[LineHit]:
    text = layout.page.text
    out = []
    # each cell is matched on its own: a match never runs into the next column
    cells = [(layout.offsets[min(seg)][0], layout.offsets[max(seg)][1]) for seg in segs]
    for kind in SCORES:
        matches = [m for a, b in cells for m in getattr(rx, kind).finditer(text, a, b)]
        for m in matches:
            s, e = m.span()
            while e > s and text[e - 1] in " ,;":
                e -= 1
            if kind == "city_line_loose" and sum(c.isdigit() for c in text[s:e].rsplit(" ", 1)[-1]) < 3:
                continue   # a "ZIP" with fewer than three real digits is a word, not a misread ZIP
            if kind == "street" and not m.group("suffix")[0].isupper():
                # "12 Main St", not "12 main st" in running text
                continue
            if kind == "city_line" and label_regex is not None and not _has_comma(text[s:e]):
                # "Member ID 12345" reads like "Boise ID 83702": a label before the state
                # code makes it a label and its value
                head = text[s:e].rsplit(" ", 1)[0]
                if any(m2.end() >= len(head.rstrip(". ")) for m2 in label_regex.finditer(head)):
                    continue
            if kind in ("city_line", "city_line_loose") and label_regex is not None:
                s = _after_lead_label(text, s, e, getattr(rx, kind), label_regex)
            w = layout.word_at(s)
            if w is None:
                continue
            seg = segs[seg_of[w]]
            if kind == "state_zip":
                head = _garbled_place(layout, segs, seg_of, w, e)
                if head is None:
                    continue
                s = layout.offsets[head][0]
            if kind in ("eu_city", "eu_city_coded") and not _postcode_town(text[s:e]):
                continue   # "D-1234 Filter": a part's code and what it is; "1920 Packs": a count
            if kind in ("eu_city", "eu_city_coded") and any(h.seg == seg_of[w] and h.kind == "street" for h in out):
                continue   # "1905 Pine Street" is a US street line, not "postcode + town"
            if kind in ("uk_postcode", "ca_postcode"):
                s = _extend_over_place_words(layout, seg, w, s)
            if kind == "street":
                s = _split_house_number_start(layout, seg, w, s)
            out.append(LineHit(kind, s, e, seg_of[w]))
    return out


def _postcode_town(line: str) -> bool:
    """Whether the words after a postcode are a town's: a known place, or some word no
    everyday one ("Neuchatel", "Den Haag", "Kulai"). A figure and an everyday word is a
    part's code and what it is ("D-1234 Filter") or a count of goods on an order or a
    shipping form ("1920 Packs", "5000 Copies"), no town line."""
    from redactor_plugins.rules.blocks import international_lists
    from redactor_plugins.rules.gazetteer import known_place   # (gazetteer imports this module)

    tokens = line.replace(",", " ").split()
    first = next((k for k, t in enumerate(tokens) if any(c.isdigit() for c in t)), len(tokens))
    words = tokens[first + 1:]
    if words and re.fullmatch(r"[A-Z]{2}", words[0]) and re.fullmatch(r"\d{4}", tokens[first]):
        words = words[1:]   # a Dutch postcode's two letters ("2517 AB Den Haag")
    town = " ".join(words)
    # (a ZIP and the country after it close a US block too: "Fairhaven, MA 02719 USA")
    return bool(words) and (known_place(town) or known_place(words[0]) or
                            words[0].upper().replace(".", "") in international_lists()[1] or
                            not all(V.is_common_word(w.lower()) for w in words if w.isalpha()))


def _after_lead_label(text: str, s: int, e: int, rx: re.Pattern, label_regex: re.Pattern) -> int:
    """Where a city line starts when a form's caption stands in its place words ("Name
    Ketchum Address New York, NY 10019", the label printed before the value): after it,
    if what follows is still a whole city line (a town named like a label, "Mobile, AL
    36601", keeps its name)."""
    for m in label_regex.finditer(text, s, e):
        s2 = m.end()
        while s2 < e and text[s2] in " :":
            s2 += 1
        if s2 > s and (m.start() == s or text[m.start() - 1] == " ") and rx.fullmatch(text, s2, e):
            return s2
    return s


HOUSE_SPLIT_GAP = 1.0  # text heights: the widest gap OCR reads inside a house number
MAX_HOUSE_DIGITS = 6


def _split_house_number_start(layout: PageView, seg: list[int], w: int, start: int) -> int:
    """Start of a house number that OCR split and misread in part ("$71 14 Davis Heights"
    for 57114): the word right before the number, closer than a word space of a wide
    scan, that reads as digits once the usual confusions are undone, is its first part."""
    pos = seg.index(w)
    if pos == 0 or layout.offsets[w][0] != start:
        return start
    prev = seg[pos - 1]
    head = layout.words[prev].text.lstrip(JUNK_LEAD)
    number = layout.page.text[start:layout.offsets[w][1]]
    digits = head.translate(HOUSE_NUMBER_CONFUSIONS)
    if not any(c.isdigit() for c in head) or not digits.isdigit() or \
            len(digits) + sum(c.isdigit() for c in number) > MAX_HOUSE_DIGITS:
        return start
    if layout.words[w].bbox[0] - layout.words[prev].bbox[2] > HOUSE_SPLIT_GAP * layout.line_of_word(w).height:
        return start
    return layout.offsets[prev][0]


GARBLED_WORDS = 3     # words a garbled city may have read as


def _garbled_place(layout: PageView, segs, seg_of, w: int, end: int) -> int | None:
    """First word of the garbled city before a state and ZIP that end their cell: every
    word before them (at most GARBLED_WORDS) is either unsure or no place word (not
    capitalised), and one at least is unsure; None otherwise (a readable "City, ST" is
    city_line's). The garbled words may stand in a cell of their own just left on the
    row: merged with the line above, they are too tall to share the state's line."""
    seg = segs[seg_of[w]]
    if layout.offsets[seg[-1]][1] > end + 1:
        return None
    before = seg[:seg.index(w)]
    if not before:
        box, h = layout.words[w].bbox, layout.line_of_word(w).height
        left = [sg for sg in segs if sg and 0 <= box[0] - layout.words[sg[-1]].bbox[2] <= SEGMENT_GAP * h
                and layout.words[sg[-1]].bbox[1] <= (box[1] + box[3]) / 2 <= layout.words[sg[-1]].bbox[3]]
        if len(left) != 1 or layout.offsets[left[0][-1]][1] > layout.offsets[w][0]:
            return None
        before = left[0]
    unsure = [b for b in before if layout.words[b].conf < UNSURE_CONF]
    placeish = [b for b in before if layout.words[b].conf >= UNSURE_CONF
                and re.match(r"[A-Z]", layout.words[b].text)]
    # a city name is a few words; more before the state is a line of prose
    if not unsure or placeish or len(before) > GARBLED_WORDS:
        return None
    return before[0]


def seg_runs(text: str, hits: list[LineHit]) -> list[tuple[int, int]]:
    """The address hits of one cell, joined where little but separators lies between them
    ("220 N Wacker Dr, Suite 1400, Chicago, IL 60606"); a cell naming two addresses
    ("Ship to ... Or collect at ...") gives two runs."""
    hits = sorted(hits, key=lambda h: h.start)
    runs = [(hits[0].start, hits[0].end)]
    for h in hits[1:]:
        s, e = runs[-1]
        between = text[e:h.start]
        # a stop ends a sentence, except right after a unit or house number, where it is
        # the comma OCR read as a stop ("Suite 277. Jasonchester, GA 49815")
        stop = re.search(r"[.!?]\s|\n", between) and not (
            re.fullmatch(r"\.[ ]", between) and e > s and text[e - 1].isdigit())
        if h.start <= e or (len(between) <= JOIN_CHARS and not stop):
            runs[-1] = (s, max(e, h.end))
        else:
            runs.append((h.start, h.end))
    return runs


def word_x0(layout: PageView, char: int) -> float:
    return layout.words[layout.word_at(char)].bbox[0]


JUNK_LEAD = "‘’'`´|_.,:;\"“”"
HOUSE_NUMBER_CONFUSIONS = str.maketrans({"$": "5", "S": "5", "O": "0", "o": "0", "l": "1",
                                          "I": "1", "|": "1", "B": "8"})
_PREMISES_WORDS = frozenset({"plaza", "hotel", "inn", "tower", "towers", "building", "bldg", "centre", "center",
                             "mall", "hall"})
ADDRESSEE_LINES = 4   # lines above an address searched for the addressee's name
_STORE_NUMBER = re.compile(r"#[ ]?\d{1,6}")


def addressee_above(layout: PageView, vocab: Vocab, segs, seg_box, first: int, anchor: float) -> list[Hit]:
    """The name line over an address (letters, envelopes, invoices without a "Bill To"):
    climb the left-aligned lines above the block, over job-title and company lines, to the
    first line that is wholly a person's name."""
    h = layout.line_of_word(segs[first][0]).height
    top = seg_box(first)[1]
    for _ in range(ADDRESSEE_LINES):
        above = None
        for j, seg in enumerate(segs):
            bx0, by0, bx1, by1 = seg_box(j)
            if (by0 + by1) / 2 >= top or top - by1 > 1.5 * h or abs(bx0 - anchor) > 1.5 * h:
                continue
            if above is None or by1 > seg_box(above)[3]:
                above = j
        if above is None:
            return []
        words = segs[above]
        toks = [(layout.offsets[w][0], layout.offsets[w][1], layout.words[w].text) for w in words]
        # a receipt's header names the shop with its store number ("TRADER JOE'S #552",
        # "KWIK TRIP STORE #442"): the number is the branch's, the line the merchant's
        while len(toks) > 1 and (_STORE_NUMBER.fullmatch(toks[-1][2]) or
                                 (toks[-1][2].isdigit() and toks[-2][2].lower() in ("#", "store", "no", "no."))):
            toks.pop()
            if toks and toks[-1][2].lower().rstrip(".#") in ("store", "no", ""):
                toks.pop()
        words = words[:len(toks)]
        if any(c.isdigit() for t in toks for c in t[2]):
            return []
        keys = {t[2].lower().strip(".,;:") for t in toks}
        if keys & vocab.title_words or {normalise_label(k) for k in keys} & vocab.company_words or \
                keys & {"and", "&"}:
            top = seg_box(above)[1]
            continue   # a job title or a company line: the name may be above it
        r = V.name_value(toks, vocab, loose=False)
        if r and not r[2] and len(layout.words_in(r[0], r[1])) == len(words) >= 2:
            # a name ends in a surname; a line ending in an everyday word no census lists
            # as a name is a firm's ("Azure Interior", "Global Wholesaler")
            value = layout.page.text[r[0]:r[1]].split()
            first, last = value[0].strip(".,;:"), value[-1].strip(".,;:")
            # ... but a given name and a middle initial open a person's name whatever the
            # surname means elsewhere ("JOHN Q. PUBLIC", "Mary K. Long")
            initialled = len(value) >= 3 and first.upper() in given_names() and \
                re.fullmatch(r"[A-Z]\.", value[1]) is not None
            firm = not initialled and ((not is_census_name(last) and V.is_common_word(last.lower())) or
                                       (last.lower() in _PREMISES_WORDS and first.upper() not in given_names()))
            # (a line ending in a premises word and opening with no given name names the
            # building or hotel the address is at: "Boston Park Plaza / 64 Arlington
            # Street", whatever the census lists "Plaza" as; "Maria Plaza" is a person)
            return [Hit("org_addressee" if firm else "name_addressee", r[0], r[1], 0.7)]
        return []
    return []


# between the cells of one address row: separators, and at most a state code OCR did not
# read as one ("New Dawnmouth | wi | 39646"); the separators include what OCR makes of a
# cell's dashed or dotted border and of specks beside it ("Unions ‘New Erica ab ! 91145")
_CELL_SEP = r"[ ,;|\-–!¦‘’'`´\"“”_]"
_ROW_SEP = re.compile(rf"{_CELL_SEP}*(?:[A-Za-z]{{2}}\.?{_CELL_SEP}+)?")
_ZIP_AFTER = re.compile(rf"{_CELL_SEP}*(?:[A-Za-z]{{2}}\.?{_CELL_SEP}+)?"
                        r"(?:\d{5}(?:[ ]?-[ ]?\d{4})?|[A-Z]\d[A-Z][ ]?\d[A-Z]\d)(?![\w])")
# ... or the city's own cell, between the street's and the state's ("49721 Johnson Turnpike
# Apt. 253 | Juliemouth | NH | 63523" where OCR misread the CITY caption)
_CITY_CELL = re.compile(rf"{_CELL_SEP}+[A-Z][A-Za-z.'’\-]+(?:[ ][A-Z][A-Za-z.'’\-]+){{0,2}}{_CELL_SEP}+")
_STATE_CODE = re.compile(r"[A-Z]{2}\.?")
_POSTCODE_ONLY = re.compile(
    r"\d{4,5}(?:[ ]?-[ ]?\d{4})?|[A-Z]\d[A-Z][ ]?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}")
_ENDS_POSTCODE = re.compile(r"(?:\d{5}(?:[ ]?-[ ]?\d{4})?|[A-Z]\d[A-Z][ ]?\d[A-Z]\d)\W*$")
# ... or a ZIP misread after its state code ("FL (5629"; at least three real digits)
_ENDS_MISREAD_ZIP = re.compile(r"(?<![\w])[A-Z]{2}\.?[ ,|]+(?=(?:\S*?\d){3})[0-9OoIlSsBZzG$£\[(|]{5}\W*$")
_ENDS_PO_BOX = re.compile(r"(?i)box\W*\d+\W*$")     # "P.O. Box, 73520": a box number, no ZIP
ROW_GAP = 30.0  # text heights between the cells of one address row (nothing else between)
ROW_SKEW = 0.05  # vertical drift per pixel across a row of a skewed scan (tan 3 degrees)


def join_address_rows(layout: PageView, spans: list, text: str) -> list:
    """One address written across the cells of a form row ("HOME ADDRESS | CITY | STATE |
    ZIP"): an ADDRESS span followed on the same line by ADDRESS or LOCATION spans, with only
    separators between (or, before a state code, the city's own cell that no rule typed),
    becomes one ADDRESS span; a ZIP or postal code right after it joins too. ``spans`` are
    merged, non-overlapping Span objects sorted by start."""
    out: list = []
    for sp in spans:
        prev = out[-1] if out else None
        # a LOCATION cell (city, state) or a bare postcode continues the address; a full
        # address line beside it is the next column's own address
        # (an address that already ends with its postcode is complete: a place after it is
        # the next field's, "EMPLOYER ADDRESS | WORK LOCATION")
        complete = prev is not None and not _ENDS_PO_BOX.search(prev.text) and \
            (_ENDS_POSTCODE.search(prev.text) is not None or _ENDS_MISREAD_ZIP.search(prev.text) is not None)
        continues = (sp.type == "LOCATION" and not complete) or \
            (sp.type == "ADDRESS" and _POSTCODE_ONLY.fullmatch(sp.text))
        between = text[prev.end:sp.start] if prev is not None else ""
        if prev is not None and prev.type == "ADDRESS" and continues \
                and (_ROW_SEP.fullmatch(between) or
                     (sp.type == "LOCATION" and _STATE_CODE.fullmatch(sp.text) and _CITY_CELL.fullmatch(between))) \
                and _close(layout, prev.end, sp.start):
            out[-1] = prev.with_(end=sp.end, score=max(prev.score, sp.score), text=text[prev.start:sp.end])
            continue
        out.append(sp)
    final = []
    for k, sp in enumerate(out):
        if sp.type == "ADDRESS":
            m = _ZIP_AFTER.match(text, sp.end)
            nxt = out[k + 1].start if k + 1 < len(out) else len(text)
            if m and m.end() <= nxt and _close(layout, sp.end, m.end() - 1):
                sp = sp.with_(end=m.end(), text=text[sp.start:m.end()])
        final.append(sp)
    return final


def _close(layout: PageView, end: int, start: int) -> bool:
    a, b = layout.word_at(end - 1), layout.word_at(start)
    if a is None or b is None:
        return False
    if a == b:
        return True
    (_, ay0, ax1, ay1), (bx0, by0, _, by1) = layout.words[a].bbox, layout.words[b].bbox
    h = layout.line_of_word(a).height
    gap = bx0 - ax1
    # the same row: centres at one height (OCR may give each cell its own line), allowing
    # for the drift of a skewed scan over the gap between the cells (up to about 3 degrees)
    drift = abs((ay0 + ay1) / 2 - (by0 + by1) / 2)
    return 0 <= gap <= ROW_GAP * h and drift <= 0.5 * min(ay1 - ay0, by1 - by0) + ROW_SKEW * gap
