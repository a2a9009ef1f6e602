"""Cutting a word box down to the characters a span covers when the rest is punctuation.

OCR gives one box per word, and a word often carries punctuation that is not part of the
value: "Gina," "(SH46997)." "[ops@acme.com]". A box over the whole word is safe, and it is
how readers and annotators box a word on real pages (FUNSD's and VRDU's gold are the
word's box), so the pipeline cuts only a form's fill-in line touching the value by default
(``FILL_IN``) and every class here on request (``cut_punctuation``: gold tight to the value,
as generated pages draw it). Character boxes from Tesseract's LSTM engine are
too approximate to cut on (they can be off by a whole letter), so the cut is made on the ink
itself: the word crop is split into glyph columns (runs of inked columns), and a glyph at the
edge is dropped only when the OCR text says the edge character is punctuation and the glyph
has that punctuation's shape (a comma is short and low, a bracket narrow). When the shapes
do not agree (glyphs touching, noise) the whole word stays covered: a trim may fail to
happen, it never uncovers a letter or digit it cannot account for. A short caption OCR
read glued to its value ("No.436") is cut off the same way, at its stop's glyph
(``cut_after_caption``), and a caption glued to its value across the fill-in line between
them ("Date_March"), where the bare line ends (``cut_after_fill_in``).
Pure functions on numpy arrays.
"""
from __future__ import annotations

import re

import numpy as np

from redactor.ink_boxes import crop_ink_mask
from redactor.model import BBox

# Shape classes of punctuation, by the share of the word box height h a glyph may take.
_LOW = set(",.")                       # short, in the lower half
_NARROW = set("()[]{}")                # narrow, any height ("|" and "!" are too often a
                                       # misread 1, l or I to be cut)
_COLON = set(":;")                     # narrow
_QUOTE = set("'\"‘’“”`")               # narrow, in the upper half
_ANGLE = set("<>")                     # around e-mail addresses: as wide as a digit, short
_RULE = set("_")                       # a form's fill-in line touching the value: flat, low
TRIMMABLE = _LOW | _NARROW | _COLON | _QUOTE | _ANGLE | _RULE
FILL_IN = frozenset(_RULE)

LOW_MAX_HEIGHT = 0.45
LOW_MAX_WIDTH = 0.3
NARROW_MAX_WIDTH = 0.36   # a bracket touching a digit ("1)") is wider than this: no trim
COLON_MAX_WIDTH = 0.25
ANGLE_MAX_WIDTH = 0.8
ANGLE_MAX_HEIGHT = 0.7
RULE_MAX_HEIGHT = 0.2
PAIR_MAX_WIDTH = 0.72     # two narrow marks touching: as wide as two brackets
_PAIRABLE = _LOW | _NARROW | _QUOTE
_DOUBLE_QUOTES = set('"“”')
CONTEXT = 1.0             # the threshold is taken on a crop this many heights around the box


def _runs(cols: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True in a 1-D boolean array."""
    padded = np.concatenate([[False], cols, [False]]).astype(np.int8)
    d = np.diff(padded)
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist()))


def _is_shaped_like(ch: str, glyph: np.ndarray, h: float) -> bool:
    """Whether the ink of one glyph column run (rows x cols of the word box) looks like
    punctuation ``ch``."""
    rows = np.nonzero(glyph.any(axis=1))[0]
    if rows.size == 0:
        return False
    gw = glyph.shape[1]
    gh = rows[-1] - rows[0] + 1
    centre = (rows[0] + rows[-1] + 1) / 2
    if ch in _LOW:
        return gh <= LOW_MAX_HEIGHT * h and gw <= LOW_MAX_WIDTH * h and centre > 0.5 * h
    if ch in _COLON:
        return gw <= COLON_MAX_WIDTH * h
    if ch in _QUOTE:
        return gw <= NARROW_MAX_WIDTH * h and centre < 0.5 * h
    if ch in _NARROW:
        return gw <= NARROW_MAX_WIDTH * h
    if ch in _ANGLE:
        return gw <= ANGLE_MAX_WIDTH * h and gh <= ANGLE_MAX_HEIGHT * h
    if ch in _RULE:
        return gh <= RULE_MAX_HEIGHT * h and centre > 0.6 * h
    return False


def _take(chars: str, glyphs: list, mask: np.ndarray, h: float, end: int) -> bool:
    """Pop the glyph runs of punctuation ``chars`` (listed from the word's edge inwards) off
    ``glyphs`` at ``end`` (0: the start, -1: the end); False when their shapes disagree. Two
    narrow marks may touch and make one run: a closing quote and bracket of a defined term
    ("(“CDN”)"), a full stop and a bracket."""
    i = 0
    while i < len(chars):
        if len(glyphs) < 2:
            return False
        g0, g1 = glyphs.pop(end)
        if _is_shaped_like(chars[i], mask[:, g0:g1], h):
            # a double quote's two strokes stand apart unless the print joins them
            nxt = mask[:, slice(*glyphs[end])]
            if chars[i] in _DOUBLE_QUOTES and len(glyphs) >= 2 and _is_shaped_like(chars[i], nxt, h) \
                    and (i + 1 == len(chars) or not _is_shaped_like(chars[i + 1], nxt, h)):
                glyphs.pop(end)
            i += 1
        elif i + 1 < len(chars) and set(chars[i:i + 2]) <= _PAIRABLE and g1 - g0 <= PAIR_MAX_WIDTH * h:
            i += 2
        else:
            return False
    return True


def _word_ink(gray: np.ndarray, box: BBox, threshold: float | None, min_width: int):
    """The ink mask of word box ``box`` (thresholded on a crop a text height around it) and
    the box's pixel left, top, right and height; None for a box under 4 pixels tall or
    ``min_width`` wide."""
    H, W = gray.shape
    x0, y0, x1, y1 = box
    bx0, by0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
    bx1, by1 = min(W, int(np.ceil(x1))), min(H, int(np.ceil(y1)))
    h = by1 - by0
    if h < 4 or bx1 - bx0 < min_width:
        return None
    cx0, cy0 = max(0, int(bx0 - CONTEXT * h)), max(0, int(by0 - CONTEXT * h))
    cx1, cy1 = min(W, int(bx1 + CONTEXT * h)), min(H, int(by1 + CONTEXT * h))
    mask = crop_ink_mask(gray[cy0:cy1, cx0:cx1], threshold)[by0 - cy0:by1 - cy0, bx0 - cx0:bx1 - cx0]
    return mask, bx0, by0, bx1, h


def trim_word_box(gray: np.ndarray, box: BBox, text: str, keep_start: int, keep_end: int,
                  threshold: float | None = None, trimmable=TRIMMABLE) -> BBox | None:
    """The box of ``text[keep_start:keep_end]`` inside word box ``box`` of ``gray`` when
    everything outside that range is punctuation (of ``trimmable``) whose glyphs can be told
    apart at the word's edges; None when nothing can safely be cut (keep the whole word)."""
    prefix, suffix = text[:keep_start], text[keep_end:]
    if not (prefix or suffix) or keep_end <= keep_start:
        return None
    if any(c not in trimmable for c in prefix + suffix):
        return None
    crop = _word_ink(gray, box, threshold, min_width=2)
    if crop is None:
        return None
    mask, bx0, by0, bx1, h = crop
    glyphs = _runs(mask.any(axis=0))
    if not (_take(prefix, glyphs, mask, h, 0) and _take(suffix[::-1], glyphs, mask, h, -1)) or not glyphs:
        return None
    k0 = glyphs[0][0] if prefix else 0
    k1 = glyphs[-1][1] if suffix else bx1 - bx0
    rows = np.nonzero(mask[:, k0:k1].any(axis=1))[0]
    if rows.size == 0:
        return None
    return (float(bx0 + k0), float(by0 + rows[0]), float(bx0 + k1), float(by0 + rows[-1] + 1))


# A slash between two names ("Williams/Giordano") is searched for this many character widths
# either side of where the characters put it.
SLASH_REACH = 1.0
SLASH_MARGIN = 0.15      # character widths each part keeps past the cut


def cut_at_slash(gray: np.ndarray, box: BBox, text: str, keep_start: int, keep_end: int,
                 threshold: float | None = None) -> BBox | None:
    """The box of ``text[keep_start:keep_end]`` inside word box ``box`` when what the span
    leaves out is a slash and the letters of another name on one side ("Williams" of
    "Williams/Giordano"): the word is cut at the column of least ink within a character's
    width of where the slash falls by character count (a slash is a thin diagonal; touching
    letters leave their join thinnest there), each part keeping a sixth of a character past it.
    None when the word is not joined so or the ink gives no column to cut at."""
    prefix, suffix = text[:keep_start], text[keep_end:]
    if bool(prefix) == bool(suffix) or keep_end <= keep_start:
        return None
    dropped = suffix[1:] if suffix else prefix[:-1]
    if (suffix and not suffix.startswith("/")) or (prefix and not prefix.endswith("/")) \
            or not dropped.replace(".", "").replace("-", "").isalpha():
        return None
    crop = _word_ink(gray, box, threshold, min_width=2 * len(text))
    if crop is None:
        return None
    mask, bx0, by0, bx1, h = crop
    cols = mask.sum(axis=0)
    width = bx1 - bx0
    cw = width / len(text)
    slash = keep_end if suffix else keep_start - 1
    at = (slash + 0.5) * cw
    lo, hi = max(1, int(at - SLASH_REACH * cw)), min(width - 1, int(np.ceil(at + SLASH_REACH * cw)))
    if hi <= lo:
        return None
    xs = np.arange(lo, hi)
    cut = int(xs[np.lexsort((np.abs(xs + 0.5 - at), cols[lo:hi]))[0]])   # least ink, then nearest
    # letters touching the slash leave no clean column: each part keeps a margin past the
    # cut, so the two boxes overlap over the slash and no letter of either is left uncovered
    margin = int(np.ceil(SLASH_MARGIN * cw))
    k0, k1 = (0, min(width, cut + 1 + margin)) if suffix else (max(0, cut - margin), width)
    rows = np.nonzero(mask[:, k0:k1].any(axis=1))[0]
    if rows.size == 0 or k1 - k0 < 2:
        return None
    return (float(bx0 + k0), float(by0 + rows[0]), float(bx0 + k1), float(by0 + rows[-1] + 1))


# A caption OCR read glued to its value ("No.436", "Tel.5551234", "Date:12/3/92"): a short
# abbreviation and its stop or colon. Typewriters and tight print leave little space after
# the stop and OCR then reads one word; the reader still sees the caption apart from the value.
_GLUED_CAPTION = re.compile(r"[A-Za-z]{2,5}[.:]")
CAPTION_STOP_REACH = 1.5   # character widths from where the characters put the stop
CAPTION_KEEP_MIN = 0.5     # the value's part keeps at least this share of its width by count


def cut_after_caption(gray: np.ndarray, box: BBox, text: str, keep_start: int, keep_end: int,
                      threshold: float | None = None) -> BBox | None:
    """The box of ``text[keep_start:]`` inside word box ``box`` when what the span leaves out
    is a caption glued to the value ("No." of "No.436"): the caption's stop (or colon) must
    show on the ink as its own glyph, shaped as one, within a character or two of where the
    characters put it, and the value's ink starts at the next glyph. None otherwise (the
    whole word stays covered)."""
    crop = _caption_and_value(gray, box, text, keep_start, keep_end, _GLUED_CAPTION, threshold)
    if crop is None:
        return None
    mask, bx0, by0, bx1, h = crop
    glyphs = _runs(mask.any(axis=0))
    cw = (bx1 - bx0) / len(text)
    at = (keep_start - 0.5) * cw
    stops = [k for k, (g0, g1) in enumerate(glyphs[:-1])
             if abs((g0 + g1) / 2 - at) <= CAPTION_STOP_REACH * cw
             and _is_shaped_like(text[keep_start - 1], mask[:, g0:g1], h)]
    if not stops:
        return None
    k = min(stops, key=lambda k: abs(sum(glyphs[k]) / 2 - at))
    return _value_box(crop, glyphs[k + 1][0], len(text), keep_start)


def _caption_and_value(gray: np.ndarray, box: BBox, text: str, keep_start: int, keep_end: int,
                       caption: re.Pattern, threshold: float | None):
    """``_word_ink`` of a word whose span keeps its end and leaves out a start matching
    ``caption``, the value opening with a letter or digit; None for any other word."""
    if keep_end != len(text) or not caption.fullmatch(text[:keep_start]) or \
            keep_start >= len(text) or not text[keep_start].isalnum():
        return None
    return _word_ink(gray, box, threshold, min_width=2 * len(text))


def _value_box(crop, k0: int, n_chars: int, keep_start: int) -> BBox | None:
    """The box of a word's ink from column ``k0`` on (the value after a caption cut off);
    None when that leaves the value less than CAPTION_KEEP_MIN of its width by count."""
    mask, bx0, by0, bx1, _ = crop
    cw = (bx1 - bx0) / n_chars
    if (bx1 - bx0) - k0 < CAPTION_KEEP_MIN * cw * (n_chars - keep_start):
        return None
    rows = np.nonzero(mask[:, k0:].any(axis=1))[0]
    if rows.size == 0:
        return None
    return (float(bx0 + k0), float(by0 + rows[0]), float(bx1), float(by0 + rows[-1] + 1))


# A caption and its value OCR read as one word across the fill-in line between them
# ("birth:___June", "Packing__Brown/Routh"): the line's stretch between the two is ink in a
# thin band low in the word and nothing above it.
FILL_IN_REACH = 0.5        # character widths past where the characters put the line's end (no
                           # more: a value's letters must never be left out)
FILL_IN_MIN = 0.35         # the stretch of bare line is at least a word space wide (in word
                           # heights): the line showing between two letters of the value is less
LINE_BAND = 0.2            # the line is at most this share of the word's height thick
_BEFORE_FILL_IN = re.compile(r".*[^_]_+")   # a caption, then the line's underscores


def cut_after_fill_in(gray: np.ndarray, box: BBox, text: str, keep_start: int, keep_end: int,
                      threshold: float | None = None) -> BBox | None:
    """The box of ``text[keep_start:]`` inside word box ``box`` when what the span leaves out
    is a caption and the fill-in line after it ("birth:___" of "birth:___June 19"): the line
    must show on the ink as columns of bare line (ink only in a thin band at the foot of the
    word, the band's rows the most inked) after the caption's ink, ending at most half a
    character past where the characters put its end; the value starts at the first column
    after them with ink above the line. None otherwise (the whole word stays covered)."""
    crop = _caption_and_value(gray, box, text, keep_start, keep_end, _BEFORE_FILL_IN, threshold)
    if crop is None:
        return None
    mask, bx0, by0, bx1, h = crop
    rows = mask.sum(axis=1)
    low = rows[h // 2:]
    if low.size == 0 or low.max() == 0:
        return None
    line = h // 2 + int(np.argmax(low))
    band = max(1, int(np.ceil(LINE_BAND * h)))
    top = max(0, line - band)
    bare = mask.any(axis=0) & ~mask[:top].any(axis=0)
    width = bx1 - bx0
    cw = width / len(text)
    at = keep_start * cw
    # the first stretch of bare line after the caption's ink: OCR's character count is no
    # ruler here (the word's box may run on over the words after it, "Date_March" over
    # "18, 1968"), so it only bounds how far right the line may end
    lines = [(s, e) for s, e in _runs(bare) if e - s >= FILL_IN_MIN * h and 0 < s and e < width]
    if not lines or lines[0][1] > at + FILL_IN_REACH * cw:
        return None
    return _value_box(crop, lines[0][1], len(text), keep_start)
