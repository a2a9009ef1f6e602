"""Label-driven key-value rules: find label phrases ("Acct #", "Name:", "Bill To") on the page
and give their type to the value beside them (right, same line) or under them (next line in
the label's column: form cells and table headers), using the word boxes."""
from __future__ import annotations

import re

from redactor_plugins.rules import values as V
from redactor_plugins.rules.caption_names import find_caption_name_hits
from redactor_plugins.rules.blocks import Run, lines_under, run_from, runs_to_ranges
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.label_phrases import (CELL_GAP, JUNK, LabelHit, find_labels, is_border_read, is_speck_word,
                                                  stop_starts)
from redactor.plugin_api import UNSURE_CONF, PageView
from redactor_plugins.rules.people import place_with_compass, plausible_name
from redactor_plugins.rules.lexicon import LabelGroup, LabelLexicon, Vocab

# How far (in text heights) a value may sit from its label and its own words from each other.
RIGHT_GAP_STRONG = 12.0
# a label with ':' / '#' / "No." announces its value: key-value panels align their values at
# a tab stop far right of the shorter labels
RIGHT_GAP_MARKED = 20.0
TITLE_RATIO = 1.7        # a label this many times taller than the line under it is a title
RIGHT_GAP_WEAK = 1.5
WEAK_SPACING = 1.6       # ... or this many of the gaps between the label's own words
WORD_GAP = 2.2
BELOW_GAP = 2.5
MAX_TABLE_ROWS = 40
MAX_BLOCK_LINES = 5
MAX_PARTY_LEAD = 3       # name, job title and company lines over a party's street line
MAX_LISTED_NAMES = 8
# inside a column the next header bounds the value: boxed fields ("964 | 46 | 5449") may
# space their parts widely
COLUMN_WORD_GAP = 3.0

# Digit groups of identifiers that forms print in comb boxes (SSN 3-2-4, EIN 2-7), and how
# far apart (text heights) the boxes may space two groups.
COMB_SHAPES = ((3, 2, 4), (2, 7))
COMB_GAP = 6.0
# kinds of value a label in running text may find at the start of the next line: shapes
# that a value parser checks (digits, an @, a made-up user name), never a person's name
WRAPPED_KINDS = ("id", "phone", "card", "email", "online")
# kinds of value that stand right of their caption only: under a bare "No." heading a
# table's column are its rows' numbers (1, 2, 3), not a reference
RIGHT_ONLY_KINDS = ("number",)
# A strong label's unreadable value (LabelRules._unreadable_value): words read below
# UNSURE_CONF are unsure; at most this many words by kind of value are taken, with at least
# this many letters and digits; the score says "label, but no value shape". A form's "Date
# ____" line is filled in by hand like its name ("6/21/90" read as "A Les [Fo").
UNREADABLE_WORDS = {"name": 3, "phone": 4, "id": 3, "card": 4, "email": 2, "online": 2, "date": 3,
                    "period": 3, "code": 3}
UNREADABLE_MIN_CHARS = 3
UNREADABLE_SCORE = 0.6

FILLERS = {"is", "was", "are", "will", "be", "of", "=", "-", "", "#", "no", "number", "nr", "reads",
           "ending", "in", "on", "file"}
_ADDRESS_AFTER_NAME = re.compile(r"[<(\[][^\s<>()\[\]]+@[^\s<>()\[\]]+[>)\]][;,]?")
_STREETISH = re.compile(r"^(?:\d|(?i:p\.?\s?o\.?\s?box|flat|apt|unit|suite|c/o))")
_PHONE_LINE = re.compile(r"^[+()\d\s.\-/]{7,}$")
_SLASH_DATE = re.compile(r"(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:\d{2}|(?:19|20)\d{2})")
_CARD_SHAPE = re.compile(r"\d{13,19}|\d{4}(?:[ \-]\d{4}){2}[ \-]\d{1,7}")


class LabelRules:
    """Runs the label lexicon over one page."""

    def __init__(self, layout: PageView, lex: LabelLexicon, vocab: Vocab):
        self.layout = layout
        self.lex = lex
        self.vocab = vocab
        self.text = layout.page.text
        self.labels = find_labels(layout, lex)
        # where a value must end: the start of a clear label or stop label
        # a weak label only ends a value when it was read surely: "Cc." read unsure at
        # the start of a cell is as likely the initial of "C. Barnes" under its header
        self.terminators = {lh.start for lh in self.labels if lh.strong or
                            (lh.first_on_line and self._read_surely(lh))}
        clear_stops, self.stop_starts = stop_starts(layout, lex)
        self.terminators |= clear_stops
        self.label_words = {w for lh in self.labels if lh.strong for w in lh.words}
        # a label that names nothing where it stands (a strict one-letter label like "W",
        # the work phone's, without its colon: the initial in "Cook, Regina W.") ends nothing
        self.label_starts = {lh.start for lh in self.labels if self._groups(lh)}
        self.terminator_words = {layout.word_at(t) for t in self.terminators} - {None}
        # last words of labels that take the value right of them on their own row
        self.row_label_ends = {lh.words[-1] for lh in self.labels if lh.strong}

    def _read_surely(self, lh: LabelHit) -> bool:
        return any(self.layout.words[w].conf >= UNSURE_CONF for w in lh.words)

    # --- tokens ---------------------------------------------------------------------------
    def _is_terminator_word(self, w: int) -> bool:
        return w in self.terminator_words

    def right_tokens(self, lh: LabelHit, first_gap: float | None = None) -> list[V.Token]:
        """Tokens on the label's line after it, up to the next label or a wide gap
        (``first_gap`` text heights before the value's first word; by default by the
        label's strength)."""
        lay = self.layout
        h = lh.line.height
        toks: list[V.Token] = []
        last = lh.words[-1]
        ls, le = lay.offsets[last]
        if lh.end < le and self.text[lh.end:le].strip(JUNK):
            toks.append((lh.end, le, self.text[lh.end:le]))
        if first_gap is None:
            first_gap = RIGHT_GAP_MARKED if (lh.has_term or lh.has_num) else \
                RIGHT_GAP_STRONG if lh.strong else RIGHT_GAP_WEAK
        # a value in running text follows a label of several words ("employee ID") at the
        # spacing of the label's own words, which is wider than RIGHT_GAP_WEAK text heights
        # in a typewriter face
        first_px = max(first_gap * h, WEAK_SPACING * self._word_spacing(lh)) \
            if first_gap == RIGHT_GAP_WEAK else first_gap * h
        prev = last
        w = lay.next_in_line(last)
        if w is None and not toks:
            # OCR often puts a form's value column in another block: take the word to the
            # right at the same height, whatever line it was given
            w = self._word_right_of(last, first_gap * h)
        while w is not None:
            gap = lay.words[w].bbox[0] - lay.words[prev].bbox[2]
            # a speck or dash right after the label does not start the value
            started = any(any(c.isalnum() for c in t[2]) for t in toks)
            limit = first_px if not started else WORD_GAP * h
            if gap > limit or self._is_terminator_word(w):
                break
            s, e = lay.offsets[w]
            if not started and is_border_read(lay, w):
                pass   # a cell border OCR read as "|" or "i" is no value
            elif not started and self._underline_read(w, h):
                pass   # the fill-in line under the value, read as a character over it
            elif not is_speck_word(lay.words[w], h):
                if not toks and s in self.stop_starts:
                    break   # "Agency Commission": the next field's name, not a value
                toks.append((s, e, self.text[s:e]))
                prev = w
            w = lay.next_in_line(w)
        return [t for t in toks if t[2].strip()]

    def _underline_read(self, w: int, h: float) -> bool:
        """A fill-in line OCR read as a character ("No. 0 27", the "0" a box as wide as the
        value's line): one or two characters read unsure, wider than two text heights,
        whose box holds the start of the next word (the value typed on the line)."""
        lay = self.layout
        word = lay.words[w]
        nxt = lay.next_in_line(w)
        return 0 <= word.conf < UNSURE_CONF and len(word.text.strip()) <= 2 and \
            word.bbox[2] - word.bbox[0] > 2 * h and nxt is not None and \
            word.bbox[0] <= lay.words[nxt].bbox[0] < word.bbox[2]

    def _word_spacing(self, lh: LabelHit) -> float:
        """The widest gap between the label's words on its line (0 for a one-word label)."""
        boxes = [self.layout.words[w].bbox for w in lh.words
                 if self.layout.word_line[w] == lh.line.index]
        return max((b[0] - a[2] for a, b in zip(boxes, boxes[1:])), default=0.0)

    def _wrapped_tokens(self, lh: LabelHit) -> list[V.Token]:
        """When the label ends its line, the first words of the line that follows it in
        the text, if that line starts at the left edge of the label's paragraph."""
        lay = self.layout
        last = lh.words[-1]
        if lay.next_in_line(last) is not None or last + 1 >= len(lay.words):
            return []
        first = last + 1
        if self.text[lay.offsets[last][1]:lay.offsets[first][0]] != "\n":
            return []      # a blank line or a block between them: not one sentence
        line, nxt = lh.line, lay.line_of_word(first)
        h = line.height
        # tight leading makes the two lines' boxes overlap by their ascenders and
        # descenders ("portal: user\ncolejennifer."): the next line need only start below
        # the middle of this one
        if not (line.y0 + 0.5 * h <= nxt.y0 <= line.y1 + h and nxt.x0 <= line.x0 + h and
                lay.words[first].bbox[0] <= nxt.x0 + 0.5 * h):
            return []
        return [(lay.offsets[w][0], lay.offsets[w][1], lay.words[w].text) for w in nxt.words[:5]]

    def _word_right_of(self, word: int, max_gap: float) -> int | None:
        lay = self.layout
        x0, y0, x1, y1 = lay.words[word].bbox
        own = lay.word_line[word]
        best = None
        for i, wb in enumerate(lay.words):
            if lay.word_line[i] == own:
                continue
            bx0, by0, bx1, by1 = wb.bbox
            overlap = min(y1, by1) - max(y0, by0)
            if bx0 < x1 - 2 or bx0 - x1 > max_gap or overlap < 0.5 * min(y1 - y0, by1 - by0):
                continue
            if best is None or bx0 < lay.words[best].bbox[0]:
                best = i
        return best

    def _column(self, lh: LabelHit) -> tuple[float, float]:
        """Horizontal range of the label's column: from a little left of it to just before
        the next label or caption on its line (table header, form row), or a generous
        width."""
        lay = self.layout
        h = lh.line.height
        x0 = min(lay.words[w].bbox[0] for w in lh.words)
        x1 = max(lay.words[w].bbox[2] for w in lh.words)
        y0 = min(lay.words[w].bbox[1] for w in lh.words)
        y1 = max(lay.words[w].bbox[3] for w in lh.words)
        # the next header cell at the same height, whatever OCR line it was put in: a known
        # label, or a caption this lexicon lacks ("WORK LOCATION") a cell's width away,
        # read with confidence
        nxt = [b.bbox[0] for w, b in enumerate(lay.words)
               if w not in lh.words and b.bbox[0] > x1 and
               min(y1, b.bbox[3]) - max(y0, b.bbox[1]) > 0.5 * min(y1 - y0, b.bbox[3] - b.bbox[1]) and
               (self._is_terminator_word(w) or self._caption_word(b, x1, h))]
        limit = min(nxt) - 0.3 * h if nxt else x1 + 30 * h
        return x0 - 1.0 * h, max(limit, x1)

    @staticmethod
    def _caption_word(box, label_x1: float, h: float) -> bool:
        return box.bbox[0] - label_x1 > CELL_GAP * h and box.conf >= UNSURE_CONF and \
            sum(c.isalpha() for c in box.text) >= 2

    def tokens_below(self, lh: LabelHit, top_y: float, col: tuple[float, float],
                     max_gap: float) -> tuple[list[V.Token], list[int]]:
        """Tokens of the first line under ``top_y`` within the column, and their words."""
        lay = self.layout
        h = lh.line.height
        x0, x1 = col
        label_x1 = max(lay.words[w].bbox[2] for w in lh.words)
        cands = lay.lines_below(x0, min(x1, label_x1 + 1.0 * h), top_y, h, max_gap * h, 0.0)
        for line in cands:
            starts = [w for w in line.words if lay.words[w].bbox[2] > x0 and lay.words[w].bbox[0] < x1]
            if not starts:
                continue
            if h > TITLE_RATIO * line.height and not self._header_row(lh):
                return [], []   # a document title ("INVOICE") heads no column
            # a long value of the column to the left may reach into this one: start at the
            # first word that begins inside the column when there is one
            inside = [w for w in starts if lay.words[w].bbox[0] >= x0]
            first = inside[0] if inside else starts[0]
            # a column closed by the next header takes its whole width; an open one stops
            # at a wide gap
            run = run_from(lay, line, first, COLUMN_WORD_GAP if x1 > label_x1 + 29 * h else 1e9,
                           stop=lambda w: lay.words[w].bbox[0] >= x1 or self._is_terminator_word(w))
            pos = line.words.index(run[0])
            if self._is_terminator_word(run[0]) or \
                    (pos and line.words[pos - 1] in self.row_label_ends):
                # the next field's label, or a key-value row whose value is its own label's
                # ("Cust. #  67625879" under "Invoice #  L439057")
                return [], []
            return [(lay.offsets[w][0], lay.offsets[w][1], lay.words[w].text) for w in run], run
        return [], []

    def _header_row(self, lh: LabelHit) -> bool:
        """Whether the label's line holds other field labels: a table's header row, whose
        boxes a shaded band or descenders may make look as tall as a title's, not a title."""
        return sum(1 for w in lh.line.words if w not in lh.words and
                   (w in self.label_words or self._is_terminator_word(w))) >= 2

    # --- values ---------------------------------------------------------------------------
    def _groups(self, lh: LabelHit) -> list[LabelGroup]:
        entries = self.lex.groups_of.get(lh.key) or self.lex.groups_of.get(lh.key.rstrip("."), ())
        groups = [g for g, strict in entries if lh.strong or not strict]
        if lh.has_num and any(g.suffix for g in groups):
            groups = [g for g in groups if g.suffix]
        return groups

    def _value(self, group: LabelGroup, toks: list[V.Token], strong: bool,
               caption: bool = False, extension: bool = False) -> list[Hit]:
        """The value of ``group``'s kind in ``toks``. ``caption``: the label is a field's
        caption (marked, or opening its line); ``extension``: a phone caption marked as
        one, after which 3 to 5 digits alone are an internal extension."""
        kind = group.value
        if kind not in ("name", "organization"):
            # "Your member ID is 88A-20-1174", "account number: 123"
            while toks and toks[0][2].lower().strip(".:") in FILLERS:
                toks = toks[1:]
        if group.rule == "label_location" and len(toks) > 1 and toks[0][2] == "of":
            toks = toks[1:]    # "County of Floyd", "State of Texas": the place follows "of"
        if not toks:
            return []
        if kind == "name":
            mailbox = V.mailbox_value(toks) if strong else None
            if mailbox is not None:
                return [Hit("label_email", mailbox[0], mailbox[1], group.score)]
            # a name ends where any label begins ("Patient Name DOE JOHN DOB 01/01/1950")
            cut = next((k for k, t in enumerate(toks) if k and t[0] in self.label_starts), len(toks))
            toks = toks[:cut]
            # one name, or a list of them ("To: Samuel Pace; Lawrence Wilkinson")
            hits = []
            while toks and len(hits) < MAX_LISTED_NAMES:
                r = V.name_value(toks, self.vocab, loose=strong)
                if r is None:
                    break
                s, e, org = r
                rule = "label_organization" if org else group.rule
                if not org and place_with_compass(self.text[s:e]):
                    rule = "label_location"
                elif not org and not plausible_name(self.text[s:e], self.vocab):
                    break
                hits.append(Hit(rule, s, e, group.score))
                rest = [t for t in toks if t[0] >= e]
                if rest and _ADDRESS_AFTER_NAME.fullmatch(rest[0][2]):
                    # "Todd Hardin <toddh@salazar.com>; Gonzales, Gregory": a mail header's
                    # list gives each name its address (the e-mail rule hides that)
                    e, rest = rest[0][1] - (rest[0][2][-1] in ";,"), rest[1:]
                sep = self.text[e:rest[0][0]] if rest else ""
                if not re.fullmatch(r"[ ]?[;:/,&][ ]?|[ ](?:and|&)[ ]", sep):
                    break
                toks = rest
            return hits
        if kind == "organization":
            r = V.organization_value(toks)
        elif kind in ("id", "code", "number"):
            r = V.id_value(toks, strong, caption=caption) if kind == "id" else \
                V.code_value(toks, strong) if kind == "code" else V.number_value(toks)
            # "Podesta Group 11/5/10": a day, month and year written with slashes are a
            # date (the date rule's), whatever word before them reads as a label
            if r is not None and _SLASH_DATE.fullmatch(self.text[r[0]:r[1]]):
                r = None
        elif kind == "card":
            r = V.id_value(toks, strong, min_digits=4)
        elif kind == "phone":
            r = V.phone_value(toks, extension)
        elif kind == "email":
            r = V.email_value(toks, strong)
        elif kind == "online":
            r = V.online_value(toks, self.vocab) if strong else V.online_value_in_prose(toks, self.vocab)
        elif kind == "date":
            r = V.date_value(toks)
        elif kind == "period":
            r = V.period_value(toks)
        else:
            return []
        return [] if r is None else [Hit(group.rule, r[0], r[1], group.score)]

    def _block_stop(self, run: Run) -> bool:
        lay = self.layout
        first = run[0]
        if self._is_terminator_word(first) or first in self.label_words:
            return True
        text = " ".join(lay.words[w].text for w in run)
        if not re.search(r"[A-Za-z0-9]", text) or "@" in text or _PHONE_LINE.match(text):
            return True
        return re.match(r"(?i)(?:https?://|www\.)", text) is not None

    def _block(self, lh: LabelHit, first_run: Run) -> list[Run]:
        lay = self.layout
        anchor = lay.words[first_run[0]].bbox[0]
        more = lines_under(lay, first_run, anchor, MAX_BLOCK_LINES - 1, self._block_stop,
                           word_stop=self._is_terminator_word)
        return [first_run] + more

    def _first_run(self, lh: LabelHit, toks: list[V.Token]) -> Run | None:
        """The value's first line as a word run: the tokens right of the label, else the
        line in the label's column under it."""
        lay = self.layout
        if toks:
            ws = [w for w in lay.words_in(toks[0][0], toks[-1][1])]
            return ws or None
        if not lh.strong:
            return None
        _, run = self.tokens_below(lh, lh.line.y1, self._column(lh), BELOW_GAP)
        return run or None

    def _address_value(self, group: LabelGroup, lh: LabelHit, toks: list[V.Token]) -> list[Hit]:
        if not lh.strong:
            # without a colon or a cell of its own, "billing"/"address" in running text
            # only counts before something that starts like a street line
            if group.value == "party" or not toks or not _STREETISH.match(toks[0][2].lstrip(JUNK)):
                return []
        if toks and any("@" in t[2] for t in toks):
            return []
        run = self._first_run(lh, toks)
        if not run:
            return []
        runs = self._block(lh, run)
        hits = []
        if group.value == "party":
            # the lines before the street line: the person, a job title, the company. A
            # postal address is its delivery line(s) and its city line: the name or company
            # line over them is a party of its own, never part of the address
            toks_of = [self._run_tokens(lh, r) for r in runs]
            street = next((k for k, rt in enumerate(toks_of[:MAX_PARTY_LEAD + 1])
                           if rt and _STREETISH.match(rt[0][2].lstrip(JUNK))), None)
            lead = 0
            for rtoks in toks_of[:MAX_PARTY_LEAD]:
                if not rtoks or any(c.isdigit() for t in rtoks for c in t[2]) or \
                        _STREETISH.match(rtoks[0][2].lstrip(JUNK)):
                    break
                if rtoks[-1][2].lower().strip(".,;:") in self.vocab.title_words:
                    lead += 1     # "Restaurant Manager": a job title, nobody's name
                    continue
                nv = V.name_value(rtoks, self.vocab, loose=False)
                if nv is not None:
                    s, e, org = nv
                    hits.append(Hit("label_party_organization" if org else "label_party", s, e,
                                    group.score))
                elif street is not None:
                    # a line the name rules do not read ("Ryan, Miranda and Key", "Hunt-Brown
                    # Ltd."), sitting over the street line: the company's name
                    ov = V.organization_value(rtoks)
                    honorific = rtoks[0][2].rstrip(".").lower() in self.vocab.honorifics
                    if ov is not None and not (len(rtoks) == 1 and honorific):
                        hits.append(Hit("label_party_organization", ov[0], ov[1], group.score))
                else:
                    break
                lead += 1
            runs = runs[lead:]
            rule = "label_party_address"
        else:
            rule = group.rule
        if runs:
            # the first run may start with the label itself: begin after it
            ranges = runs_to_ranges(self.layout, runs)
            for s, e in ranges:
                s = max(s, lh.end) if s <= lh.end < e else s
                s, e = _trim(self.text, s, e, JUNK)
                if e > s and re.search(r"[A-Za-z0-9]", self.text[s:e]):
                    hits.append(Hit(rule, s, e, group.score))
        return hits

    def _run_tokens(self, lh: LabelHit, run: Run) -> list[V.Token]:
        """Tokens of a word run of a party block, without the label's own characters."""
        lay = self.layout
        rtoks = [(lay.offsets[w][0], lay.offsets[w][1], lay.words[w].text) for w in run]
        # OCR may put the lines under a label before it in the text: only the label's own
        # words are cut
        rtoks = [t for t in rtoks if not lh.start <= t[0] < t[1] <= lh.end]
        rtoks = [(lh.end, t[1], self.text[lh.end:t[1]]) if t[0] < lh.end < t[1] else t
                 for t in rtoks]
        return rtoks

    def _table_rows(self, group: LabelGroup, lh: LabelHit, first_run: list[int]) -> list[Hit]:
        """More values under the first one in the same column (a table under its header)."""
        lay = self.layout
        col = self._column(lh)
        hits = []
        top = max(lay.words[w].bbox[3] for w in first_run)
        for _ in range(MAX_TABLE_ROWS):
            toks, run = self.tokens_below(lh, top, col, BELOW_GAP)
            if not run:
                break
            got = self._value(group, toks, group.value != "name")
            if group.value == "name" and got and len(lay.words_in(got[0].start, got[0].end)) < 2:
                got = []
            if not got:
                break
            hits.extend(got)
            top = max(lay.words[w].bbox[3] for w in run)
        return hits

    def find(self) -> list[Hit]:
        hits: list[Hit] = []
        addresses: list[tuple[int, int]] = []     # values of strong address captions
        weak: list[tuple[LabelHit, list[Hit]]] = []
        for lh in self.labels:
            groups = self._groups(lh)
            if not groups:
                continue
            toks = self.right_tokens(lh)
            if V.is_blank(toks):
                toks = []
            found: list[Hit] = []
            for g in groups:
                if g.value in ("address", "party"):
                    found = self._address_value(g, lh, toks)
                    if lh.strong:
                        addresses.extend((h.start, h.end) for h in found)
                else:
                    found = self._value(g, toks, lh.strong, caption=lh.strong or lh.first_on_line,
                                        extension=lh.has_term or lh.has_num)
                if found:
                    break
            if not found and toks and lh.strong and groups[0].value not in RIGHT_ONLY_KINDS:
                found = self._unreadable_value(groups[0], toks)
            if not found and not toks and not lh.strong:
                # "Please use account\n278307-298": running text wrapped between a label
                # and its value; the value opens the next line
                wrapped = self._wrapped_tokens(lh)
                for g in groups:
                    if g.value in WRAPPED_KINDS:
                        found = self._value(g, wrapped, False)
                        if found:
                            break
            if not found and not lh.strong and lh.first_on_line:
                # a fill-in line's caption without a colon ("Phone     342.660.3585" on a
                # message slip): far from its value, which only a strict shape may then be
                # ("Credit Card      6011 9482 5563 5087": a card's 13-19 digits, which OCR
                # may have misread past its checksum)
                wide = self.right_tokens(lh, RIGHT_GAP_STRONG)
                for g in groups:
                    if g.value == "phone":
                        found = self._value(g, wide, False)
                        break
                    if g.value == "card":
                        found = [h for h in self._value(g, wide, False)
                                 if _CARD_SHAPE.fullmatch(self.text[h.start:h.end])]
                        break
            if not found and not lh.strong:
                found = self._typed_capitals(lh, groups)
            if not lh.strong:
                weak.append((lh, found))
                continue
            if found or (toks and not self._far_dirt(lh, toks)) or \
                    all(g.value in RIGHT_ONLY_KINDS for g in groups):
                hits.extend(found)
                continue
            # nothing on the right, or only unsure dirt in the next cell (a smudge read "fo}"
            # 19 text heights away): the value sits under the label (form cell, table column)
            btoks, run = self.tokens_below(lh, lh.line.y1, self._column(lh), BELOW_GAP)
            if not run:
                continue
            for g in groups:
                if g.value in ("address", "party"):
                    continue   # handled above through _first_run
                found = self._value(g, btoks, True, extension=lh.has_term or lh.has_num)
                if found and g.value == "id":
                    found = self._with_comb_rest(found, run)
                if found:
                    hits.extend(found)
                    hits.extend(self._table_rows(g, lh, run))
                    break
            else:
                hits.extend(self._unreadable_value(groups[0], btoks))
        # a weak label inside an address a caption names is a word of that address, not a
        # label: "Boise, ID 83702" holds Idaho, not an ID number
        for lh, found in weak:
            if not any(s <= lh.start < e for s, e in addresses):
                hits.extend(found)
        return hits

    def _typed_capitals(self, lh: LabelHit, groups: list[LabelGroup]) -> list[Hit]:
        """A form row's caption printed in mixed case ("Material Tested ... Supplier OWENS
        CORNING") and the value typed into it in capitals: the change of case marks the
        value, farther from its caption than running text's word spacing. Only a name or an
        organisation caption, and only the run of capitals (2+ letters a word) after it."""
        phrase = self.text[lh.start:lh.end]
        if not any(c.islower() for c in phrase):
            return []
        run: list[V.Token] = []
        for t in self.right_tokens(lh, RIGHT_GAP_STRONG):
            letters = [c for c in t[2] if c.isalpha()]
            if len(letters) < 2 or not all(c.isupper() for c in letters) or t[0] in self.stop_starts:
                break
            run.append(t)
        if not run:
            return []
        for g in groups:
            if g.rule in ("label_person", "label_organization"):
                return [h for h in self._value(g, run, True) if h.rule != "label_email"]
        return []

    def _far_dirt(self, lh: LabelHit, toks: list[V.Token]) -> bool:
        """Whether ``toks`` are words read with confidence under UNSURE_CONF that begin
        farther right of the label than a strong label's value does (RIGHT_GAP_STRONG):
        dirt in the next cell, not this label's value. Nearer unsure words are its value,
        read badly (a signature's scrawl)."""
        lay = self.layout
        words = [w for t in toks for w in lay.words_in(t[0], t[1])]
        if not words or any(not 0 <= lay.words[w].conf < UNSURE_CONF for w in words):
            return False
        gap = lay.words[words[0]].bbox[0] - lay.words[lh.words[-1]].bbox[2]
        return gap > RIGHT_GAP_STRONG * lh.line.height

    def _with_comb_rest(self, found: list[Hit], run: list[int]) -> list[Hit]:
        """An identifier written in a form's comb boxes ("629 | 06 | 4257" under "SOCIAL
        SECURITY NO."): one box per digit spaces its groups wider than words, so the value
        found under the label may be its first group only. Digit groups that follow on the
        line, across box lines and wide gaps, join it when together they make the shape of
        an identifier that forms print in comb boxes (an SSN, an EIN)."""
        lay = self.layout
        line = lay.line_of_word(run[0])
        words = line.words[line.words.index(run[0]):]
        groups: list[int] = []
        last = end = None
        for w in words:
            if last is not None and \
                    lay.words[w].bbox[0] - lay.words[last].bbox[2] > COMB_GAP * line.height:
                break
            t = lay.words[w].text.strip(JUNK + "[](){}«»")
            last = w
            if not t:
                continue       # a box line read as "|"
            if not t.isdigit() or sum(groups) + len(t) > max(map(sum, COMB_SHAPES)):
                break
            groups.append(len(t))
            end = w
            if tuple(groups) in COMB_SHAPES:
                stop = lay.offsets[end][1]
                if stop <= found[0].end:
                    break
                return [Hit(found[0].rule, found[0].start, stop, found[0].score)] + found[1:]
        return found

    def _unreadable_value(self, group: LabelGroup, toks: list[V.Token]) -> list[Hit]:
        """The value of a strong label ("To:", "Phone:", a form cell's caption) that OCR
        could not read: the words where it stands are mostly ones OCR was unsure of, so no
        value shape matched. A reader may still make it out on the scan, so it is hidden
        as the label's type all the same (fail closed); confident words are what they say
        and are never taken this way."""
        limit = UNREADABLE_WORDS.get(group.value)
        if limit is None:
            return []
        while toks and not any(c.isalnum() for c in toks[0][2]):
            toks = toks[1:]    # a speck or a dash between the label and the value
        taken: list[tuple[V.Token, float]] = []
        for t in toks[:limit]:
            w = self.layout.word_at(t[0])
            if w is None or (taken and t[0] in self.label_starts):
                break
            taken.append((t, self.layout.words[w].conf))
        while taken and not 0 <= taken[-1][1] < UNSURE_CONF:
            taken.pop()        # a confident word after the value is something else
        unsure = [t for t, c in taken if 0 <= c < UNSURE_CONF]
        if not taken or 2 * len(unsure) < len(taken) or \
                sum(c.isalnum() for t, _ in taken for c in t[2]) < UNREADABLE_MIN_CHARS:
            return []
        return [Hit(group.rule, taken[0][0][0], taken[-1][0][1], UNREADABLE_SCORE)]


def _trim(text: str, s: int, e: int, lead: str = "") -> tuple[int, int]:
    while s < e and (text[s] in " \n:#,;-" or text[s] in lead):
        s += 1
    while e > s and text[e - 1] in " \n,;:":
        e -= 1
    return s, e


def find_label_hits(layout: PageView, lex: LabelLexicon, vocab: Vocab) -> list[Hit]:
    # names under a caption that names a role ("Name of Registrant", a "Candidate" column)
    return LabelRules(layout, lex, vocab).find() + find_caption_name_hits(layout, vocab)
