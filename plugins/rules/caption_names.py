"""Names under a caption that names a person's or an organisation's role (issue 31).

Two conventions of printed forms and tables put a name under its caption, not beside it,
where the label rules (a known phrase that opens its cell or ends in ':') do not look:

- A form item "Name of <role>" ("1. Name of Registrant", "5. NAME OF FOREIGN PRINCIPAL ON
  WHOSE BEHALF THIS MATERIAL WAS TRANSMITTED.") is answered on the line under it, inside
  the item's column. The caption may run on to a second line (left-aligned, close under
  it) and carry the item's number before it; the answer is the first line under that.
- A table's column header that names a role ("Political Organization or Candidate",
  "Name of Account", "Registrant") heads a column of names: each row's cell under it, as
  long as the rows go on holding names.

Whether the name is a person's or an organisation's is the value's shape: an organisation
word or form ("Committee", "Inc."), or everyday words without a given name ("Meijer Gas",
"Ultra Diamond": a business named for its trade) make it an organisation; a given name and
a surname ("David Cicilline"), or words no dictionary knows as everyday ones ("Steen
Lovschal", "The Dalai Lama") a person. Form vocabulary, amounts, dates, "N/A" and running
text are no names (the name reader and ``plausible_name`` refuse them).
"""
from __future__ import annotations

import re

from redactor.plugin_api import PageView, given_names, surnames
from redactor_plugins._misread_words import misread_common_word
from redactor_plugins.rules import values as V
from redactor_plugins.rules.gazetteer import known_place
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.label_phrases import CELL_GAP, JUNK, is_border_read
from redactor_plugins.rules.lexicon import Vocab, normalise_label
from redactor_plugins.rules.people import _zipf, plausible_name

SCORE = 0.9               # a caption names its value (the ensemble's label band)
ANSWER_GAP = 3.0          # text heights from a caption (or a table row) to the next row
RUN_ON_GAP = 0.5          # ... and at most this from a caption's line to its run-on line,
RUN_ON_SENTENCE_GAP = 1.0  # ... or this when the caption's sentence goes on in lower case
                          # ("... on whose behalf this material / was transmitted.", a FARA
                          # report's caption rendered at 150 dpi: 0.3 h apart)
RUN_ON_LINES = 2
ANSWER_REACH = 30.0       # text heights right of a form item's caption its answer may start
WRAP_GAP = 0.8            # text heights between an organisation's name and its wrapped end
WRAPPED_WORDS = 5         # ... a few words
MAX_ROWS = 40
SKIP_AFTER_ROWS = 2       # a column of this many names may pass over one cell that is none
ROW_WORD_GAP = 3.0        # text heights: a wider gap inside a cell ends its value
MAX_HEADER_WORDS = 6
SLANT_SPAN = 8.0          # text heights between a line's end words to read its slant from
MAX_SLANT = 0.07          # ... at most 4 degrees
EVERYDAY_ZIPF = 4.0       # wordfreq: a word this common is an everyday word ("gas", "diamond")

# Roles a form or a table asks the name of: people or organisations, the shape decides.
ROLES = ("registrant", "principal", "candidate", "client", "contact", "account", "agent",
         "sponsor", "recipient", "payee", "beneficiary", "contractor", "employer", "owner",
         "applicant", "supplier", "vendor", "manufacturer", "company", "firm", "organization",
         "organisation", "individual", "person")
# ... of which these ask for an organisation, whatever the value's shape ("COMPANY":
# "Philip Morris" is the company, not a man)
ORG_ROLES = frozenset({"supplier", "vendor", "manufacturer", "company", "firm", "organization",
                       "organisation", "employer", "contractor"})
_ROLE = "(?:" + "|".join(ROLES) + ")s?"
# what a form writes where it has no name to give
_NO_ANSWER = frozenset({"not applicable", "none", "same", "n/a", "na", "nil", "unknown", "various",
                        "self", "see above", "see attached", "not known", "not available", "tbd"})
# a form item's number or letter before its caption ("1.", "3,", "(a)", "5)")
_ITEM = r"(?:\(?(?:\d{1,2}|[a-z])[.,)]?\s+)?"
# "Name of (the) (foreign) principal ...": the caption may go on (a relative clause)
_NAME_OF = re.compile(rf"^{_ITEM}names? of (?:the )?(?:[a-z]+ ){{0,2}}?{_ROLE}(?: |$)")
# a header cell whose last word is the role ("Political Organization or Candidate")
_ROLE_HEADER = re.compile(rf"^{_ITEM}(?:[a-z/&]+ ){{0,{MAX_HEADER_WORDS - 1}}}?{_ROLE}(?: names?)?$")
_LEAD_ARTICLE = {"the"}
# an account's or a store's number in brackets after its name, in the same cell ("Chatham
# Oil (311-01)" down a sales report's account column): another value; the name ends there
_BRACKETED_NUMBER = re.compile(r"[(\[][A-Za-z]{0,3}\d")
# a firm named for its partners, as law and accounting firms are ("Arnold & Porter",
# "Wilmer, Cutler & Pickering"): surnames joined by "&"
_PARTNERS = re.compile(r"[A-Z][A-Za-z'’\-]+,?(?: [A-Z][A-Za-z'’\-]+,?)? & [A-Z][A-Za-z'’\-]+")


def _cell_key(layout: PageView, cell: list[int]) -> str:
    text = " ".join(layout.words[w].text.strip(JUNK) for w in cell)
    return re.sub(r"\s+", " ", text.lower()).strip()


def _cells(layout: PageView, line) -> list[list[int]]:
    return layout.cells(line, CELL_GAP, separator=lambda w: is_border_read(layout, w))


def _lines_under(layout: PageView, y: float, x0: float, x1: float, max_gap: float):
    """Lines whose top is below ``y`` by at most ``max_gap`` pixels with a word that
    overlaps [x0, x1], nearest first."""
    return layout.lines_below(x0, x1, y, 0.0, max_gap)


def _run_on(layout: PageView, caption_line, cell: list[int], left: float, right: float):
    """A caption's run-on line: close under it, starting where its words start (after
    the item's number), text of the same height, nothing in the cells beside it (a table's
    first row has)."""
    h = caption_line.height
    x0s = [layout.words[w].bbox[0] for w in cell[:2]]
    for ln in _lines_under(layout, caption_line.y1 - 0.3 * h, x0s[0], layout.words[cell[-1]].bbox[2],
                           RUN_ON_SENTENCE_GAP * h):
        first = [w for w in ln.words if layout.words[w].bbox[2] > x0s[0] - h]
        if not first:
            continue
        fx = layout.words[first[0]].bbox[0]
        # the line's top under the caption's words: a value in the next column may sit
        # higher ("JETRO, New York" under the caption, "1643" under the next one)
        cap_x1 = layout.words[cell[-1]].bbox[2]
        top = min((layout.words[w].bbox[1] for w in first if layout.words[w].bbox[0] < cap_x1), default=ln.y0)
        if top > caption_line.y1 + (RUN_ON_GAP - 0.3) * h and not layout.words[first[0]].text[:1].islower():
            return None     # a line a printed line's spacing under it: only a sentence goes on there
        beside = [w for w in ln.words if any(c.isalnum() for c in layout.words[w].text) and
                  (layout.words[w].bbox[2] <= left or layout.words[w].bbox[0] >= right)]
        if any(abs(fx - x) <= 1.0 * h for x in x0s) and ln.height <= 1.3 * h and not beside:
            return ln
        return None
    return None


def _column_words(layout: PageView, line, x0: float, x1: float, left: float, right: float,
                  h: float) -> list[int] | None:
    """The words of ``line`` in the column: from the first that overlaps [x0, x1] and
    starts right of ``left``, while they stay close and start before ``right``. None when
    the words run on past ``right`` without a cell's gap (running text across columns)."""
    ws = [w for w in line.words if not is_border_read(layout, w)]
    first = next((k for k, w in enumerate(ws) if layout.words[w].bbox[2] > x0 and
                  layout.words[w].bbox[0] < x1 and layout.words[w].bbox[0] >= left), None)
    if first is None:
        return []
    run = [ws[first]]
    for w in ws[first + 1:]:
        b = layout.words[w].bbox
        gap = b[0] - layout.words[run[-1]].bbox[2]
        if b[0] >= right:
            if gap <= 1.0 * h:
                return None
            break
        if gap > ROW_WORD_GAP * h:
            break
        run.append(w)
    return run


def _one_word_firm(words: list[str]) -> bool:
    """A one-word answer to a "Name of <role>" item ("Draftfcb", a registrant): a person is
    named by a given name and a surname, a firm often by one word; not an everyday word,
    not a given name alone."""
    if len(words) != 1:
        return False
    word = words[0].strip(".,")
    return len(word) >= 3 and word[:1].isupper() and word.upper() not in given_names() and \
        _zipf(word.lower()) < EVERYDAY_ZIPF and misread_common_word(word) is None


def _with_seat(value: str) -> bool:
    """An office named with its seat after a comma ("JETRO, Houston", "Ketchum, New York"):
    a body has branches in cities, a person is not written so ("Smith, Houston" is
    "Surname, Given": a surname before the comma and a given name after it)."""
    name, _, seat = value.rpartition(",")
    name, seat = name.strip(" .").upper(), seat.strip(" .")
    return bool(name) and known_place(seat) and \
        (seat.split()[0].upper() not in given_names() or name not in surnames())


def _is_organization(words: list[str], org: bool, vocab: Vocab) -> bool:
    if org or any(normalise_label(w) in vocab.company_words for w in words):
        return True
    first = words[0].strip(".,")
    if len(first.rstrip(".")) == 1 or first.upper() in given_names():
        return False
    bare = [w.strip(".,") for w in words]
    # a handwritten or worn answer's everyday words come back misread ("PEPLES" for
    # "Peoples" in "Ethiopian Peoples Revolutionary Party"): still everyday words
    everyday = [_zipf(w.lower()) >= EVERYDAY_ZIPF or misread_common_word(w) is not None for w in bare]
    return any(e and w.upper() not in surnames() for w, e in zip(bare[1:], everyday[1:])) or \
        (len(words) > 1 and all(everyday))


def _body_name(toks: list, vocab: Vocab) -> tuple[int, int, bool] | None:
    """The whole answer as an organisation's name where a person's name reader would stop
    inside it at a word no name holds ("KOBE TRADE INFORMATION OFFICE", "Democratic League
    of Kosova": a government office or a party named in everyday words). It takes
    capitalised words and joiners to the cell's end, no clause and no comma inside (a
    person and a title, "John Smith, Director of Research", is no body), and must read as
    an organisation by its words (everyday words after the first, the first no given name)."""
    if len(toks) < 2 or any(t[2].rstrip().endswith(",") for t in toks[:-1]) or \
            any(t[2].rstrip().endswith(":") for t in toks):
        return None     # (a word and its colon is the next field's caption: "Nationality: United States")
    ov = V.organization_value(toks, vocab.legal_forms)
    last_end = toks[-1][0] + len(toks[-1][2].rstrip(" .,;:"))
    if ov is None or ov[0] != toks[0][0] or ov[1] < last_end or \
            V.reads_as_clause(" ".join(t[2] for t in toks)):
        return None
    if not _is_organization([t[2] for t in toks], False, vocab):
        return None
    return ov[0], ov[1], True


def _asks_for_organization(key: str) -> bool:
    roles = [w.rstrip("s") if w.rstrip("s") in ROLES else w for w in key.split() if w.rstrip("s") in ROLES
             or w in ROLES]
    return bool(roles) and all(r in ORG_ROLES for r in roles)


def _name_hit(layout: PageView, run: list[int], vocab: Vocab, organization: bool = False,
              businesses: bool = False, item: bool = False) -> Hit | None:
    """The name a cell holds as a PERSON or ORGANIZATION hit, or None. ``organization``:
    the caption asks for one; ``businesses``: the rows above in the column are
    organisations, so a name without a given name or an initial is one too; ``item``: the
    cell answers a form item (not a table's column), where one word is a firm's name."""
    toks = [(layout.offsets[w][0], layout.offsets[w][1], layout.words[w].text) for w in run]
    while toks and not any(c.isalnum() for c in toks[0][2]):
        toks = toks[1:]
    toks = next((toks[:k] for k, t in enumerate(toks) if k and _BRACKETED_NUMBER.match(t[2])), toks)
    if toks and toks[0][2][:1] in "|[{" and toks[0][2][1:2].isalpha():
        toks[0] = (toks[0][0] + 1, toks[0][1], toks[0][2][1:])   # a cell's border read into it
    article = None
    if len(toks) > 1 and toks[0][2].lower() in _LEAD_ARTICLE:
        article, toks = toks[0], toks[1:]
    if not toks or toks[0][2][:1].islower():
        return None
    # (a form item's one answer; a table's column holds its rows' captions as often)
    r = (_body_name(toks, vocab) if item else None) or V.name_value(toks, vocab, loose=False)
    if r is None:
        return None
    s, e, org = r
    text = layout.page.text
    partners = _PARTNERS.fullmatch(text[s:toks[-1][1]].rstrip(" .,;:")) is not None
    if org or partners:
        # a body's name reads on through its joiners ("Korea Institute for International
        # Economic Policy"), and a firm may be named for its partners ("Arnold & Porter")
        ov = V.organization_value([t for t in toks if t[0] >= s], vocab.legal_forms)
        e = max(e, ov[1]) if ov is not None and ov[0] == s else e
    # the value must be the whole cell: "Report Due w/o 4/6/98" is no name
    if text[e:toks[-1][1]].strip(" .,;:" + JUNK):
        return None
    words = text[s:e].split()
    if " ".join(w.strip(JUNK).lower() for w in words) in _NO_ANSWER or \
            all(w.strip(JUNK).lower() in vocab.title_words for w in words):
        return None     # no name given, or a job title ("Vice President")
    first = words[0].strip(".,")
    business_row = businesses and len(first.rstrip(".")) > 1 and first.upper() not in given_names()
    if organization or business_row or partners or _is_organization(words, org, vocab) or \
            _with_seat(text[s:e]) or (item and _one_word_firm(words)):
        return Hit("label_organization", article[0] if article else s, e, SCORE)
    if not plausible_name(text[s:e], vocab) or len(words) < 2:
        return None
    return Hit("label_person", s, e, SCORE)


def find_caption_name_hits(layout: PageView, vocab: Vocab) -> list[Hit]:
    hits: list[Hit] = []
    for line in layout.lines:
        cells = _cells(layout, line)
        header_row = len(cells) >= 3
        for k, cell in enumerate(cells):
            key = _cell_key(layout, cell)
            name_of = _NAME_OF.match(key) is not None
            if not name_of and not (header_row and len(cell) <= MAX_HEADER_WORDS and
                                    _ROLE_HEADER.match(key)):
                continue
            h = line.height
            x0 = layout.words[cell[0]].bbox[0]
            x1 = layout.words[cell[-1]].bbox[2]
            left = layout.words[cells[k - 1][-1]].bbox[2] if k else 0.0
            right = layout.words[cells[k + 1][0]].bbox[0] if k + 1 < len(cells) else float("inf")
            if name_of and not header_row:
                # a form item's box runs to the next item's caption beside it, whatever OCR
                # line that was put in; the answer may be typed anywhere in it ("1. Name of
                # registrant" over "JETRO, Houston" typed a third of the box across)
                right = min(right, _next_caption_x(layout, line, x1))
                x1 = max(x1, min(right - h, x1 + ANSWER_REACH * h))
            bottom, seen, last = line.y1, {line.index}, line
            for _ in range(RUN_ON_LINES):
                last = _run_on(layout, last, cell, left, right)
                if last is None:
                    break
                bottom, seen = last.y1, seen | {last.index}
            column, skipped = [], False
            while len(column) < (MAX_ROWS if header_row else 1):
                below = [ln for ln in _lines_under(layout, bottom, x0, x1, ANSWER_GAP * h)
                         if ln.index not in seen]
                run = None
                for ln in below:
                    run = _column_words(layout, ln, x0, x1, left, right, h)
                    if run:
                        break
                if not run:
                    break
                # a column holds one kind of name: under rows of businesses ("Chatham Oil",
                # "Express Stop"), "Conoco" and "Fowlers Oit" are businesses too
                businesses = bool(column) and all(hit.rule == "label_organization" for hit in column)
                hit = _name_hit(layout, run, vocab, _asks_for_organization(key), businesses, not header_row)
                bottom = max(layout.words[w].bbox[3] for w in run)
                if hit is None:
                    # one cell of a table's column that reads as no name ("CVS -Revco" among
                    # the accounts) does not end a column of names (two rows or more) when
                    # the row under it holds one
                    if skipped or not header_row or len(column) < SKIP_AFTER_ROWS:
                        break
                    skipped = True
                    continue
                skipped = False
                column.append(_wrapped(layout, run, hit, h, vocab) if not header_row else hit)
            hits.extend(column)
    return hits


def _next_caption_x(layout: PageView, line, x1: float) -> float:
    """Where the next cell right of ``x1`` at the line's height starts: the first word
    with letters or digits a cell's gap away (inf: none). The height follows the line's
    slant: a scan fed in askew runs its rows downhill (a FARA form 3 degrees off, its
    "2. Registration No." a line's height lower than "1. Name of Registrant" beside it)."""
    h = line.height
    slope = _slant(layout, line)
    end = layout.words[line.words[-1]].bbox
    cx, cy = (end[0] + end[2]) / 2, (end[1] + end[3]) / 2

    def beside(b) -> bool:
        if min(line.y1, b.bbox[3]) - max(line.y0, b.bbox[1]) > 0.5 * min(h, b.bbox[3] - b.bbox[1]):
            return True
        return abs((b.bbox[1] + b.bbox[3]) / 2 - (cy + slope * ((b.bbox[0] + b.bbox[2]) / 2 - cx))) < 0.5 * h

    xs = [b.bbox[0] for b in layout.words
          if b.bbox[0] > x1 + CELL_GAP * h and any(c.isalnum() for c in b.text) and beside(b)]
    return min(xs, default=float("inf"))


def _slant(layout: PageView, line) -> float:
    """The line's slope (pixels down per pixel across) from its first and last words'
    centres, when they lie SLANT_SPAN text heights apart; 0 for a short line, and at most
    MAX_SLANT (a page turned further is turned by the OCR engine's orientation step)."""
    a, b = layout.words[line.words[0]].bbox, layout.words[line.words[-1]].bbox
    dx = (b[0] + b[2] - a[0] - a[2]) / 2
    if dx < SLANT_SPAN * line.height:
        return 0.0
    slope = (b[1] + b[3] - a[1] - a[3]) / 2 / dx
    return max(-MAX_SLANT, min(MAX_SLANT, slope))


def _wrapped(layout: PageView, run: list[int], hit: Hit, h: float, vocab: Vocab) -> Hit:
    """An organisation's name that fills its line and wraps in its cell ("Korea Institute for
    International" / "Economic Policy"): the line right under it, starting where it starts,
    of capitalised words and joiners only, is the name's end."""
    if hit.rule != "label_organization" or layout.offsets[run[-1]][1] > hit.end:
        return hit
    x0, y1 = layout.words[run[0]].bbox[0], max(layout.words[w].bbox[3] for w in run)
    under = [ln for ln in layout.lines if 0 <= ln.y0 - y1 <= WRAP_GAP * h and abs(ln.x0 - x0) <= h]
    if len(under) != 1 or len(under[0].words) > WRAPPED_WORDS:
        return hit
    toks = [(layout.offsets[w][0], layout.offsets[w][1], layout.words[w].text) for w in under[0].words]
    ov = V.organization_value(toks, vocab.legal_forms)
    if ov is None or ov != (toks[0][0], toks[-1][1]):
        return hit
    # the body's seat under its name ("Japan External Trade Organization" over "Tokyo,
    # Japan", as a letterhead and a foreign principal's entry write it) is a place, no end
    # of the name
    seat = layout.page.text[toks[0][0]:toks[-1][1]].split(",")
    if len(seat) > 1 and all(known_place(part) for part in seat):
        return hit
    return Hit(hit.rule, hit.start, ov[1], hit.score)
