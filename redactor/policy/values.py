"""Finds the quantities a text states, with exact character offsets: amounts (digits with
separators, scale words k/million/bn, number words), percentages and fractions, currencies
(symbols, ISO codes, names), units, dates in common formats and bare years.

Each quantity carries the precision it was *shown* with (``step``: the value of one unit in
the last shown digit, in base units), so the checker can tell "$5.2 million" is a rounding
of $5,213,000 while "$5.3 million" is not.

Classification choices that keep the traps out:
- ``42 %`` is a ratio (0.42); ``42 employees`` is an amount; they never compare.
- a bare 4-digit integer 1800-2199 without separators, currency, scale or unit is a year;
  ``2,023`` (with a separator) is an amount; they never compare.
- a one-letter scale (``m``, ``k``, ``b``) counts only beside a currency ("$5m"), since
  "5 m" is five metres.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from text_to_num import text2num

# --- tables -------------------------------------------------------------------------------

CURRENCY_SYMBOLS = {"US$": "USD", "C$": "CAD", "A$": "AUD", "HK$": "HKD", "S$": "SGD",
                    "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW",
                    "₽": "RUB", "₺": "TRY", "R$": "BRL", "CHF": "CHF"}
CURRENCY_CODES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "RMB", "INR", "KRW",
                  "SEK", "NOK", "DKK", "HKD", "SGD", "NZD", "BRL", "MXN", "ZAR", "RUB", "TRY",
                  "PLN", "CZK", "HUF", "ILS", "AED", "SAR", "TWD", "THB")
CURRENCY_WORDS = {"dollars": "USD", "dollar": "USD", "us dollars": "USD", "euros": "EUR",
                  "euro": "EUR", "pounds sterling": "GBP", "pounds": "GBP", "pound": "GBP",
                  "yen": "JPY", "rupees": "INR", "rupee": "INR", "yuan": "CNY", "francs": "CHF",
                  "swiss francs": "CHF", "won": "KRW"}
_CODE_ALIASES = {"RMB": "CNY"}

SCALE_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
               "mn": 10**6, "mln": 10**6, "bn": 10**9, "tn": 10**12, "mm": 10**6,
               "k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
# One-letter (and "mm") scales only count next to a currency.
_LETTER_SCALES = {"k", "m", "b", "t", "mm"}

# unit -> (dimension, factor to the dimension's base unit)
UNITS = {
    "mg": ("mass", Decimal("0.000001")), "g": ("mass", Decimal("0.001")),
    "kg": ("mass", Decimal(1)), "t": ("mass", Decimal(1000)), "tonnes": ("mass", Decimal(1000)),
    "tonne": ("mass", Decimal(1000)), "tons": ("mass", Decimal(1000)),
    "lb": ("mass", Decimal("0.45359237")), "lbs": ("mass", Decimal("0.45359237")),
    "mm": ("length", Decimal("0.001")), "cm": ("length", Decimal("0.01")),
    "m": ("length", Decimal(1)), "km": ("length", Decimal(1000)),
    "mi": ("length", Decimal("1609.344")), "miles": ("length", Decimal("1609.344")),
    "ft": ("length", Decimal("0.3048")), "feet": ("length", Decimal("0.3048")),
    "ml": ("volume", Decimal("0.001")), "l": ("volume", Decimal(1)),
    "litres": ("volume", Decimal(1)), "liters": ("volume", Decimal(1)),
    "kwh": ("energy", Decimal(1)), "mwh": ("energy", Decimal(1000)),
    "gwh": ("energy", Decimal(10**6)), "twh": ("energy", Decimal(10**9)),
    "tco2e": ("emissions", Decimal(1)), "ktco2e": ("emissions", Decimal(1000)),
    "mtco2e": ("emissions", Decimal(10**6)),
    "m2": ("area", Decimal(1)), "m²": ("area", Decimal(1)), "km2": ("area", Decimal(10**6)),
    "km²": ("area", Decimal(10**6)), "sq ft": ("area", Decimal("0.09290304")),
    "hectares": ("area", Decimal(10**4)), "ha": ("area", Decimal(10**4)),
}
# Nouns that say an amount counts things, not money: "42 employees" is never "$42".
COUNT_NOUNS = frozenset("""employees employee staff people persons person workers users
customers clients members units shares stores branches offices sites plants vehicles
patients students households days months years hours weeks times countries cities
markets products orders items points votes seats""".split())

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9

_UNITS_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve "
                "thirteen fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_DIGIT_OF = {w: i for i, w in enumerate(_UNITS_WORDS[:10])}
_FRACTION_WORDS = {"half": (1, 2), "halves": (1, 2), "third": (1, 3), "thirds": (1, 3),
                   "quarter": (1, 4), "quarters": (1, 4), "fifth": (1, 5), "fifths": (1, 5),
                   "sixth": (1, 6), "sixths": (1, 6), "eighth": (1, 8), "eighths": (1, 8),
                   "tenth": (1, 10), "tenths": (1, 10)}

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
    noun: str = ""                        # a count noun right after a bare number
    form: str = "digits"                  # digits | words | fraction | percent
    scale: int = 1
    dates: tuple[date, ...] = field(default=())
    precision: str = ""                   # day | month | year, dates only

    @property
    def is_bare(self) -> bool:
        return self.kind == "amount" and not self.dimension


# --- helpers -------------------------------------------------------------------------------

def _dec(s: str) -> Decimal:
    if re.fullmatch(r"\d+,\d{1,2}", s):     # decimal comma (only admitted before a scale)
        s = s.replace(",", ".")
    return Decimal(s.replace(",", "").replace("\u202f", "").replace("\u00a0", "").replace(" ", ""))


def _step_of(number_text: str) -> Decimal:
    """One unit in the last shown digit: "5.20" -> 0.01, "5" -> 1, "5,000,000" -> 1."""
    if re.fullmatch(r"\d+,\d{1,2}", number_text):
        number_text = number_text.replace(",", ".")
    digits = number_text.replace(",", "").replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1]))
    return Decimal(1)


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# --- number words -> digits, keeping offsets ---------------------------------------------

_NUMBER_WORD = _alternation(_UNITS_WORDS + _TENS_WORDS + ["hundred", "thousand", "million",
                                                          "billion", "trillion"])
_WORD_RUN = re.compile(
    rf"(?<![\w-])(?:(?:{_NUMBER_WORD})(?:-(?:{_NUMBER_WORD}))?)"
    rf"(?:(?:\s+|\s*-\s*)(?:and\s+)?(?:(?:{_NUMBER_WORD}|point)(?:-(?:{_NUMBER_WORD}))?))*(?![\w-])",
    re.IGNORECASE)
_FRACTION_RUN = re.compile(
    rf"(?<![\w-])(?:(a|an|one|two|three|four|five|six|seven|eight|nine)[\s-]+)?"
    rf"({_alternation(_FRACTION_WORDS)})(?![\w-])", re.IGNORECASE)
_BIG_SCALES = ("thousand", "million", "billion", "trillion")


def _words_to_number(run: str) -> tuple[str, str] | None:
    """"two point five" -> ("2.5", ""), "five million" -> ("5", "million") (the big scale
    stays a word so the digit grammar handles it like "5 million"). None if not a number."""
    tokens = [t for t in re.split(r"[\s-]+", run.lower()) if t and t != "and"]
    if all(t in _BIG_SCALES or t == "hundred" for t in tokens):
        return None   # a lone "million" belongs to the digits before it ("5 million")
    scale = ""
    if tokens and tokens[-1] in _BIG_SCALES and len(tokens) > 1:
        # keep compound integers ("one million two hundred thousand") whole
        if "point" in tokens or not any(t in _BIG_SCALES for t in tokens[:-1]):
            scale = tokens.pop()
    if not tokens:
        return None
    if "point" in tokens:
        i = tokens.index("point")
        int_part, frac = tokens[:i], tokens[i + 1:]
        if not frac or any(t not in _DIGIT_OF for t in frac):
            return None
        try:
            whole = text2num(" ".join(int_part), "en") if int_part else 0
        except ValueError:
            return None
        return f"{whole}." + "".join(str(_DIGIT_OF[t]) for t in frac), scale
    try:
        return str(text2num(" ".join(tokens), "en")), scale
    except ValueError:
        return None


@dataclass(frozen=True)
class _Rewritten:
    """Text with number words replaced by digits, and the map back to original offsets."""
    text: str
    starts: tuple[int, ...]   # original start offset of each rewritten char
    ends: tuple[int, ...]     # original end offset of each rewritten char
    worded: tuple[tuple[int, int], ...]   # rewritten ranges that came from words

    def original(self, a: int, b: int) -> tuple[int, int]:
        return self.starts[a], self.ends[b - 1]

    def from_words(self, a: int, b: int) -> bool:
        return any(a < we and ws < b for ws, we in self.worded)


def _rewrite_number_words(text: str) -> _Rewritten:
    pos = 0
    hits = []
    for m in _FRACTION_RUN.finditer(text):
        count_word = (m.group(1) or "").lower()
        frac_word = m.group(2).lower()
        followed_by_of = re.match(r"\s+of\b", text[m.end():m.end() + 4], re.IGNORECASE)
        # "third quarter", "a third party", "the second half": ordinals, not shares. A share
        # needs a cardinal count ("one third", "two quarters") or "a ... of" / "half of".
        if not count_word and not (frac_word.startswith("hal") and followed_by_of):
            continue
        if count_word in ("a", "an") and not followed_by_of:
            continue
        num, den = _FRACTION_WORDS[frac_word]
        count = 1 if count_word in ("", "a", "an") else text2num(count_word, "en")
        hits.append((m.start(), m.end(), f"{count * num}/{den}", ""))
    for m in _WORD_RUN.finditer(text):
        if any(s < m.end() and m.start() < e for s, e, _, _ in hits):
            continue   # "one eighth" is a fraction, not the number one
        parsed = _words_to_number(m.group(0))
        if parsed is None:
            continue
        digits, scale = parsed
        hits.append((m.start(), m.end(), digits + (f" {scale}" if scale else ""), scale))
    hits.sort()
    starts: list[int] = []
    ends: list[int] = []
    worded: list[tuple[int, int]] = []
    out: list[str] = []
    for s, e, new, scale in hits:
        if s < pos:
            continue
        out.append(text[pos:s])
        starts.extend(range(pos, s))
        ends.extend(range(pos + 1, s + 1))
        a = sum(len(p) for p in out)
        out.append(new)
        # a kept scale word maps onto the original scale word, the digits onto the rest
        digits_len = len(new) - (len(scale) + 1 if scale else 0)
        scale_start = e - len(scale) if scale else e
        for i in range(len(new)):
            if i < digits_len:
                starts.append(s)
                ends.append(scale_start if scale else e)
            else:
                starts.append(scale_start)
                ends.append(e)
        worded.append((a, a + len(new)))
        pos = e
    out.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return _Rewritten("".join(out), tuple(starts), tuple(ends), tuple(worded))


# --- the digit grammar ---------------------------------------------------------------------

_SYM = _alternation([s for s in CURRENCY_SYMBOLS if not s.isalpha()])
_CODES = _alternation(CURRENCY_CODES)
_CUR_WORDS = _alternation(CURRENCY_WORDS)
_SCALES = _alternation(SCALE_WORDS)
_UNIT_ALT = _alternation(UNITS)
_NUM = r"(?:\d{1,3}(?:(?:,|\u202f|\u00a0)\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
# "5,2 million": a decimal comma, unambiguous only before a scale word
_COMMA_SCALES = _alternation(["thousand", "million", "billion", "trillion", "mn", "bn", "m", "k"])
_NUM_COMMA = rf"(?:\d+,\d{{1,2}}(?=\s?(?:{_COMMA_SCALES})(?!\w)))"

_AMOUNT = re.compile(
    rf"(?<![\w.,/-])(?P<neg>(?<!\w)[-−])?"
    rf"(?:(?P<pre_sym>{_SYM})\s?|(?P<pre_code>{_CODES})\s?)?"
    rf"(?P<num>{_NUM_COMMA}|{_NUM})(?:/(?P<den>\d{{1,3}})(?![\d/]))?(?!-[A-Za-z0-9])"
    rf"(?:\s?(?P<scale>{_SCALES})(?![\w]))?"
    rf"(?:\s?(?P<pct>%|percent\b|per\s+cent\b|pct\b))?"
    rf"(?:\s?(?P<post_code>{_CODES})(?![\w])|\s(?P<post_word>{_CUR_WORDS})(?![\w])"
    rf"|\s?(?P<post_sym>[$€£¥₹])(?!\w))?"
    rf"(?:\s?(?P<unit>{_UNIT_ALT})(?![\w²]))?"
    rf"(?![\d])",
    re.IGNORECASE)

_NOUN_AFTER = re.compile(r"\s+(?:of\s+)?([A-Za-z]+)")


def _currency_code(sym: str | None, code: str | None) -> str:
    if sym:
        return CURRENCY_SYMBOLS.get(sym, CURRENCY_SYMBOLS.get(sym.upper(), ""))
    if code:
        code = code.upper()
        return _CODE_ALIASES.get(code, code)
    return ""


def _amount_from_match(m: re.Match, rw: _Rewritten) -> Quantity | None:
    g = m.groupdict()
    num_text = g["num"]
    a, b = m.span()
    start, end = rw.original(a, b)     # find_quantities trims trailing spaces afterwards
    worded = rw.from_words(a, b)
    if g["den"] is not None:
        if g["pre_sym"] or g["pre_code"] or g["scale"] or g["pct"] or "." in num_text or "," in num_text:
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
        currency = CURRENCY_WORDS[g["post_word"].lower()]
    scale_word = (g["scale"] or "").lower()
    unit = (g["unit"] or "").lower()
    scale = 1
    if scale_word:
        if scale_word in _LETTER_SCALES and not currency and g["scale"] not in ("M", "B", "K", "k", "MM"):
            # without money, lower-case letters are units ("5 m" is five metres, "5 t" five
            # tonnes); "5M users", "300k" and "2B" are still scaled
            if scale_word in UNITS and not unit:
                unit = scale_word
            scale_word = ""
        if scale_word:
            scale = SCALE_WORDS[scale_word]
    value = number * scale
    step = step * scale
    if g["pct"]:
        return Quantity(start, end, "", "ratio", value / 100, step / 100,
                        form="words" if worded else "percent", scale=scale)
    if currency:
        return Quantity(start, end, "", "amount", value, step, currency=currency,
                        dimension="currency", unit=currency, form="words" if worded else "digits",
                        scale=scale)
    if unit:
        dim, factor = UNITS[unit]
        return Quantity(start, end, "", "amount", value * factor, step * factor, dimension=dim,
                        unit=unit, form="words" if worded else "digits", scale=scale)
    plain = num_text.isdigit()
    if plain and len(num_text) == 4 and YEAR_MIN <= int(num_text) <= YEAR_MAX and scale == 1 \
            and not g["neg"] and not worded:
        y = int(num_text)
        return Quantity(start, end, "", "date", Decimal(y), Decimal(0), dates=(date(y, 1, 1),),
                        precision="year")
    return Quantity(start, end, "", "amount", value, step, form="words" if worded else "digits",
                    scale=scale)


# --- dates ---------------------------------------------------------------------------------

_MON = _alternation(list(MONTHS))
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:18|19|20|21)\d\d)"
_DATE_PATTERNS = [
    re.compile(rf"(?<![\w/.-]){_YEAR}-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)(?![\w/-])"),
    re.compile(r"(?<![\w/.-])(?P<a>[0-3]?\d)[/.-](?P<b>[0-3]?\d)[/.-](?P<y>(?:\d\d)?\d\d)(?![\w/-]|\.\d)"),
    re.compile(rf"(?<!\w)(?P<mon>{_MON})\.?\s+{_DAY},?\s+{_YEAR}(?!\w)", re.IGNORECASE),
    re.compile(rf"(?<!\w)(?:the\s+)?{_DAY}(?:\s+of)?\s+(?P<mon>{_MON})\.?,?\s+{_YEAR}(?!\w)", re.IGNORECASE),
    re.compile(rf"(?<!\w)(?P<mon>{_MON})\.?,?\s+{_YEAR}(?!\w)", re.IGNORECASE),
]


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _dates_in(text: str) -> list[Quantity]:
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for i, pat in enumerate(_DATE_PATTERNS):
        for m in pat.finditer(text):
            s, e = m.span()
            if any(s < te and ts < e for ts, te in taken):
                continue
            g = m.groupdict()
            readings: list[date] = []
            precision = "day"
            if i == 0:
                readings = [_safe_date(int(g["year"]), int(g["m"]), int(g["d"]))]
            elif i == 1:
                y = int(g["y"])
                if len(g["y"]) == 2:
                    y += 2000 if y < 70 else 1900
                a, b = int(g["a"]), int(g["b"])
                readings = [_safe_date(y, a, b), _safe_date(y, b, a)]   # US and day-first
            elif i in (2, 3):
                readings = [_safe_date(int(g["year"]), MONTHS[g["mon"].lower()], int(g["day"]))]
            else:
                readings = [_safe_date(int(g["year"]), MONTHS[g["mon"].lower()], 1)]
                precision = "month"
            dates = tuple(dict.fromkeys(d for d in readings if d))
            if not dates:
                continue
            taken.append((s, e))
            found.append(Quantity(s, e, text[s:e], "date", dates=dates, precision=precision))
    return found


# --- public API ----------------------------------------------------------------------------

def find_quantities(text: str) -> list[Quantity]:
    """Every quantity stated in ``text``, in order, with offsets into ``text``."""
    dates = _dates_in(text)
    rw = _rewrite_number_words(text)
    out = list(dates)
    for m in _AMOUNT.finditer(rw.text):
        a, b = m.span()
        start, end = rw.original(a, b)
        if any(start < d.end and d.start < end for d in dates):
            continue
        q = _amount_from_match(m, rw)
        if q is None:
            continue
        end = q.end
        while end > q.start and text[end - 1].isspace():
            end -= 1
        noun = ""
        if q.is_bare:
            nm = _NOUN_AFTER.match(text, end)
            if nm and nm.group(1).lower() in COUNT_NOUNS:
                noun = nm.group(1).lower()
        q = replace(q, end=end, text=text[q.start:end], noun=noun)
        out.append(q)
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
