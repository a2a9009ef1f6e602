"""Finds the quantities a text states, with exact character offsets: amounts (digits in
English, European and space-grouped formats, scale words, number words), shares (percent,
per mille, basis and percentage points, fractions, "one in five", "0.12 of"), currencies,
physical units, counted nouns, dates and bare years.

Each quantity carries the precision it was *shown* with (``step``: the value of one unit in
the last shown digit, in base units), so the checker can tell "$5.2 million" is a rounding
of $5,213,000 while "$5.3 million" is not.

The pieces: number_words.py turns words into digits; units.py says what a unit, scale word
or noun measures; context.py applies table and header declarations ("in € thousands");
dates.py reads dates. This module holds the digit grammar and puts them together.

Classification choices that keep the traps out:
- ``42 %`` is a ratio (0.42); ``42 employees`` is an amount; they never compare.
- a bare 4-digit integer 1800-2199 without separators, currency, scale or unit is a year;
  ``2,023`` (with a separator) is an amount; they never compare.
- a one-letter scale (``m``, ``k``, ``b``) counts only beside a currency ("$5m"), since
  "5 m" is five metres.
- a number right after a label noun ("page 48", "extension 1250") is a name, not a value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from redactor.policy import context
from redactor.policy.dates import dates_in
from redactor.policy.number_words import Rewritten, rewrite_number_words
from redactor.policy.units import (CODE_ALIASES, CURRENCY_CODES, CURRENCY_SYMBOLS,
                                   CURRENCY_WORDS, DOTTED_SCALES, LABEL_NOUNS, LEADING_COUNT_NOUNS,
                                   LETTER_SCALES, POINT_WORDS, RATE_CONTEXT, RATIO_UNITS,
                                   SCALE_WORDS, UNITS, count_noun)

YEAR_MIN, YEAR_MAX = 1800, 2199


# --- the parsed quantity ------------------------------------------------------------------

@dataclass(frozen=True)
class Quantity:
    """One value stated in a text, at characters [start, end).

    kind: ``amount`` (money, units or bare numbers), ``ratio`` (percentages, fractions;
    value 0.42 for 42 %), ``date`` (``dates``: the readings of the date, ``precision``
    day/month/year; a bare year is a date of precision year).
    """
    start: int
    end: int
    text: str
    kind: str
    value: Decimal | None = None          # in base units (currency units, kg, m, ...)
    step: Decimal = Decimal(0)            # one unit of the last shown digit, base units
    currency: str = ""                    # ISO code, amounts only
    dimension: str = ""                   # "currency", "mass", ... or "" for a bare number
    unit: str = ""                        # the unit as written (normalised)
    noun: str = ""                        # the counted noun of a bare number
    form: str = "digits"                  # digits | words | fraction | percent
    scale: int = 1
    dates: tuple[date, ...] = field(default=())
    precision: str = ""                   # day | month | year, dates only

    @property
    def is_bare(self) -> bool:
        return self.kind == "amount" and not self.dimension


# --- number formats ------------------------------------------------------------------------
# Which character separates thousands and which decimals is decided by the grouping:
# "7.500.000" (dots before groups of exactly three, twice) and "7.500,00" (dots, then a
# comma) are European; "3,4" (a comma before one or two digits) is a decimal comma, read
# only before a scale, currency or percent sign ("3,4 Mio. €"), since "1,2 and 3" is a list;
# "7 500 000" (single spaces before groups of three) is one number when money or a word
# holds it ("7 500 000 €", "€ 7 500", "1 250 claims") and no other digit group touches it;
# otherwise the columns of a flattened table ("Europe 212 340", "212 340 17") stay apart.
# A lone "7.500" stays the English 7.5.
_EU_GROUPED = r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+"
_SPACE_GROUPED = (r"(?:(?<=[$€£¥₹])|(?<=[$€£¥₹] )|(?<=\b[A-Z]{3} )"
                  r"|(?=\d{1,3}(?: \d{3})+ ?(?:[$€£¥₹%‰]|[A-Za-z])))"
                  r"(?<!\d )\d{1,3}(?: \d{3})+(?!\d| \d)")
_COMMA_GROUPED = r"\d{1,3}(?:(?:,|\u202f|\u00a0)\d{3})+(?:\.\d+)?"
_PLAIN = r"\d+(?:\.\d+)?|\.\d+"


def _normal_digits(s: str) -> str:
    """The number text as a Python decimal literal."""
    if re.fullmatch(_EU_GROUPED, s):
        return s.replace(".", "").replace(",", ".")
    if re.fullmatch(r"\d+,\d{1,2}", s):
        return s.replace(",", ".")
    return re.sub(r"[,\u202f\u00a0 ]", "", s)


def _dec(s: str) -> Decimal:
    return Decimal(_normal_digits(s))


def _step_of(number_text: str) -> Decimal:
    """One unit in the last shown digit: "5.20" -> 0.01, "5" -> 1, "5,000,000" -> 1."""
    digits = _normal_digits(number_text)
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1]))
    return Decimal(1)


def _alternation(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+")
                    for w in sorted(words, key=len, reverse=True))


# --- the digit grammar ---------------------------------------------------------------------

_SYM = _alternation([s for s in CURRENCY_SYMBOLS if not s.isalpha()])
_CODES = _alternation(CURRENCY_CODES)
_CUR_WORDS = _alternation(CURRENCY_WORDS)
_SCALES = (rf"(?:{_alternation(DOTTED_SCALES)})\.?|"
           + _alternation(w for w in SCALE_WORDS if w not in DOTTED_SCALES))
_UNIT_ALT = _alternation(UNITS)
_RATIO_ALT = r"%|‰|(?:" + _alternation(u for u in RATIO_UNITS if u[0].isalpha()) + r")(?![\w-])"
_COMMA_SCALES = _alternation(["thousand", "million", "billion", "trillion", "mn", "bn", "m",
                              "k", "mio", "mrd", "tsd", "lakh", "crore"])
_NUM_COMMA = (rf"\d+,\d{{1,2}}(?=\s?(?:(?:{_COMMA_SCALES})(?!\w)|[$€£¥₹%‰]|(?:{_CODES})\b))")
_NUM = rf"(?:{_EU_GROUPED}|{_NUM_COMMA}|{_SPACE_GROUPED}|{_COMMA_GROUPED}|{_PLAIN})"

_AMOUNT = re.compile(
    rf"(?<![\w.,/-])(?P<neg>(?<!\w)[-−])?"
    rf"(?:(?P<pre_sym>{_SYM})\s?|(?P<pre_code>{_CODES})\s?)?"
    rf"(?P<num>{_NUM})(?:/(?P<den>\d{{1,3}})(?![\d/]))?(?!-[A-Za-z0-9])"
    rf"(?:\s?(?P<scale>{_SCALES})(?![\w]))?"
    rf"(?:\s?(?P<pct>{_RATIO_ALT}))?"
    rf"(?:\s?(?P<post_code>{_CODES})(?![\w])|\s(?P<post_word>{_CUR_WORDS})(?![\w])"
    rf"|\s?(?P<post_sym>[$€£¥₹])(?!\w))?"
    rf"(?:\s?(?P<unit>{_UNIT_ALT})(?![\w²]))?"
    rf"(?![\d])",
    re.IGNORECASE)
_UNIT_OR_SCALE_AT = re.compile(
    rf"(?:{_SCALES}|{_UNIT_ALT}|{_alternation(u for u in RATIO_UNITS if u[0].isalpha())}"
    rf"|points?)(?![\w])", re.IGNORECASE)

# "one in five", "12 in every 100", "eight out of every hundred" (after number words)
_IN_EVERY = re.compile(
    r"(?<![\w.,/-])(?P<n>\d+(?:\.\d+)?)\s+(?:in|out\s+of)\s+(?P<every>(?:every|each)\s+)?"
    r"(?P<d>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]*\d)(?!\s*(?:%|percent|years?|months?|weeks?|days?"
    r"|hours?|minutes?)\b)", re.IGNORECASE)
# Words after a number that end its noun phrase ("17 were hired", "240 in 2023").
_STOP_WORDS = frozenset("""the a an in at to from for on by with and or but of as is are was
    were be been being has have had will would that which who whose than per each every
    this those these it its their our his her up down over under about around""".split())
_LABEL_BEFORE = re.compile(
    rf"(?:^|[^\w])(?:{'|'.join(sorted(LABEL_NOUNS))})\.?\s*(?:#\s*)?$", re.IGNORECASE)
_LEADING_NOUN = re.compile(
    rf"\b(?P<noun>{'|'.join(LEADING_COUNT_NOUNS)})\s*(?:of|:|was|is|stood\s+at|totall?ed|reached)"
    r"\s+(?:(?:about|around|roughly|approximately|some|just|only)\s+)?$", re.IGNORECASE)


_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z][A-Za-z-]*)")
_OF_AFTER = re.compile(r"\s+of\b")


def _unit_at(text: str, pos: int) -> bool:
    return _UNIT_OR_SCALE_AT.match(text, pos) is not None


def _currency_code(sym: str | None, code: str | None) -> str:
    if sym:
        return CURRENCY_SYMBOLS.get(sym, CURRENCY_SYMBOLS.get(sym.upper(), ""))
    if code:
        code = code.upper()
        return CODE_ALIASES.get(code, code)
    return ""


def _ratio_unit(text: str) -> tuple[str, Decimal]:
    key = re.sub(r"[\s-]+", " ", text.lower()).strip()
    for unit, factor in RATIO_UNITS.items():
        if re.sub(r"[\s-]+", " ", unit) == key:
            return key, factor
    return key, Decimal("0.01")


def _amount_from_match(m: re.Match, rw: Rewritten) -> Quantity | None:
    g = m.groupdict()
    num_text = g["num"]
    a, b = m.span()
    start, end = rw.original(a, b)     # find_quantities trims trailing spaces afterwards
    worded = rw.from_words(a, b)
    if g["den"] is not None:
        if g["pre_sym"] or g["pre_code"] or g["scale"] or g["pct"] or not num_text.isdigit():
            return None
        num, den = int(num_text), int(g["den"])
        if den == 0 or num >= den * 10:
            return None
        value = Decimal(num) / Decimal(den)
        return Quantity(start, end, "", "ratio", value, Decimal(0), form="fraction")
    try:
        number = _dec(num_text)
    except InvalidOperation:
        return None
    if g["neg"]:
        number = -number
    step = _step_of(num_text)
    currency = (_currency_code(g["pre_sym"], g["pre_code"]) or _currency_code(None, g["post_code"])
                or _currency_code(g["post_sym"], None))
    if not currency and g["post_word"]:
        currency = CURRENCY_WORDS[re.sub(r"\s+", " ", g["post_word"].lower())]
    scale_word = (g["scale"] or "").lower().rstrip(".")
    unit = re.sub(r"\s+", " ", (g["unit"] or "").lower())
    scale = 1
    if scale_word:
        if scale_word in LETTER_SCALES and not currency and g["scale"] not in ("M", "B", "K", "k", "MM"):
            # without money, lower-case letters are units ("5 m" is five metres, "5 t" five
            # tonnes); "5M users", "300k" and "2B" are still scaled
            if scale_word in UNITS and not unit:
                unit = scale_word
            scale_word = ""
        if scale_word:
            scale = SCALE_WORDS[scale_word]
    value = number * scale
    step = step * scale
    form = "words" if worded else "digits"
    if g["pct"]:
        name, factor = _ratio_unit(g["pct"])
        return Quantity(start, end, "", "ratio", value * factor, step * factor, unit=name,
                        form="words" if worded else "percent", scale=scale)
    if currency:
        return Quantity(start, end, "", "amount", value, step, currency=currency,
                        dimension="currency", unit=currency, form=form, scale=scale)
    if unit:
        dim, factor = UNITS[unit]
        return Quantity(start, end, "", "amount", value * factor, step * factor, dimension=dim,
                        unit=unit, form=form, scale=scale)
    plain = num_text.isdigit()
    if plain and len(num_text) == 4 and YEAR_MIN <= int(num_text) <= YEAR_MAX and scale == 1 \
            and not g["neg"] and not worded:
        y = int(num_text)
        return Quantity(start, end, "", "date", Decimal(y), Decimal(0), dates=(date(y, 1, 1),),
                        precision="year")
    return Quantity(start, end, "", "amount", value, step, form=form, scale=scale)


# --- what a bare number counts, from the words around it ----------------------------------

def _noun_after(text: str, end: int) -> str:
    """The counted noun of the phrase after a number: the last known count noun among
    the next three words (the head of an English noun phrase comes last; modifiers before
    it are skipped: "17 client accounts", "17 new hires"), up to a function word."""
    pos, found = end, ""
    for _ in range(3):
        m = _NEXT_WORD.match(text, pos)
        if not m:
            break
        w = m.group(1).lower()
        if w in _STOP_WORDS:
            break
        if w in POINT_WORDS or count_noun(w):
            found = w
        pos = m.end()
    return found


def _sentence(text: str, start: int, end: int, reach: int = 300) -> str:
    """The sentence around [start, end) (looked for within ``reach`` characters)."""
    lo, hi = max(0, start - reach), min(len(text), end + reach)
    a = max(text.rfind(". ", lo, start), text.rfind("\n", lo, start), text.rfind(";", lo, start), lo - 1)
    b = min([i for i in (text.find(". ", end, hi), text.find("\n", end, hi), text.find(";", end, hi))
             if i >= 0] or [hi])
    return text[a + 1:b]


def _with_context(q: Quantity, text: str, decls) -> Quantity | None:
    """Give a bare number the dimension its words or a header state; None for a label."""
    if _LABEL_BEFORE.search(text[max(0, q.start - 24):q.start]) and q.form == "digits":
        return None
    noun = _noun_after(text, q.end)
    if noun in POINT_WORDS:
        sentence = _sentence(text, q.start, q.end).lower()
        if any(w in sentence for w in RATE_CONTEXT):
            # "rose 0.3 points to 4.2 %": percentage points
            return replace(q, kind="ratio", value=q.value / 100, step=q.step / 100,
                           unit="percentage points", form="percent", end=q.end + len(noun) + 1)
        noun = ""
    if noun:
        return replace(q, noun=noun)
    if _OF_AFTER.match(text, q.end) and q.value is not None and 0 < q.value < 1 \
            and q.form == "digits" and q.scale == 1:
        # "0.12 of total revenue": a share written as a decimal
        return replace(q, kind="ratio", form="fraction")
    lead = _LEADING_NOUN.search(text[max(0, q.start - 40):q.start])
    if lead:
        return replace(q, noun=lead.group("noun").lower())
    d = decls.at(q.start)
    if not d or q.scale != 1 or q.form != "digits":
        return q
    if d.ratio == "percent" or (d.ratio == "share" and q.value > 1):
        return replace(q, kind="ratio", value=q.value / 100, step=q.step / 100, form="percent")
    if d.ratio == "share":
        return replace(q, kind="ratio", form="fraction")
    if d.noun:
        return replace(q, noun=d.noun)
    q = replace(q, value=q.value * d.scale, step=q.step * d.scale, scale=d.scale)
    if d.currency:
        q = replace(q, dimension="currency", currency=d.currency, unit=d.currency)
    return q


def _scaled_by_header(q: Quantity, decls: context.Declarations) -> Quantity:
    """Money without a scale word of its own under "(in millions)": "$5.2" is $5.2 million.
    A header naming another currency does not apply."""
    d = decls.at(q.start)
    if not d or d.scale == 1 or (d.currency and d.currency != q.currency):
        return q
    return replace(q, value=q.value * d.scale, step=q.step * d.scale, scale=d.scale)


# --- public API ----------------------------------------------------------------------------

def find_quantities(text: str) -> list[Quantity]:
    """Every quantity stated in ``text``, in order, with offsets into ``text``."""
    taken = bytearray(len(text))      # characters already read as a date, ratio or header

    def take(s: int, e: int) -> None:
        taken[s:e] = b"\x01" * (e - s)

    out = []
    for s, e, readings, precision in dates_in(text):
        take(s, e)
        if readings:                  # a day without a year is read, and matches nothing
            out.append(Quantity(s, e, text[s:e], "date", dates=readings, precision=precision))
    rw = rewrite_number_words(text, _unit_at)
    for m in _IN_EVERY.finditer(rw.text):
        n, d = Decimal(m.group("n")), int(m.group("d").replace(",", ""))
        if not 0 < n < d or (not m.group("every") and YEAR_MIN <= d <= YEAR_MAX):
            continue
        s, e = rw.original(*m.span())
        if any(taken[s:e]):
            continue
        out.append(Quantity(s, e, text[s:e], "ratio", n / d, Decimal(0), form="fraction"))
        take(s, e)
    decls = context.Declarations(text)
    for s, e in decls.headers:
        take(s, e)
    for m in _AMOUNT.finditer(rw.text):
        start, end = rw.original(*m.span())
        if any(taken[start:end]):
            continue
        q = _amount_from_match(m, rw)
        if q is None:
            continue
        end = q.end
        while end > q.start and text[end - 1].isspace():
            end -= 1
        q = replace(q, end=end)
        if q.is_bare:
            q = _with_context(q, text, decls)
            if q is None:
                continue
        elif q.dimension == "currency" and q.scale == 1 and q.form == "digits":
            q = _scaled_by_header(q, decls)
        out.append(replace(q, text=text[q.start:q.end]))
    out.sort(key=lambda q: (q.start, q.end))
    return out


@lru_cache(maxsize=4096)
def parse_value(text: str) -> Quantity | None:
    """The single quantity a policy value states ("$5 million", "42 %", "March 5, 2024"),
    or None when it states none or several (then it is matched as text)."""
    qs = find_quantities(text.strip())
    if len(qs) != 1:
        return None
    return qs[0]
