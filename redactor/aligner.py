"""Maps detector spans (character offsets in the page text) back to pixel rectangles.

A span covers every word whose characters it touches; a span that cuts a word takes the
whole word, because a half-hidden word is still readable, unless what it leaves out is a
fill-in line (or, asked to, punctuation) whose glyphs the page's ink shows apart
(``redactor.edge_trim``). Each span
becomes the minimum rectangle(s) around its words: one rectangle when its lines stack into a compact block (an
address), one per line when a single rectangle would hide much more than the value (a value
wrapped from the end of one line to the start of the next).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Iterable, Literal, Sequence

from redactor.box_geometry import area, iou
from redactor.form_vocabulary import ADDRESS_FIELD_CAPTIONS
from redactor.model import BBox, OcrPage, Redaction, Span
from redactor.page_view import page_view

BoxMode = Literal["auto", "span", "line"]

# A single rectangle is kept for a multi-line span while it is at most this many times the
# area of the per-line rectangles it replaces; beyond that it would black out bystanders.
_BLOCK_AREA_RATIO = 1.8


@dataclass(frozen=True)
class Alignment:
    redactions: list[Redaction]
    dropped: list[Span]          # spans that touched no word (reported, never silent)


def union_box(boxes: Iterable[BBox]) -> BBox:
    xs0, ys0, xs1, ys1 = zip(*boxes)
    return (min(xs0), min(ys0), max(xs1), max(ys1))


def words_in_span(page: OcrPage, start: int, end: int) -> list[int]:
    """Indices of the words whose character range overlaps [start, end)."""
    if end <= start or not page.offsets:
        return []
    starts = [o[0] for o in page.offsets]
    i = max(0, bisect.bisect_right(starts, start) - 1)
    out = []
    while i < len(page.offsets) and page.offsets[i][0] < end:
        ws, we = page.offsets[i]
        if we > start and ws < end:
            out.append(i)
        i += 1
    return out


# A span's words on one line farther apart than this many text heights sit in different
# columns (two fields that OCR joined into one line), unless other text lies between them.
_COLUMN_GAP_HEIGHTS = 6.0


def _split_at_column_gaps(boxes: list[BBox], others: Sequence[BBox] = (),
                          max_gap: float | None = _COLUMN_GAP_HEIGHTS) -> list[list[BBox]]:
    """Split one line's word boxes (left to right) where two neighbouring words are in
    different columns: another word (not part of the span) lies between them, or the gap is
    wider than a column gap. A value split across table cells (a modest gap, maybe a cell
    border) stays one box; two fields in two columns become two boxes, not one bar over
    everything between them."""
    boxes = sorted(boxes, key=lambda b: b[0])
    heights = sorted(b[3] - b[1] for b in boxes)
    limit = float("inf") if max_gap is None else max_gap * heights[len(heights) // 2]
    groups = [[boxes[0]]]
    for b in boxes[1:]:
        left = groups[-1][-1]
        between = any(o[0] >= left[2] and o[2] <= b[0] and o[1] < b[3] and o[3] > b[1] for o in others)
        if between or b[0] - left[2] > limit:
            groups.append([b])
        else:
            groups[-1].append(b)
    return groups


# What OCR reads a form's cell border or comb-box divider as.
_RULE_GLYPHS = re.compile(r"^[|\[\]{}!]+|[|\[\]{}!]+$")
# A word this many times taller than the line's other words got its height from a rule.
_RULE_TALL = 1.3


def _clamp_rule_heights(texts: Sequence[str], boxes: list[BBox]) -> list[BBox]:
    """Boxes of one line with the words read from a vertical rule ("871 | 75 | 7808" in
    comb boxes, "|55" with the divider stuck to it) cut to the height of the line's other
    words: the rule's length is not the value's, and a box over it stands far above and
    below the digits."""
    plain = [b for t, b in zip(texts, boxes) if not _RULE_GLYPHS.search(t) and any(c.isalnum() for c in t)]
    if not plain or len(plain) == len(boxes):
        return boxes
    y0, y1 = min(b[1] for b in plain), max(b[3] for b in plain)
    heights = sorted(b[3] - b[1] for b in plain)
    tall = _RULE_TALL * heights[len(heights) // 2]
    return [(b[0], max(b[1], y0), b[2], min(b[3], y1))
            if _RULE_GLYPHS.search(t) and b[3] - b[1] > tall and min(b[3], y1) > max(b[1], y0) else b
            for t, b in zip(texts, boxes)]


def span_boxes(page: OcrPage, word_boxes: Sequence[tuple[int, BBox]], mode: BoxMode = "auto",
               split_columns: bool = True) -> list[BBox]:
    """Minimum rectangle(s) around a span's word boxes ((word index, box) pairs): one per
    line segment, merged into one block rectangle when ``mode`` says so. ``split_columns``
    False keeps a line's words in one rectangle across wide empty gaps (a form's address
    written across its street, city, state and ZIP cells is one value); words of other
    values between them still split it."""
    word_line = page_view(page).word_line
    by_line: dict[int, list[tuple[str, BBox]]] = {}
    for i, box in word_boxes:
        by_line.setdefault(word_line[i], []).append((page.words[i].text, box))
    inside = {i for i, _ in word_boxes}
    others: dict[int, list[BBox]] = {}
    for j, w in enumerate(page.words):
        if j not in inside and word_line[j] in by_line:
            others.setdefault(word_line[j], []).append(w.bbox)
    segments = []
    for line, items in by_line.items():
        boxes = _clamp_rule_heights([t for t, _ in items], [b for _, b in items])
        groups = _split_at_column_gaps(boxes, others.get(line, ()),
                                       max_gap=None if not split_columns else _COLUMN_GAP_HEIGHTS)
        segments.extend(union_box(g) for g in groups)
    if mode == "line" or len(segments) == 1:
        return segments
    whole = union_box(segments)
    if mode == "span" and len(segments) == len(by_line):
        return [whole]
    if len(segments) == len(by_line) and area(whole) <= _BLOCK_AREA_RATIO * sum(area(b) for b in segments):
        return [whole]
    return segments


# Edge punctuation is cut only from words the OCR read with at least this confidence (0-100).
TRIM_MIN_CONF = 70.0


def _edge_trimmed(page: OcrPage, gray, word_ids: list[int], start: int, end: int,
                  at_slash: bool = False, punctuation: bool = False):
    """Word boxes of a span, the first and last cut to the span's characters where what the
    span leaves out of them is punctuation that ``trim_word_box`` can tell apart on the ink,
    or, with ``at_slash`` (a person: the other name of "Williams/Giordano" is a span of its
    own, ``redactor.slash_names``), another name across a slash; and the character range
    those boxes show. Without ``punctuation`` only a fill-in line is cut: the word's commas,
    stops and brackets stay under its box, as readers and annotators box a word."""
    from redactor.edge_trim import (FILL_IN, TRIMMABLE, cut_after_caption, cut_after_fill_in, cut_at_slash,
                                    trim_word_box)

    boxes = {i: page.words[i].bbox for i in word_ids}
    shown = [page.offsets[word_ids[0]][0], page.offsets[word_ids[-1]][1]]
    first, last = word_ids[0], word_ids[-1]
    for i in {first, last}:
        ws, we = page.offsets[i]
        keep_start = max(start, ws) - ws if i == first else 0
        keep_end = min(end, we) - ws if i == last else we - ws
        if keep_start == 0 and keep_end == we - ws:
            continue
        if 0 <= page.words[i].conf < TRIM_MIN_CONF:
            continue   # an unsure reading's "punctuation" may be a misread digit or letter
        cut = trim_word_box(gray, page.words[i].bbox, page.words[i].text, keep_start, keep_end,
                            trimmable=TRIMMABLE if punctuation else FILL_IN)
        if cut is None and at_slash:
            cut = cut_at_slash(gray, page.words[i].bbox, page.words[i].text, keep_start, keep_end)
        if cut is None and i == first:
            # a caption glued to the value at its stop ("No.436") or across a fill-in line
            cut = cut_after_caption(gray, page.words[i].bbox, page.words[i].text, keep_start, keep_end) or \
                cut_after_fill_in(gray, page.words[i].bbox, page.words[i].text, keep_start, keep_end)
        if cut is None:
            continue
        boxes[i] = cut
        if i == first:
            shown[0] = ws + keep_start
        if i == last:
            shown[1] = ws + keep_end
    return [(i, boxes[i]) for i in word_ids], shown


def align_spans(page: OcrPage, spans: Iterable[Span], mode: BoxMode = "auto",
                image=None, cut_punctuation: bool = False) -> Alignment:
    """Redactions for ``spans``. With ``image`` (the page, PIL or grey array), a span that
    leaves a fill-in line touching its first or last word out (with ``cut_punctuation``,
    any edge punctuation) gets it cut from the box when the ink shows it separately
    (``redactor.edge_trim``); otherwise a span that cuts a word takes the whole word."""
    gray = None
    if image is not None:
        from redactor.gray import to_gray
        gray = to_gray(image)
    redactions: list[Redaction] = []
    dropped: list[Span] = []
    for span in spans:
        start, end = max(0, span.start), min(len(page.text), span.end)
        word_ids = words_in_span(page, start, end)
        if not word_ids:
            dropped.append(span)
            continue
        if gray is not None:
            boxes, (vs, ve) = _edge_trimmed(page, gray, word_ids, start, end,
                                            at_slash=span.type == "PERSON", punctuation=cut_punctuation)
        else:
            boxes = [(i, page.words[i].bbox) for i in word_ids]
            vs, ve = page.offsets[word_ids[0]][0], page.offsets[word_ids[-1]][1]
        # The value reported is what the boxes show: a partial-word span reports (and hides)
        # the whole word unless the rest of the word was punctuation cut off its box.
        value = re.sub(r"\n\n+", "\n", page.text[vs:ve])
        for box in span_boxes(page, boxes, mode, split_columns=span.type not in BLOCK_TYPES):
            redactions.append(Redaction(bbox=box, type=span.type, value=value, score=span.score,
                                        sources=tuple(d for d in span.detector.split("+") if d)))
    redactions = merge_duplicates(redactions)
    if mode != "line":
        redactions = merge_stacked_blocks(redactions, words=page.words)
    return Alignment(redactions, dropped)


# Two boxes of one type overlapping this much (IoU) hide one value twice.
_DUPLICATE_IOU = 0.5


def merge_duplicates(redactions: Sequence[Redaction]) -> list[Redaction]:
    """One redaction for one value found twice: the same value in two readings of a fused
    OCR page (each engine's words boxed apart) gives two boxes of one type over the same ink;
    they become their union, which hides what either reading covered."""
    out: list[Redaction] = []
    for r in redactions:
        for k, o in enumerate(out):
            if o.type == r.type and iou(o.bbox, r.bbox) >= _DUPLICATE_IOU:
                out[k] = Redaction(union_box([o.bbox, r.bbox]), o.type, o.value, max(o.score, r.score),
                                   tuple(dict.fromkeys(o.sources + r.sources)))
                break
        else:
            out.append(r)
    return out


# Types whose lines stack into one block (the contract's ADDRESS is one box over its lines).
BLOCK_TYPES = frozenset({"ADDRESS"})
# Parts of one block's row at most this many text heights apart are one line of it.
_ROW_GAP_HEIGHTS = 2.2
# Lines of one block at most this many text heights apart stack: a letterhead or an invoice
# sets its address lines with as much space between them as a line is high, and a
# box's height (cap to descender) varies with the letters the line happens to hold.
_STACK_GAP_HEIGHTS = 1.5
# a part of one line is at most this many line heights tall (a skewed scan's word boxes grow)
_ONE_LINE_HEIGHTS = 2.0
# ... and the fill-in rows of a form's address fields this many (a row's pitch on a form is
# a line and a half to two and a half of its text)
_FORM_GAP_HEIGHTS = 2.5


def _covers_other_text(whole: BBox, parts: Sequence[BBox], words) -> bool:
    """Whether a word of the page other than the parts' own (its centre in none of them) lies
    in ``whole`` with letters or digits: the address captions of a form's rows ("City",
    "State", "Zip Code") are the block's own."""
    for w in words:
        cx, cy = (w.bbox[0] + w.bbox[2]) / 2, (w.bbox[1] + w.bbox[3]) / 2
        if not (whole[0] <= cx <= whole[2] and whole[1] <= cy <= whole[3]):
            continue
        if any(p[0] <= cx <= p[2] and p[1] <= cy <= p[3] for p in parts):
            continue
        key = "".join(c for c in w.text.lower() if c.isalnum())
        if key and key not in ADDRESS_FIELD_CAPTIONS:
            return True
    return False


def _captioned_row(box: BBox, words) -> bool:
    """Whether an address field's caption ("City", "State", "Zip Code") stands left of
    ``box`` on its row: the row is a form's address field."""
    for w in words:
        cy = (w.bbox[1] + w.bbox[3]) / 2
        if box[1] <= cy <= box[3] and w.bbox[2] <= box[0] + 1:
            key = "".join(c for c in w.text.lower() if c.isalnum())
            if key in ADDRESS_FIELD_CAPTIONS and key not in ("address", "street"):
                return True
    return False


def _line_height(r: Redaction, words) -> float:
    """The text height of ``r``: the tallest word centred in its box (the page's ``words``),
    its box's height without them. A block of several lines is measured by its lines, so
    that two blocks a blank line apart do not stack as one."""
    heights = [w.bbox[3] - w.bbox[1] for w in words
               if r.bbox[0] <= (w.bbox[0] + w.bbox[2]) / 2 <= r.bbox[2]
               and r.bbox[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= r.bbox[3]]
    box_h = r.bbox[3] - r.bbox[1]
    return min(box_h, max(heights)) if heights else box_h


def merge_stacked_blocks(redactions: Sequence[Redaction], types=BLOCK_TYPES, words=()) -> list[Redaction]:
    """Join redactions of a block type that stack in one column into one rectangle: an
    address whose street and city lines the detector found as two spans (because another
    column's text sits between them in reading order) is still one address block. Lines
    stack when their left edges are within a text height, the gap between them is at most
    ``_STACK_GAP_HEIGHTS`` text heights, and one rectangle hides little more than the two
    parts. A part just right of another on its row ("5874 Winters Pike," | "West Robert, MO
    79889", which OCR read as separate lines with other text between them) joins it the
    same way.

    With the page's ``words``: a form sets its address fields on rows further apart ("Address
    999 Grant Avenue" / "City Novato  State CA" / "Zip Code 94948"), up to
    ``_FORM_GAP_HEIGHTS``, the lower one's row captioned as an address field; such parts, and
    parts that stack or stand side by side, join when the one rectangle covers no other text
    than the fields' captions, however much blank form it takes (blank paper hides nothing)."""
    # the lines of each column's block first, then the parts of one line side by side: two
    # blocks side by side (an invoice's Bill To and Ship To) are two columns, not one row
    out = _merge_blocks(list(redactions), types, words, rows=False)
    return _merge_blocks(out, types, words, rows=True)


def _merge_blocks(out: list[Redaction], types, words, rows: bool) -> list[Redaction]:
    """``merge_stacked_blocks``'s joins: parts stacked in a column (``rows`` False), or
    parts of one line side by side (``rows`` True; each part one line high)."""
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(len(out)):
                a, b = out[i], out[j]
                if i == j or a.type != b.type or a.type not in types:
                    continue
                h = min(_line_height(a, words), _line_height(b, words))
                gap = b.bbox[1] - a.bbox[3]
                whole = union_box([a.bbox, b.bbox])
                stacked = not rows and a.bbox[1] <= b.bbox[1] and abs(a.bbox[0] - b.bbox[0]) <= h and \
                    -h <= gap <= _STACK_GAP_HEIGHTS * h
                # on one row: the boxes share most of the lower one's height (a skewed
                # scan gives one word a box twice as tall as its neighbours')
                shared = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
                one_line = all(r.bbox[3] - r.bbox[1] <= _ONE_LINE_HEIGHTS * _line_height(r, words) for r in (a, b))
                beside = rows and one_line and 0 <= b.bbox[0] - a.bbox[2] <= _ROW_GAP_HEIGHTS * h and \
                    shared >= h / 2
                small = area(whole) <= _BLOCK_AREA_RATIO * (area(a.bbox) + area(b.bbox))
                form_rows = not rows and bool(words) and a.bbox[1] <= b.bbox[1] and \
                    abs(a.bbox[0] - b.bbox[0]) <= h and -h <= gap <= _FORM_GAP_HEIGHTS * h and \
                    _captioned_row(b.bbox, words)
                if ((stacked or beside) and small) or \
                        ((stacked or beside or form_rows) and words and
                         not _covers_other_text(whole, [a.bbox, b.bbox], words)):
                    value = a.value if a.value == b.value else f"{a.value}\n{b.value}"
                    out[i] = Redaction(whole, a.type, value, max(a.score, b.score),
                                       tuple(dict.fromkeys(a.sources + b.sources)))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def propagate_repeats(page: OcrPage, spans: Sequence[Span], min_chars: int = 3) -> list[Span]:
    """Add a span for every other occurrence of a detected value on the page.

    Detectors often tag only the occurrence with context ("Acct # 12345") and miss the bare
    repeat further down; the same string elsewhere on the page is the same identifier.
    Occurrences must sit on word boundaries, and any run of whitespace matches any other
    (a repeat may wrap differently), after a stop or comma OCR may have read between words."""
    covered = {(s.start, s.end) for s in spans}
    out = list(spans)
    seen_values: set[tuple[str, str]] = set()
    text_lower = page.text.lower()
    for span in spans:
        value = page.text[span.start:span.end].strip()
        key = (value, span.type)
        if len(value) < min_chars or not any(c.isalnum() for c in value) or key in seen_values:
            continue
        seen_values.add(key)
        # a repeat holds the value's first word: where that occurs once, at the span
        # itself, there is none (and no pattern to compile)
        first = value.split()[0]
        if (text_lower.count(first.lower()) if any(c.isdigit() for c in value)
                else page.text.count(first)) < 2:
            continue
        # OCR may read a speck between two words as a stop or comma ("BRANDON. JOHNSON")
        pattern = r"(?<!\w)" + r"[.,;:]?\s+".join(re.escape(p) for p in value.split()) + r"(?!\w)"
        # an identifier's letters may come back in either case from OCR ("SQK", "SQk"); a
        # name's case is part of it ("Mark" the name, "mark" the verb)
        flags = re.IGNORECASE if any(c.isdigit() for c in value) else 0
        for m in re.finditer(pattern, page.text, flags):
            if (m.start(), m.end()) in covered:
                continue
            if any(s.start <= m.start() and m.end() <= s.end for s in out if s.type == span.type):
                continue
            # a word of a longer value of another type is that value's ("Ardlee" of "Ardlee
            # Service, Inc.", the man the firm is named for named alone elsewhere)
            if any(s.start <= m.start() and m.end() <= s.end and s.end - s.start > m.end() - m.start()
                   for s in out if s.type != span.type):
                continue
            covered.add((m.start(), m.end()))
            repeat = span.with_(start=m.start(), end=m.end(), text=m.group(0), detector=span.detector or "repeat")
            # ... and a shorter value of another type inside the repeat is the repeated
            # value's (a model's PERSON "Cunningham" where the firm's name wraps over a
            # line's end, its first word alone on the line)
            out = [s for s in out if s.type == span.type or not (
                m.start() <= s.start and s.end <= m.end() and s.end - s.start < m.end() - m.start())]
            out.append(repeat)
    return out
