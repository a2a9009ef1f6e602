"""Label phrases on the page: where the lexicon's labels ("Acct #", "Name:", "Bill To") stand,
matched exactly, by regex or fuzzily where OCR misread them, split across a form's cells,
read whole from a header row, joined into compound labels; and the stop labels that end the
value before them. ``labels`` gives their type to the values beside and under them."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from redactor.plugin_api import Line, PageView
from redactor_plugins.rules.lexicon import LabelLexicon, letters_key, normalise_label

CELL_GAP = 2.5           # text heights: a wider gap between a line's words starts another cell
STRAY_JOIN_GAP = 2.0     # text heights: a caption's words around a stray symbol stand this close
FUZZY_CUTOFF = 0.84      # similarity a misread label needs to its lexicon phrase
CLOSEST_MEMO = 50_000    # fuzzy lookups kept per lexicon before the memo starts again
JUNK = "‘’'`\"“”|•·*~^_.,;:!-–—=+"
STRAY = "}{)(][|~^`'\"‘’“”•·*»«"    # symbols a speck or a bracket's stroke is read as
NUMBER_CAPTION = "no"    # the key of a bare number caption ("No.") in the lexicon
_LEADING_RULE = re.compile(r"(?<![^\s])_+(?=[A-Za-z])")
# ... and a form item's number OCR read glued to its caption ("1..Name_", "2.Registration")
_GLUED_NUMBER = r"\d{1,2}[.,]{1,2}"
_GLUED_ITEM = re.compile(rf"(?<![^\s]){_GLUED_NUMBER}(?=[A-Z][a-z])")
# ... and one opening its line ("5." read as "5:" too), with the words of letters after it
_NUMBERED_ITEM = re.compile(r"(?:^|\n)[ ]?[1-9]\d?[a-z]?[.,:)][ ]"
                            r"((?:[A-Za-z][A-Za-z'’/\-]*[ ]){1,3}[A-Za-z][A-Za-z'’/\-]*)")
BAR_LIKE = "|!il1I()[]{}/\\"   # what OCR reads a vertical cell border as
BORDER_READ_W = 0.6      # text heights: a border read as a word is at most this wide ...
BORDER_READ_H = 1.3      # ... and, unless read as "|", at least this tall
THICK_BORDER_W = 1.0     # ... or up to a text height wide, a "|" taller than that
# Government and business forms number their items ("1. Name", "5. Year of Birth", "12a.",
# "(b) Address", "C. Telephone"): the number opens the item's caption, it is no text before
# it. A figure's stop may be read as a comma ("4, Business Address") or a colon ("5: Year of
# Bitth" on an unseen FARA form); items are counted from 1 and a letter closed by a bracket
# is left out: "0)" and "C)" are empty checkboxes read so.
ITEM_NUMBER = re.compile(r"[1-9]\d?[a-z]?[.,:)]|[A-Za-z]\.|\((?:[1-9]\d?|[a-z])\)")
ITEM_NUMBER_GAP = 1.5    # text heights between an item number and its caption at most
_COLON_LABEL = re.compile(r"(?<![\w])((?:[A-Za-z][\w'’./\-]*[ ]){0,2}[A-Za-z][\w'’./\-]*?)[ ]?([#:])")
# words in parentheses, not a number: "(E75518)" after a label is its value
# (OCR reads the round brackets of a typewritten "(s)" as braces or square ones: "Supplier{s)")
_ANNOTATION = re.compile(r"[ ]?[({\[](?![^)}\]]*\d{2})[^(){}\[\]\n]{0,40}[)}\]][ ]?(?P<term>[:#])?")


@dataclass(frozen=True)
class LabelHit:
    start: int               # first character of the label
    end: int                 # after the label, its number word and its ':' / '#'
    key: str                 # normalised phrase
    has_num: bool
    has_term: bool
    words: tuple[int, ...]   # words the label covers (partly or fully)
    line: Line
    first_on_line: bool
    cell_alone: bool

    @property
    def strong(self) -> bool:
        return self.has_term or self.has_num or self.cell_alone


@dataclass(frozen=True)
class _Match:
    """A label occurrence: what the regex found, or a misread label before a colon."""
    start: int
    end: int
    phrase_end: int
    key: str
    num: bool
    term: bool


def _split_across_cells(layout: PageView, lex: LabelLexicon, matches: list[_Match]) -> list[_Match]:
    """A phrase whose words lie in different cells ("CITY   STATE   ZIP CODE" as three
    header cells, on one OCR line or read as lines of their own along the row) is several
    labels: match again inside each cell."""
    out = []
    for m in matches:
        words = layout.words_in(m.start, m.end)
        cuts = [k for k in range(1, len(words))
                if _one_row(layout, words[k - 1], words[k]) and
                layout.words[words[k]].bbox[0] - layout.words[words[k - 1]].bbox[2]
                > 2 * layout.line_of_word(words[k]).height]
        if not cuts:
            out.append(m)
            continue
        bounds = [0] + cuts + [len(words)]
        for a, b in zip(bounds, bounds[1:]):
            lo = max(m.start, layout.offsets[words[a]][0])
            hi = min(m.end, layout.offsets[words[b - 1]][1]) if b < len(words) else m.end
            out.extend(_regex_matches(layout.page.text, lex, lo, hi))
    return out


def _one_row(layout: PageView, a: int, b: int) -> bool:
    """Words a and b stand on one row: one OCR line, or their middles half a text height apart."""
    if layout.word_line[a] == layout.word_line[b]:
        return True
    (_, ay0, _, ay1), (_, by0, _, by1) = layout.words[a].bbox, layout.words[b].bbox
    return abs((ay0 + ay1) - (by0 + by1)) / 2 < 0.5 * layout.line_of_word(b).height


def _regex_matches(text: str, lex: LabelLexicon, pos: int = 0, endpos: int | None = None) -> list[_Match]:
    # a fill-in line OCR glued to the front of a caption ("_CONTRACT", "__Lorillard") is
    # no part of its word: matched as if it were a space (the same length keeps offsets);
    # so is an item's number glued to it
    text = _LEADING_RULE.sub(lambda r: " " * len(r.group()), text)
    text = _GLUED_ITEM.sub(lambda r: " " * len(r.group()), text)
    out = []
    for m in lex.regex.finditer(text, pos, len(text) if endpos is None else endpos):
        if re.match(r"[ .]*box\b", text[m.end("phrase"):], re.I):
            continue   # "P.O. Box" is an address, not a purchase-order label
        if not re.search(r"[A-Za-z]", m.group("phrase")):
            continue   # "55" of an SSN in comb boxes is a number OCR could read as "SS"
        out.append(_Match(m.start(), m.end(), m.end("phrase"), normalise_label(m.group("phrase")),
                          bool(m.group("num")) or _ends_in_number_word(m.group("phrase"), lex),
                          bool(m.group("term"))))
    return out


def _ends_in_number_word(phrase: str, lex: LabelLexicon) -> bool:
    """Whether a caption of two or more words ends in its number word ("JOB NUMBER 916",
    "Auth No 5060"): a form's caption names its number so, as "Job No." does, and is as
    marked as that (short values after it count); one word alone ("Ref") is not."""
    words = phrase.lower().replace(".", " ").split()
    return len(words) >= 2 and words[-1] in lex.number_words


def is_stray_symbol(layout: PageView, w: int) -> bool:
    """A word that is one or two stray symbols ("}", "|", "~"): a speck or a bracket's
    stroke OCR read inside a caption ("Sample } No.")."""
    t = layout.words[w].text
    return len(t) <= 2 and all(c in STRAY for c in t)


def _across_stray_symbols(layout: PageView, lex: LabelLexicon, matches: list[_Match]) -> list[_Match]:
    """A caption whose words OCR read with a stray symbol between them ("for Sample } No.
    5030"): matched again with the symbol left out, when its neighbours stand as close as
    a phrase's words do (STRAY_JOIN_GAP text heights apart at most: a cell border between
    two captions leaves more room). The whole caption replaces the labels found in its
    pieces."""
    text = layout.page.text
    found: list[_Match] = []
    for line in layout.lines:
        ws = line.words
        for k in range(1, len(ws) - 1):
            p, j, n = ws[k - 1], ws[k], ws[k + 1]
            if not is_stray_symbol(layout, j) or is_stray_symbol(layout, p) or is_stray_symbol(layout, n):
                continue
            if layout.words[n].bbox[0] - layout.words[p].bbox[2] > STRAY_JOIN_GAP * line.height:
                continue
            a, b = ws[max(0, k - 4)], ws[min(len(ws) - 1, k + 4)]
            left = text[layout.offsets[a][0]:layout.offsets[p][1]]
            right = text[layout.offsets[n][0]:layout.offsets[b][1]]
            cut = len(left)

            def back(i: int, a=a, n=n, cut=cut) -> int:
                return layout.offsets[a][0] + i if i <= cut else layout.offsets[n][0] + i - cut - 1

            for m in _regex_matches(left + " " + right, lex):
                if m.start < cut < m.phrase_end:
                    found.append(_Match(back(m.start), back(m.end), back(m.phrase_end), m.key, m.num, m.term))
    if not found:
        return matches
    kept = [m for m in matches if not any(f.start < m.end and m.start < f.end for f in found)]
    return kept + found


def _closest(lex: LabelLexicon, key: str, keys: list[str]) -> list[str]:
    memo = lex.closest
    if key not in memo:
        if len(memo) >= CLOSEST_MEMO:
            memo.clear()
        memo[key] = difflib.get_close_matches(key, keys, n=1, cutoff=FUZZY_CUTOFF)
    return memo[key]


def _fuzzy_keys(lex: LabelLexicon) -> list[str]:
    """The lexicon's phrases a misread caption may be matched to: four letters or more."""
    return [k for k in lex.groups_of if len(k) >= 4]


def _fuzzy_matches(text: str, lex: LabelLexicon, taken: list[_Match]) -> list[_Match]:
    """Words before a colon (or '#') are a label by form: when OCR misread them ("Custmer
    Nane:"), take the lexicon phrase they are closest to (similarity >= FUZZY_CUTOFF)."""
    keys = _fuzzy_keys(lex)
    out = []
    for m in _COLON_LABEL.finditer(text):
        if any(t.start < m.end() and m.start() < t.end for t in taken):
            continue
        words = m.group(1).split(" ")
        for k in range(len(words)):       # longest phrase first
            phrase = " ".join(words[k:])
            key = normalise_label(phrase)
            if len(key) < 4 or lex.stop_regex.fullmatch(phrase):
                continue
            close = _closest(lex, key, keys)
            if close:
                start = m.start(1) + len(" ".join(words[:k])) + (1 if k else 0)
                out.append(_Match(start, m.end(), m.end(1), close[0], m.group(2) == "#", True))
                break
    return out


def _fuzzy_item_captions(text: str, lex: LabelLexicon, taken: list[_Match]) -> list[_Match]:
    """A numbered form item opens with its caption ("5. Year of Bitth 1992" on a
    registration form): the words after the item's number, up to the value, are a label by
    form too, and when OCR misread them the lexicon phrase they are closest to is taken."""
    keys = _fuzzy_keys(lex)
    out = []
    for m in _NUMBERED_ITEM.finditer(text):
        if any(t.start < m.end() and m.start(1) < t.end for t in taken):
            continue
        words = m.group(1).split(" ")
        for k in range(len(words), 1, -1):     # longest phrase first, two words at least
            phrase = " ".join(words[:k])
            key = normalise_label(phrase)
            if len(key) < 6 or lex.stop_regex.fullmatch(phrase) or key in lex.groups_of:
                continue
            close = _closest(lex, key, keys)
            if close:
                end = m.start(1) + len(phrase)
                out.append(_Match(m.start(1), end, end, close[0], False, False))
                break
    return out


def _cells(layout: PageView, line) -> list[list[int]]:
    """The line's words in cells: runs apart by more than CELL_GAP text heights or by a
    border OCR read as a word (the border itself left out)."""
    return layout.cells(line, CELL_GAP, separator=lambda w: is_border_read(layout, w))


def _header_cells(layout: PageView, lex: LabelLexicon, matches: list[_Match]) -> list[_Match]:
    """A form's header row names every cell: on a line where two or more cells hold a
    label, a caption OCR misread ("IP CODE" for "ZIP CODE", "CITV") is the lexicon phrase
    its whole cell is closest to (similarity >= FUZZY_CUTOFF), replacing a shorter label
    the misreading made of part of it ("IP", the IP address's)."""
    text = layout.page.text
    keys = _fuzzy_keys(lex)
    out = list(matches)
    for line in layout.lines:
        cells = _cells(layout, line)
        if len(cells) < 3:
            continue
        spans = [(layout.offsets[c[0]][0], layout.offsets[c[-1]][1]) for c in cells]
        inside = [[m for m in out if a <= m.start and m.end <= b + 1] for a, b in spans]
        if sum(1 for ms in inside if ms) < 2:
            continue
        for (a, b), ms, cell in zip(spans, inside, cells):
            covered = {w for m in ms for w in layout.words_in(m.start, m.end)}
            if len(cell) > 3 or any(m.term or m.num for m in ms) or \
                    any(m.start == a and m.end >= b for m in ms) or \
                    ms and len(set(cell) - covered) != 1:
                continue   # labels hold the cell, a colon ends one, or more follows them
            phrase = text[a:b]
            key = normalise_label(phrase)
            if len(key) < 4 or lex.stop_regex.fullmatch(phrase):
                continue
            close = difflib.get_close_matches(key, keys, n=1, cutoff=FUZZY_CUTOFF)
            if close and all(close[0] != m.key for m in ms):
                out = [m for m in out if m not in ms]
                out.append(_Match(a, b, b, close[0], False, False))
    return out


# captions of a record whose "... Name" is the record's own name, not a person's
_NAMED_THINGS = frozenset(normalise_label(k) for k in ("project", "file", "job", "program", "study", "contract", "case",
                                                        "matter"))    # (as label keys are written: "file" -> "flle")


def _compounds(layout: PageView, matches: list[_Match]) -> list[_Match]:
    """Labels written next to each other are one label whose last word names the field:
    "Employer Address" is an address, "Customer Account Number" an account number."""
    out: list[_Match] = []
    for m in matches:
        prev = out[-1] if out else None
        if prev is not None and not prev.term and not prev.num and \
                layout.page.text[prev.end:m.start] in (" ", ""):
            a, b = layout.word_at(prev.end - 1), layout.word_at(m.start)
            if a is not None and b is not None and layout.word_line[a] == layout.word_line[b]:
                h = layout.line_of_word(a).height
                if layout.words[b].bbox[0] - layout.words[a].bbox[2] <= 1.2 * h:
                    if m.key == "name" and prev.key in _NAMED_THINGS:
                        out.pop()     # "PROJECT NAME": a project's name, no person's nor number
                        continue
                    out[-1] = _Match(prev.start, m.end, m.phrase_end, m.key, m.num, m.term)
                    continue
        out.append(m)
    return out


def _with_annotations(text: str, matches: list[_Match]) -> list[_Match]:
    """A parenthesis right after a label belongs to it: "NAME (Last, First, M.I.)",
    "HOME ADDRESS (Number and Street)"."""
    out = []
    for m in matches:
        a = _ANNOTATION.match(text, m.end)
        if a:
            m = _Match(m.start, a.end(), m.phrase_end, m.key, m.num, m.term or bool(a.group("term")))
        out.append(m)
    return out


def _without_value_prefixes(text: str, matches: list[_Match]) -> list[_Match]:
    """A value may begin with letters that spell a label: in "INVOICE NO. INV-19020" the
    "INV-" right after a label that announced its value is the value's prefix."""
    out: list[_Match] = []
    for m in matches:
        prev = out[-1] if out else None
        if prev is not None and (prev.num or prev.term) and not text[prev.end:m.start].strip() and \
                text[m.phrase_end:m.end].strip() == "-" and "\n" not in text[prev.end:m.start]:
            continue
        out.append(m)
    return out


def is_border_read(layout: PageView, w: int) -> bool:
    """A form's cell border that OCR read as a word ("i", "|", ")", "_—_-|"): thin, nothing
    but bar-like characters, and no letter or digit but a lower-case "i" among them unless
    it is taller than the text (a "1" or an "I." of the value is not)."""
    word = layout.words[w]
    x0, y0, x1, y1 = word.bbox
    h = layout.line_of_word(w).height
    letters = "".join(c for c in word.text if c.isalnum())
    # a lone "|" taller than the text is a border a blurred scan drew thick
    wide = BORDER_READ_W if not (word.text == "|" and y1 - y0 >= BORDER_READ_H * h) else THICK_BORDER_W
    return x1 - x0 <= wide * h and all(c in JUNK + BAR_LIKE for c in word.text) and \
        (letters in ("", "i") or y1 - y0 >= BORDER_READ_H * h)


def gap_before_text(layout: PageView, word: int) -> float | None:
    """Horizontal gap to the previous word of the line that is text, not a border read. A
    form's item number right before the word ("1. Name", "5. Year of Birth", "(b) Address")
    opens the item with it: the gap is measured before the number."""
    line = layout.line_of_word(word)
    start = item_number_before(layout, word)
    start = word if start is None else start
    pos = line.words.index(start)
    while pos > 0 and is_border_read(layout, line.words[pos - 1]):
        pos -= 1
    if pos == 0:
        return None
    return layout.words[start].bbox[0] - layout.words[line.words[pos - 1]].bbox[2]


def item_number_before(layout: PageView, word: int) -> int | None:
    """The form's item number right before ``word`` on its line ("1." of "1. Name"), or None."""
    line = layout.line_of_word(word)
    pos = line.words.index(word)
    if pos == 0:
        return None
    prev = line.words[pos - 1]
    if ITEM_NUMBER.fullmatch(layout.words[prev].text) and \
            layout.words[word].bbox[0] - layout.words[prev].bbox[2] <= ITEM_NUMBER_GAP * line.height:
        return prev
    return None


QUALIFIER_WORDS = 2       # "Coupon Issue Date", "Policy Effective Date": at most two words
                          # of a form item's own before a lexicon caption


def _qualified_caption(layout: PageView, first: int, h: float) -> bool:
    """Whether the label starting at word ``first`` opens its line after one or two
    capitalised words that name what it is about ("- Coupon Issue Date   10/90", "Payment
    Due Date"): a form item's caption, the value in the cell to its right. Asked of
    labels of two words or more: a one-word label after a name is part of a name ("Hawkins
    Group")."""
    line = layout.line_of_word(first)
    pos = line.words.index(first)
    k = pos
    while k > 0 and pos - k < QUALIFIER_WORDS:
        prev = layout.words[line.words[k - 1]]
        if not re.fullmatch(r"[A-Z][a-z]+", prev.text) or \
                layout.words[line.words[k]].bbox[0] - prev.bbox[2] > 1.5 * h:
            break
        k -= 1
    if k == pos:
        return False
    before = line.words[:k]
    # only a bullet or a border before the item, or a cell gap
    return all(not layout.words[w].text.strip(JUNK) or is_border_read(layout, w) for w in before) or \
        layout.words[line.words[k]].bbox[0] - layout.words[before[-1]].bbox[2] > 2 * h


def find_labels(layout: PageView, lex: LabelLexicon) -> list[LabelHit]:
    text = layout.page.text
    out = []
    matches = _split_across_cells(layout, lex, _regex_matches(text, lex))
    matches = _across_stray_symbols(layout, lex, matches)
    matches += _fuzzy_matches(text, lex, matches)
    matches += _fuzzy_item_captions(text, lex, matches)
    matches = _header_cells(layout, lex, matches)
    matches = _with_annotations(text, _compounds(layout, sorted(matches, key=lambda m: m.start)))
    matches = _without_value_prefixes(text, matches)
    for m in matches:
        words = layout.words_in(m.start, m.end)
        if not words:
            continue
        # a label wrapped onto the next line belongs to the line where it ends: its last
        # letters' line, not a ':' after it that OCR read as a speck of a row of its own
        lettered = [w for w in words if any(c.isalnum() for c in layout.words[w].text)]
        line = layout.line_of_word((lettered or words)[-1])
        if len({layout.word_line[w] for w in words}) > 2:
            continue
        h = line.height
        on_line = [w for w in words if layout.word_line[w] == line.index]
        gap_b = gap_before_text(layout, on_line[0])
        # OCR often puts specks before a label ("‘SHIP TO"): they do not count as text
        lead = text[layout.offsets[on_line[0]][0]:max(m.start, layout.offsets[on_line[0]][0])]
        # (a bare "No." after a word is that word's number, ``_number_caption``'s to judge)
        bare_lead = not lead.strip(JUNK) or re.fullmatch(_GLUED_NUMBER, lead) is not None
        first_on_line = (bare_lead and (gap_b is None or gap_b > 2 * h)) or \
            (len(on_line) > 1 and m.key != NUMBER_CAPTION and _qualified_caption(layout, on_line[0], h))
        # something close to the right of the label (in the same word, or the next word)?
        last = words[-1]
        # (a fill-in line glued after it is no value: "1..Name_")
        if m.end < layout.offsets[last][1] and text[m.end:layout.offsets[last][1]].strip(" :#.-_"):
            right_close = True
        else:
            nxt = layout.next_in_line(last)
            while nxt is not None and (is_speck_word(layout.words[nxt], h) or is_border_read(layout, nxt)):
                nxt = layout.next_in_line(nxt)   # dirt or a border beside a caption is no value
            right_close = nxt is not None and \
                layout.words[nxt].bbox[0] - layout.words[last].bbox[2] <= CELL_GAP * h
        caption = m.key == NUMBER_CAPTION and _number_caption(layout, lex, m, on_line[0], first_on_line)
        if m.key == NUMBER_CAPTION and not caption:
            continue   # "no" the word, or the number word of the word before it
        lh = LabelHit(m.start, m.end, m.key, m.num, m.term or caption, tuple(words), line,
                      first_on_line, first_on_line and not right_close)
        if len(normalise_label(text[m.start:m.phrase_end])) == 1 and not m.term and \
                not lh.cell_alone and not re.match(r"[ ]?[+(]?\d", text[m.end:m.end + 3]):
            # "M." before a surname is an initial; "T 212 555 0100" is a label, and so is
            # the "M" of a phone-message slip, printed alone before its fill-in line
            continue
        phrase = text[m.start:m.phrase_end].split()
        if not lh.strong and lex.literal and len(phrase) == 1 and \
                letters_key(phrase[0]) not in lex.literal:
            continue   # a word that only an OCR confusion makes a label: "Allen", not "alien"
        out.append(lh)
    return out


# a number after "No" that a firm's own numbering gives: figures, perhaps with letters
_NUMBERED = re.compile(r"[ ]?[A-Za-z]{0,3}\d[\w\-/.]*")


def _after_a_firms_name(layout: PageView, m: _Match, first: int) -> bool:
    """Whether "No" follows a proper name and comes before a number: a firm's own number for
    its samples, files or batches, captioned by the firm's name ("LORILLARD NO. OR39-23",
    "Lorillard No A123" on a laboratory's request form), its dot or not. A name is a
    capitalised word that is no everyday English word ("Page No. 3", "Maker No." are
    the number words of ordinary words)."""
    from redactor_plugins.rules.values import is_common_word

    text = layout.page.text
    line = layout.line_of_word(first)
    pos = line.words.index(first)
    value_at = m.phrase_end + (text[m.phrase_end:m.phrase_end + 1] == ".")
    if not pos or not _NUMBERED.match(text, value_at):
        return False
    # (a cell's border read as a bracket or a bar glued to the name is no part of it:
    # "[Distnbvtor No. 20162", a distributor's number with its word misread)
    name = layout.words[line.words[pos - 1]].text.lstrip("[|(")
    return len(name) >= 4 and name.isalpha() and name[0].isupper() and not is_common_word(name.lower())


def _number_caption(layout: PageView, lex: LabelLexicon, m: _Match, first: int, first_on_line: bool) -> bool:
    """Whether a bare "No." is a caption of its own, the number of the document, case or
    sample the page is about ("No. C-40" in a form's corner, "Dade County, Florida. No.
    69-1351" on a court paper): written as the abbreviation (its dot, or the comma or
    colon OCR reads for it), opening its cell or following a sentence's end, and not
    "No. of" (a count). After a word it is that word's number ("Page No. 3",
    "Maker No."), which the lexicon names when it is a label of ours; after a proper name,
    dot or not, the firm's own number (``_after_a_firms_name``)."""
    text = layout.page.text
    after = text[m.phrase_end:m.phrase_end + 1]
    if re.match(r"[ .,:]*of\b", text[m.phrase_end:m.phrase_end + 6], re.I):
        return False
    if _after_a_firms_name(layout, m, first):
        return True
    if not (text[m.phrase_end - 1] == "." or after in (",", ":", "#") or m.term):
        return False
    if first_on_line:
        return True
    line = layout.line_of_word(first)
    pos = line.words.index(first)
    if pos == 0:
        return True
    prev = line.words[pos - 1]
    start = layout.offsets[prev][0]
    stop = lex.stop_regex.match(text, start)
    if stop is not None and stop.end() > m.start:
        return False   # "Cat. No.", "Item No.": a stop label's own number word
    # after a sentence's full stop ("Dade County, Florida. No. 69-1351"), not after an
    # abbreviation's or a citation's ("Vol. 44, No. 145", "F.P.M. No. 1")
    return re.fullmatch(r"[A-Za-z]{4,}\.", layout.words[prev].text) is not None


def stop_starts(layout: PageView, lex: LabelLexicon) -> tuple[set[int], set[int]]:
    """Start characters of stop labels ("Amount:", "Qty"): those that clearly begin a new
    field, and all of them."""
    text = layout.page.text
    clear, every = set(), set()
    for m in lex.stop_regex.finditer(text):
        w = layout.word_at(m.start())
        if w is None:
            continue
        # OCR often reads a speck or a quote before a header cell ("“Ship Via"): the
        # stop label still begins its word
        start = layout.offsets[w][0]
        if text[start:m.start()].strip(JUNK):
            continue
        every.add(start)
        gap = layout.gap_before(w)
        h = layout.line_of_word(w).height
        if m.group(0).rstrip().endswith((":", "#")) or gap is None or gap > 1.5 * h:
            clear.add(start)
    return clear, every


def is_speck_word(w, h: float) -> bool:
    """A word of one or two characters (or one letter or digit among quotes and brackets:
    '7")') that OCR was not sure of, or an unsure word less than half as tall as the text
    of its line (a dotted rule read as "te *seete? Mes"): dirt, not a value."""
    if 0 <= w.conf < 20 and (len(w.text.strip()) <= 2 or sum(c.isalnum() for c in w.text) <= 1):
        return True
    return w.is_speck(h)
