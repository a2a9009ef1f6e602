"""Number words to digits, keeping the offsets back into the original text.

The grammar (case-insensitive; parts joined by spaces or hyphens):

    cardinal  := [a|an] ( small | tens[-small] | cardinal hundred [and cardinal]
                 | cardinal big [and cardinal] )          small: zero..nineteen
    decimal   := cardinal point digit+                    "two point five"
    mixed     := cardinal and (a|an|small) fraction       "three and a half", "two and
                                                          three-quarter(s)"
    amount    := (cardinal | decimal | mixed) [big] [and a fraction]
                                                          "a million and a half"
    part      := [a|an|small] fraction [of a(n)] UNIT | half [a(n)] UNIT
                                                          "a quarter of a million",
                                                          "half a percentage point",
                                                          "a quarter point"
    share     := (small|a|an) fraction [of] | half of     "one-eighth", "a third of"
    vulgar    := digits? (½ ¼ ¾ ⅓ ⅔ ⅛ ...)                  "€1½ million"

An amount is written back as its decimal ("3.5 billion", "0.75 percentage point"), so the
digit grammar reads it with the precision the words carry: "two and a half million" is
as precise as "2.5 million". A fraction that has no finite decimal (thirds) is written to
two decimals ("0.67 million"). A share becomes ``n/d`` ("1/8"): exact.

What stays out, and why: ordinals are not shares ("third quarter", "a third party",
"second half"); a number word glued to a hyphenated word is a label ("one-off",
"five-year"); a lone "a" is never a number unless a hundred/thousand/... follows.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Callable

SMALL = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
TENS = {w: 10 * (i + 2) for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
BIG = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
             "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "eighth": 8, "eighths": 8,
             "tenth": 10, "tenths": 10}
VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3),
          "⅔": Fraction(2, 3), "⅛": Fraction(1, 8), "⅜": Fraction(3, 8), "⅝": Fraction(5, 8),
          "⅞": Fraction(7, 8), "⅕": Fraction(1, 5), "⅒": Fraction(1, 10)}
_ARTICLES = ("a", "an")


def render(value: Fraction) -> str:
    """A fraction as the decimal it reads as: exact when finite, else two decimals."""
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    d = Decimal(value.numerator) / Decimal(value.denominator)
    if den != 1:
        d = d.quantize(Decimal("0.01"))
    s = format(d.normalize(), "f")
    return s


@dataclass(frozen=True)
class Rewritten:
    """Text with number words replaced by digits, and the map back to original offsets."""
    text: str
    starts: tuple[int, ...]   # original start offset of each rewritten char
    ends: tuple[int, ...]     # original end offset of each rewritten char
    worded: tuple[tuple[int, int], ...]   # rewritten ranges that came from words

    def original(self, a: int, b: int) -> tuple[int, int]:
        return self.starts[a], self.ends[b - 1]

    def from_words(self, a: int, b: int) -> bool:
        # worded ranges are sorted and disjoint: only the last one starting before b counts
        i = bisect_left(self.worded, (b, -1)) - 1
        return i >= 0 and a < self.worded[i][1]


class _Tokens:
    """The words of a text with their offsets, and whether two neighbours are joined by
    spaces or one hyphen (so a phrase never runs across punctuation)."""

    def __init__(self, text: str):
        self.text = text
        self.items = [(m.group().lower(), m.start(), m.end())
                      for m in re.finditer(r"[A-Za-z]+", text)]

    def __len__(self):
        return len(self.items)

    def word(self, i: int) -> str:
        return self.items[i][0] if 0 <= i < len(self.items) else ""

    def joined(self, i: int) -> bool:
        """Token i and i+1 are neighbours in one phrase."""
        if i + 1 >= len(self.items):
            return False
        gap = self.text[self.items[i][2]:self.items[i + 1][1]]
        return re.fullmatch(r"\s+|\s*-\s*", gap) is not None

    def glued(self, start: int, end: int) -> bool:
        """The phrase text[start:end] touches a hyphenated word or digits: a label."""
        return (start > 0 and re.match(r"[\w-]", self.text[start - 1]) is not None) \
            or re.match(r"-[A-Za-z0-9]|\w", self.text[end:end + 2]) is not None


def _fraction_at(t: _Tokens, i: int) -> tuple[Fraction, int] | None:
    """(a|an|one..nine) fraction-word at token i: "a half", "three-quarters"."""
    w = t.word(i)
    count = 1 if w in _ARTICLES else SMALL.get(w)
    if count is None or not 1 <= count <= 9 or not t.joined(i):
        return None
    f = t.word(i + 1)
    if f not in FRACTIONS:
        return None
    # "one half", "three quarters"; "a thirds" is not English but harmless
    return Fraction(count, FRACTIONS[f]), i + 2


def _cardinal_at(t: _Tokens, i: int) -> tuple[int, int, list[str]] | None:
    """An integer in words from token i: (value, next token, big words used)."""
    total = cur = 0
    last = None
    bigs: list[str] = []
    j = i
    if (t.word(j) == "hundred" or t.word(j) in BIG) and t.word(j - 1) in ("every", "per") \
            and t.joined(j - 1):
        cur, last = 1, "small"      # "out of every hundred": one hundred
    elif t.word(j) in _ARTICLES and t.joined(j) and (t.word(j + 1) in BIG or t.word(j + 1) == "hundred"):
        cur, last, j = 1, "small", j + 1
    while j < len(t):
        w = t.word(j)
        if j > i and not t.joined(j - 1):
            break
        if w in SMALL:
            if last == "small" or (last == "tens" and not 1 <= SMALL[w] <= 9):
                break
            cur += SMALL[w]
            last = "small"
        elif w in TENS:
            if last in ("small", "tens"):
                break
            cur += TENS[w]
            last = "tens"
        elif w == "hundred":
            if last not in ("small", "tens") or cur % 100 == 0 and cur >= 100:
                break
            cur *= 100
            last = "hundred"
        elif w in BIG:
            if last is None or (bigs and BIG[w] >= BIG[bigs[-1]]):
                break
            total += max(cur, 1) * BIG[w]
            cur = 0
            bigs.append(w)
            last = "big"
        elif w == "and" and last in ("hundred", "big") and t.joined(j) \
                and (t.word(j + 1) in SMALL or t.word(j + 1) in TENS):
            pass
        else:
            break
        j += 1
    if last is None:
        return None
    return total + cur, j, bigs


def _amount_at(t: _Tokens, i: int) -> tuple[str, int] | None:
    """The decimal an amount phrase at token i states, and the token after it."""
    card = _cardinal_at(t, i)
    if card is None:
        return None
    value, j, bigs = card
    value = Fraction(value)
    # "two point five": decimal digits in words
    if not bigs and t.word(j) == "point" and t.joined(j - 1) and t.word(j + 1) in SMALL \
            and SMALL[t.word(j + 1)] <= 9:
        digits = ""
        k = j + 1
        while t.word(k) in SMALL and SMALL[t.word(k)] <= 9 and t.joined(k - 1):
            digits += str(SMALL[t.word(k)])
            k += 1
        text = f"{int(value)}.{digits}"
        if t.word(k) in BIG and t.joined(k - 1):
            return f"{text} {t.word(k)}", k + 1
        return text, k
    # "three and a half", "two and three-quarter"
    if not bigs and t.word(j) == "and" and t.joined(j - 1):
        frac = _fraction_at(t, j + 1)
        if frac is not None:
            value += frac[0]
            j = frac[1]
    scale = ""
    if len(bigs) == 1 and value == Fraction(int(value)) and value % BIG[bigs[0]] == 0 \
            and (not (t.word(j) in BIG and t.joined(j - 1))):
        # "five million": keep the scale word so the digit grammar sees "5 million"
        scale, value = bigs[0], value / BIG[bigs[0]]
    elif not bigs and t.word(j) in BIG and t.joined(j - 1):
        scale = t.word(j)
        j += 1
    if scale and t.word(j) == "and" and t.joined(j - 1):
        # "a million and a half"
        frac = _fraction_at(t, j + 1)
        if frac is not None and t.word(j + 1) in _ARTICLES:
            value += frac[0]
            j = frac[1]
    return render(value) + (f" {scale}" if scale else ""), j


def _part_at(t: _Tokens, i: int, unit_follows: Callable[[int], bool]) -> tuple[str, int] | None:
    """"a quarter of a million", "half a percentage point": a fraction of one unit. The
    replacement ends before the unit or scale word, which the digit grammar reads."""
    if t.word(i) == "half" and t.joined(i):
        if t.word(i + 1) in _ARTICLES and unit_follows(i + 2):
            return render(Fraction(1, 2)), i + 2          # "half a point"
        if unit_follows(i + 1):
            return render(Fraction(1, 2)), i + 1          # "a half-point cut"
        return None
    frac = _fraction_at(t, i)
    if frac is None:
        return None
    value, j = frac
    if t.word(j) == "of" and t.word(j + 1) in _ARTICLES and t.joined(j) and t.joined(j + 1) \
            and unit_follows(j + 2):
        return render(value), j + 2                       # "a quarter of a million"
    if t.joined(j - 1) and unit_follows(j):
        return render(value), j                           # "a quarter point", "a quarter million"
    return None


def _share_at(t: _Tokens, i: int) -> tuple[str, int] | None:
    """A share in words: "one-eighth", "three-fifths of", "a quarter of", "half of"."""
    w = t.word(i)
    if w in ("half", "halves"):
        if t.word(i + 1) == "of" and t.joined(i) and t.word(i - 1) not in ("a", "an"):
            return "1/2", i + 1
        return None
    frac = _fraction_at(t, i)
    if frac is None:
        return None
    value, j = frac
    # "a third party", "a quarter": an article needs "of" to make a share
    if w in _ARTICLES and not (t.word(j) == "of" and t.joined(j - 1)):
        return None
    return f"{value.numerator}/{value.denominator}", j


def rewrite_number_words(text: str, unit_at: Callable[[str, int], bool]) -> Rewritten:
    """Replace every number phrase of ``text`` by digits. ``unit_at(text, pos)`` says
    whether a unit or scale word starts at ``pos`` (for "half a percentage point")."""
    t = _Tokens(text)
    hits: list[tuple[int, int, str]] = []

    def unit_follows(k: int) -> bool:
        return k < len(t) and unit_at(text, t.items[k][1])

    i = 0
    while i < len(t):
        found = _part_at(t, i, unit_follows) or _share_at(t, i) or _amount_at(t, i)
        if found is None:
            i += 1
            continue
        new, j = found
        s, e = t.items[i][1], t.items[j - 1][2]
        if t.glued(s, e):
            i += 1
            continue
        hits.append((s, e, new))
        i = j
    for m in re.finditer(r"(\d*)([" + "".join(VULGAR) + "])", text):
        whole = Fraction(int(m.group(1))) if m.group(1) else Fraction(0)
        hits.append((m.start(), m.end(), render(whole + VULGAR[m.group(2)])))
    hits.sort()
    return _apply(text, hits)


def _apply(text: str, hits: list[tuple[int, int, str]]) -> Rewritten:
    pos = 0
    starts: list[int] = []
    ends: list[int] = []
    worded: list[tuple[int, int]] = []
    out: list[str] = []
    length = 0
    for s, e, new in hits:
        if s < pos:
            continue
        out.append(text[pos:s])
        starts.extend(range(pos, s))
        ends.extend(range(pos + 1, s + 1))
        length += s - pos
        out.append(new)
        # every rewritten char maps onto the whole phrase it came from
        starts.extend([s] * len(new))
        ends.extend([e] * len(new))
        worded.append((length, length + len(new)))
        length += len(new)
        pos = e
    out.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return Rewritten("".join(out), tuple(starts), tuple(ends), tuple(worded))
