"""Where a label's value stands on the page, kept apart from what kind of value it is. Every
kind (a name, a phone, an address block) is looked for in the same places, and forms put
values in many (right of the caption at a tab stop, wrapped onto the next line, under it in a
table column or in comb boxes, a block of lines under it): reading that layout once, here,
leaves ``labels`` to decide which words make which value."""
from __future__ import annotations

import re

from redactor_plugins.rules import values as V
from redactor_plugins.rules.blocks import Run, lines_under, run_from
from redactor_plugins.rules.hits import Hit
from redactor_plugins.rules.label_phrases import (CELL_GAP, ITEM_NUMBER, ITEM_NUMBER_GAP, JUNK, LabelHit,
                                                  is_border_read, is_speck_word, item_number_before)
from redactor.plugin_api import ADDRESS_FIELD_CAPTIONS, UNSURE_CONF, PageView

# How far (in text heights) a value may sit from its label and its own words from each other.
RIGHT_GAP_STRONG = 12.0
# a label with ':' / '#' / "No." announces its value: key-value panels align their values at
# a tab stop far right of the shorter labels
RIGHT_GAP_MARKED = 20.0
TITLE_RATIO = 1.7        # a label this many times taller than the line under it is a title
RIGHT_GAP_WEAK = 1.5
WEAK_SPACING = 1.6       # ... or this many of the gaps between the label's own words
WORD_GAP = 2.2
# ... but a value word that ends in a hyphen goes on after it ("10-    320", an account code
# typed with a space after its hyphen, or its figures filled in by hand further on)
HYPHEN_GAP = 4.0
_HYPHENS = ("-", "–")
BELOW_GAP = 2.5
MAX_BLOCK_LINES = 5
# inside a column the next header bounds the value: boxed fields ("964 | 46 | 5449") may
# space their parts widely
COLUMN_WORD_GAP = 3.0
CLOSED_COLUMN_GAP = 10.0  # ... but no gap as wide as a column: the value of the next column,
                          # typed left of its caption ("3. Residence Address" and "4. Business
                          # Address" side by side on a FARA short form)

# Digit groups of identifiers that forms print in comb boxes (SSN 3-2-4, EIN 2-7), and how
# far apart (text heights) the boxes may space two groups.
COMB_SHAPES = ((3, 2, 4), (2, 7))
COMB_GAP = 6.0
# captions of a block's attention line ("ATTN: Accounts Payable", "c/o Jane Doe")
ATTENTION_CAPTIONS = frozenset({"attn", "attention", "c/o"})
_PHONE_LINE = re.compile(r"^[+()\d\s.\-/]{7,}$")
# a line of the captions a form prints under an address's fill-in line ("City   State   Zip
# Code") holds no word read this surely that is no such caption; the captions of a street
# line's own parts ("Suite", "Apt") open values, not caption lines
CAPTION_LINE_SURE = 80.0
_UNDER_LINE_CAPTIONS = tuple(sorted(ADDRESS_FIELD_CAPTIONS - {"address", "street", "st", "apt", "suite", "town"}))


def _near_caption(word: str) -> bool:
    """A field caption, also one OCR read a letter off or short ("Zp", "Citv")."""
    w = "".join(c for c in word.lower() if c.isalpha())
    return len(w) >= 2 and any(w == c or (abs(len(w) - len(c)) <= 1 and _one_off(w, c))
                               for c in _UNDER_LINE_CAPTIONS)


def _one_off(a: str, b: str) -> bool:
    """Whether a and b differ by one letter replaced, added or dropped."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


class LabelGeometry:
    """The layout half of ``LabelRules``: the words a label's value may be, right of it, on
    the next line, or under it in its column. The subclass sets the attributes below."""

    layout: PageView
    text: str
    stop_starts: set[int]
    label_words: set[int]
    terminator_words: set[int]
    row_label_ends: set[int]

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
            if w is None and lh.has_term:
                w = self._right_aligned_value(last)
                if w is not None:
                    first_px = float("inf")
        while w is not None:
            gap = lay.words[w].bbox[0] - lay.words[prev].bbox[2]
            # a speck or dash right after the label does not start the value
            started = any(any(c.isalnum() for c in t[2]) for t in toks)
            limit = first_px if not started else \
                HYPHEN_GAP * h if toks[-1][2].endswith(_HYPHENS) else WORD_GAP * h
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
            if w is None and prev != last and toks[-1][2].endswith(_HYPHENS):
                # ... its figures written a little higher or lower, which OCR reads as a
                # line of their own
                w = self._word_right_of(prev, HYPHEN_GAP * h)
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

    def _right_aligned_value(self, word: int) -> int | None:
        """The value of a summary panel's row ("Invoice Number:  ...  42183017"): invoices
        and statements set their values flush right at the panel's edge, however far from
        the label. The nearest word right of ``word`` on its row, opening its own line,
        whose line ends where a line right above or below it ends (the column of values);
        nothing stands between."""
        lay = self.layout
        w = self._word_right_of(word, float("inf"))
        if w is None:
            return None
        line = lay.line_of_word(w)
        if line.words[0] != w:
            return None
        h, x_label = line.height, lay.words[word].bbox[2]
        return w if any(other.index != line.index and abs(other.x1 - line.x1) <= 0.5 * h and
                        other.x0 > x_label and 0 < abs(other.yc - line.yc) <= 2.5 * h
                        for other in lay.lines) else None

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
        item = item_number_before(lay, lh.words[0])
        x_in = x0 if item is None else min(x0, lay.words[item].bbox[0] - 0.5 * h)
        cands = lay.lines_below(x0, min(x1, label_x1 + 1.0 * h), top_y, h, max_gap * h, 0.0)
        for line in cands:
            starts = [w for w in line.words if lay.words[w].bbox[2] > x0 and lay.words[w].bbox[0] < x1]
            if not starts:
                continue
            if h > TITLE_RATIO * line.height and not self._header_row(lh):
                return [], []   # a document title ("INVOICE") heads no column
            # a long value of the column to the left may reach into this one: start at the
            # first word that begins inside the column when there is one (a numbered item's
            # value is written under its number too: "1. Name" over "AENGUS MURRAY")
            inside = [w for w in starts if lay.words[w].bbox[0] >= x_in]
            first = inside[0] if inside else starts[0]
            # a column closed by the next header takes its whole width, but for a gap as wide
            # as a column (the next column's value typed left of its caption); an open one
            # stops at a wide gap
            run = run_from(lay, line, first, COLUMN_WORD_GAP if x1 > label_x1 + 29 * h else CLOSED_COLUMN_GAP,
                           stop=lambda w: lay.words[w].bbox[0] >= x1 or self._is_terminator_word(w))
            pos = line.words.index(run[0])
            if self._is_terminator_word(run[0]) or self._opens_item(run) or \
                    (pos and line.words[pos - 1] in self.row_label_ends):
                # the next field's label, or a key-value row whose value is its own label's
                # ("Cust. #  67625879" under "Invoice #  L439057")
                return [], []
            return [(lay.offsets[w][0], lay.offsets[w][1], lay.words[w].text) for w in run], run
        return [], []

    def _opens_item(self, run: list[int]) -> bool:
        """The run starts with the next item's number and its caption ("4. Business Address"
        under "2. Registration No."): the next field, no value."""
        lay = self.layout
        text = lay.words[run[0]].text
        if not (ITEM_NUMBER.fullmatch(text) and text[0].isdigit()):
            return False      # (a letter and its stop may be a name's initial: "W. Robert Warne")
        _, y0, x1, y1 = lay.words[run[0]].bbox
        h = lay.line_of_word(run[0]).height
        # a caption word beside it, whatever OCR line it was put in
        return any(b.text[:1].isupper() and sum(c.isalpha() for c in b.text) >= 2 and
                   x1 - 0.5 * h <= b.bbox[0] <= x1 + ITEM_NUMBER_GAP * h and
                   min(y1, b.bbox[3]) - max(y0, b.bbox[1]) > 0
                   for b in lay.words)

    def _header_row(self, lh: LabelHit) -> bool:
        """Whether the label's line holds other field labels: a table's header row, whose
        boxes a shaded band or descenders may make look as tall as a title's, not a title."""
        return sum(1 for w in lh.line.words if w not in lh.words and
                   (w in self.label_words or self._is_terminator_word(w))) >= 2

    def _block_stop(self, run: Run) -> bool:
        lay = self.layout
        first = run[0]
        if self._is_terminator_word(first) or first in self.label_words or self._opens_item(run):
            return True
        text = " ".join(lay.words[w].text for w in run)
        if not re.search(r"[A-Za-z0-9]", text) or "@" in text or _PHONE_LINE.match(text):
            return True
        # a line of the captions printed under the fill-in line ends the value above them
        # (the whole line: its captions stand apart, one per field), all its other words
        # unsure: a line with a value read surely ("City. Novato  State CA") is a field's
        words = [lay.words[w] for w in lay.line_of_word(first).words if any(c.isalpha() for c in lay.words[w].text)]
        captions = [_near_caption(w.text) for w in words]
        if words and len(words) <= 6 and 2 * sum(captions) >= len(words) and \
                all(c or w.conf < CAPTION_LINE_SURE for w, c in zip(words, captions)):
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
        line in the label's column under it. A party's block may open with its attention
        line ("ATTN: iViveLabs Limited" under "Bill to Address:"), which its own caption
        reads: the block then starts under it."""
        lay = self.layout
        if toks:
            ws = [w for w in lay.words_in(toks[0][0], toks[-1][1])]
            return ws or None
        if not lh.strong:
            return None
        _, run = self.tokens_below(lh, lh.line.y1, self._column(lh), BELOW_GAP)
        if not run:
            attention = self._attention_line_below(lh)
            if attention is not None:
                _, run = self.tokens_below(lh, attention.y1, self._column(lh), BELOW_GAP)
        return run or None

    def _attention_line_below(self, lh: LabelHit):
        """The line right under the label when it opens with an attention caption."""
        lay = self.layout
        x0, x1 = self._column(lh)
        below = lay.lines_below(x0, x1, lh.line.y1, lh.line.height, BELOW_GAP * lh.line.height)
        if below and lay.words[below[0].words[0]].text.lower().rstrip(".:") in ATTENTION_CAPTIONS:
            return below[0]
        return None

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
