"""The dimension model of the value checker: which unit, currency, scale word or counted
noun says what a number measures, and by which factor it converts to the dimension's base.

Two quantities compare only within one dimension; inside it they compare after conversion
to the base unit (40 bp = 0.4 percentage points = 0.004; 12 km = 12,000 m). The tables:

- CURRENCY_*: money; a currency is its own dimension (converted only with policy rates).
- SCALE_WORDS: multipliers of the number before them (million, bn, Mio., Mrd., lakh, crore).
- UNITS: physical units, spelled short and long (kg / kilograms, sq ft / square feet).
- RATIO_UNITS: shares and rates: percent, per mille, basis points, percentage points.
- COUNT_NOUNS: what a bare number counts, grouped: (dimension, kind). Two counts compare
  when dimension and kind agree, or when one of them is the generic noun of the dimension
  (``people``, ``units``): "17 people" states "17 employees"; "17 offices" does not.
- LABEL_NOUNS: nouns that make the number after them a name, not a quantity ("page 48").
"""
from __future__ import annotations

from decimal import Decimal

# --- money ---------------------------------------------------------------------------------

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
CODE_ALIASES = {"RMB": "CNY"}

# --- scale words ---------------------------------------------------------------------------

SCALE_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
               "thousands": 10**3, "millions": 10**6, "billions": 10**9,
               "mn": 10**6, "mln": 10**6, "bn": 10**9, "tn": 10**12, "mm": 10**6,
               "k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12,
               # German and Indian scale words; the abbreviations take an optional dot
               "tsd": 10**3, "mio": 10**6, "mrd": 10**9, "lakh": 10**5, "lakhs": 10**5,
               "lac": 10**5, "crore": 10**7, "crores": 10**7, "cr": 10**7}
# One-letter (and "mm") scales only count next to a currency ("5 m" is five metres).
LETTER_SCALES = {"k", "m", "b", "t", "mm"}
# Scale abbreviations written with a full stop ("3,4 Mio. €").
DOTTED_SCALES = ("tsd", "mio", "mrd")

# --- physical units: unit -> (dimension, factor to the base unit) -------------------------

_M = Decimal
UNITS = {
    "mg": ("mass", _M("0.000001")), "g": ("mass", _M("0.001")), "grams": ("mass", _M("0.001")),
    "kg": ("mass", _M(1)), "kilograms": ("mass", _M(1)), "kilogram": ("mass", _M(1)),
    "t": ("mass", _M(1000)), "tonnes": ("mass", _M(1000)), "tonne": ("mass", _M(1000)),
    "tons": ("mass", _M(1000)), "ton": ("mass", _M(1000)), "metric tons": ("mass", _M(1000)),
    "lb": ("mass", _M("0.45359237")), "lbs": ("mass", _M("0.45359237")),
    "mm": ("length", _M("0.001")), "cm": ("length", _M("0.01")),
    "m": ("length", _M(1)), "metres": ("length", _M(1)), "meters": ("length", _M(1)),
    "metre": ("length", _M(1)), "meter": ("length", _M(1)),
    "km": ("length", _M(1000)), "kilometres": ("length", _M(1000)),
    "kilometers": ("length", _M(1000)), "kilometre": ("length", _M(1000)),
    "kilometer": ("length", _M(1000)),
    "mi": ("length", _M("1609.344")), "miles": ("length", _M("1609.344")),
    "mile": ("length", _M("1609.344")),
    "ft": ("length", _M("0.3048")), "feet": ("length", _M("0.3048")), "foot": ("length", _M("0.3048")),
    "ml": ("volume", _M("0.001")), "l": ("volume", _M(1)),
    "litres": ("volume", _M(1)), "liters": ("volume", _M(1)), "litre": ("volume", _M(1)),
    "liter": ("volume", _M(1)), "barrels": ("volume", _M("158.987294928")),
    "kwh": ("energy", _M(1)), "mwh": ("energy", _M(1000)),
    "gwh": ("energy", _M(10**6)), "twh": ("energy", _M(10**9)),
    "tco2e": ("emissions", _M(1)), "ktco2e": ("emissions", _M(1000)),
    "mtco2e": ("emissions", _M(10**6)),
    "m2": ("area", _M(1)), "m²": ("area", _M(1)), "sqm": ("area", _M(1)),
    "square metres": ("area", _M(1)), "square meters": ("area", _M(1)),
    "km2": ("area", _M(10**6)), "km²": ("area", _M(10**6)),
    "sq ft": ("area", _M("0.09290304")), "sq. ft.": ("area", _M("0.09290304")),
    "sqft": ("area", _M("0.09290304")), "square feet": ("area", _M("0.09290304")),
    "square foot": ("area", _M("0.09290304")),
    "hectares": ("area", _M(10**4)), "ha": ("area", _M(10**4)), "acres": ("area", _M("4046.8564224")),
    # time: base one year (a month is a twelfth; days and weeks by the Julian year)
    "years": ("time", _M(1)), "year": ("time", _M(1)), "months": ("time", _M(1) / 12),
    "month": ("time", _M(1) / 12), "weeks": ("time", _M(7) / _M("365.25")),
    "week": ("time", _M(7) / _M("365.25")), "days": ("time", _M(1) / _M("365.25")),
    "day": ("time", _M(1) / _M("365.25")), "hours": ("time", _M(1) / _M(8766)),
}

# --- shares and rates: unit -> factor to a plain fraction ----------------------------------
# A percentage-point change and a percentage are the same dimension (a share of 1):
# "a 0.25 % cut" of a rate and "25 bp" state the same number.
RATIO_UNITS = {
    "%": _M("0.01"), "percent": _M("0.01"), "per cent": _M("0.01"), "pct": _M("0.01"),
    "percentage points": _M("0.01"), "percentage point": _M("0.01"), "pp": _M("0.01"),
    "ppt": _M("0.01"), "ppts": _M("0.01"), "pts": _M("0.01"),
    "‰": _M("0.001"), "per mille": _M("0.001"), "per mil": _M("0.001"),
    "basis points": _M("0.0001"), "basis point": _M("0.0001"), "basis-points": _M("0.0001"),
    "basis-point": _M("0.0001"), "bps": _M("0.0001"), "bp": _M("0.0001"),
}
# "points" alone is a percentage point only in a sentence that speaks of a rate.
POINT_WORDS = ("points", "point")
RATE_CONTEXT = ("%", "percent", "per cent", "margin", "rate", "yield", "spread", "share")

# --- counted nouns: noun -> (dimension, kind); kind "" = the generic noun -----------------


def _group(dimension: str, kind: str, words: str) -> dict[str, tuple[str, str]]:
    return {w: (dimension, kind) for w in words.split()}


COUNT_NOUNS: dict[str, tuple[str, str]] = {
    # people: generic nouns match every kind of people ("members" of a team or a club)
    **_group("people", "", "people persons person individuals members"),
    # the workforce; a filled position or role is a person on the payroll
    **_group("people", "workforce", """employees employee staff staffers workers worker
        personnel headcount ftes fte hires positions position roles jobs"""),
    **_group("people", "customers", """customers customer clients client users user
        subscribers subscriber accounts households patients students visitors
        passengers shoppers buyers guests consumers policyholders"""),
    # things: "units"/"items"/"pieces" are the generic counter of goods
    **_group("things", "", "units unit items item pieces"),
    **{w: ("things", w.rstrip("s")) for w in """vehicles cars products orders shipments
        contracts deals transactions bonds shares stores branches offices sites plants
        factories facilities outlets countries cities markets regions projects patents
        votes seats times restaurants hotels aircraft ships trucks machines""".split()},
}
# A team/workforce/headcount of N counts people (the noun comes before the number).
LEADING_COUNT_NOUNS = {"headcount": ("people", "workforce"), "workforce": ("people", "workforce"),
                       "team": ("people", "workforce"), "staff": ("people", "workforce"),
                       "employees": ("people", "workforce"), "payroll": ("people", "workforce")}

# Nouns that make the number after them a label: "page 48", "extension 1250", "Note 7".
LABEL_NOUNS = frozenset("""page pages p pp extension ext model no nos number room suite line
    item article section sec clause chapter note notes figure fig table appendix exhibit
    version release route flight code box ref reference unit floor level gate platform
    serial order invoice account id""".split())


def count_noun(word: str) -> tuple[str, str] | None:
    word = word.lower()
    return COUNT_NOUNS.get(word) or LEADING_COUNT_NOUNS.get(word)


def counts_compatible(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Two counted nouns name the same count: same dimension, and same kind or a generic."""
    return a[0] == b[0] and (a[1] == b[1] or not a[1] or not b[1])
