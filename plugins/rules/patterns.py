"""Text-pattern rules: regexes from mappings/rules/patterns.yaml over the page text, each
match confirmed by its named validator (checksums and structural checks on the
OCR-normalised value)."""
from __future__ import annotations

import re
from typing import Callable

from redactor_plugins.rules import checksums as cs
from redactor_plugins.rules.hits import Hit, trim
from redactor_plugins.rules.lexicon import Pattern


def _digits_ok(text: str, minimum: float = 0.7) -> bool:
    return cs.real_digit_share(text) >= minimum


def _card_grouping(t: str) -> bool:
    """Cards are printed in one run or in groups of four (Amex 4-6-5, Diners 4-6-4); OCR may
    drop a space, so a group may be a multiple of four. Table columns ("30 10 25") are not."""
    groups = [g for g in re.split(r"[ \-]+", t.strip()) if g]
    if len(groups) == 1:
        return True
    lens = [len(g) for g in groups]
    if lens in ([4, 6, 5], [4, 6, 4]):
        return True
    return all(n % 4 == 0 for n in lens[:-1]) and 1 <= lens[-1] <= 8


def _card(t: str) -> bool:
    return _digits_ok(t) and _card_grouping(t) and cs.card_valid(cs.ocr_digits(t))


def _ssn(t: str) -> bool:
    return _digits_ok(t) and cs.ssn_valid(cs.ocr_digits(t))


def _ein(t: str) -> bool:
    return _digits_ok(t) and cs.ein_valid(cs.ocr_digits(t))


def _aba(t: str) -> bool:
    return t.isdigit() and cs.aba_valid(t)


def _iban(t: str) -> bool:
    return cs.iban_valid(t)


def _ipv4(t: str) -> bool:
    return cs.ipv4_valid(t)


def _ipv4_misread(t: str) -> bool:
    # a dot read as a comma (or with a speck: ",."); two true dots at least, so that an
    # amount ("12,100,200.50": one dot) is no address
    seps = re.findall(r"[.,]+", t)
    return sum("," not in s for s in seps) >= 2 and cs.ipv4_valid(re.sub(r"[.,]+", ".", t))


def _phone_nanp(t: str) -> bool:
    main = re.split(r"(?i)ext|x|#|extension", t)[0]
    d = cs.ocr_digits(main)
    if not _digits_ok(main):
        return False
    if len(d) == 11 and d[0] == "1":
        d = d[1:]
    # a bracketed area code is a phone's whatever OCR made of its first digit ("(002)" for
    # "(692)"); bare groups need valid area and exchange codes
    bracketed = t.lstrip().startswith("(")
    if len(d) != 10 or (d[0] in "01" or d[3] in "01") and not bracketed:
        return False
    return len(set(d)) > 2


def _phone_intl(t: str) -> bool:
    main = re.split(r"(?i)ext|x", t)[0]
    d = cs.ocr_digits(main.lstrip("+").lstrip("0"))
    return _digits_ok(main) and 8 <= len(d) <= 15


def _phone_national(t: str) -> bool:
    d = cs.ocr_digits(t)
    if not _digits_ok(t) or not 9 <= len(d) <= 12:
        return False
    # a national number is grouped (spaces, dashes, slash, parentheses) or is 10-11 digits
    # starting with the trunk 0; a date like 01.02.2024 is not a phone number
    # (nor is a date with its clock time, "07/24/2017 11:40:19": a time stamp)
    if re.match(r"\d{1,2}([./\-])\d{1,2}\1\d{2,4}(?:$|[ ]+\d{1,2}(?:[:.]\d\d|$))", t.strip()):
        return False
    # ... nor a date with a four-digit year and the next cell's figures ("03/20/2023 04/04":
    # an invoice's date and its due date read as one line)
    if re.match(r"\d{1,2}([./\-])\d{1,2}\1(?:19|20)\d{2}(?!\d)", t.strip()):
        return False
    return len(set(d)) > 2


def _month_and_day(a: int, b: int) -> bool:
    # month/day in either order (US and European forms)
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


def _date_numeric(t: str) -> bool:
    parts = [p for p in re.split(r"[/.\- \[|(]+", t) if p]
    if len(parts) != 3:
        return False
    a, b, y = (int(p) for p in parts)
    return _month_and_day(a, b) and (len(parts[2]) == 2 or 1900 <= y <= 2099)


def _date_numeric_misread(t: str) -> bool:
    # at most two figures misread, and most of the date real figures (a code "IL/LO/88" is
    # no date); a typewriter's 1 read as "L" too ("L2/4/80" for 12/4/80), which the shared
    # confusions leave out (a capital L in an identifier is a letter)
    lookalikes = sum(c in "IlL|Oo" for c in t)
    return 1 <= lookalikes <= 2 and sum(c.isdigit() for c in t) >= 3 and \
        _date_numeric(t.replace("L", "1").translate(cs.OCR_DIGIT_CONFUSIONS))


def _date_range(t: str) -> bool:
    # both ends of "3/12/81-3/24/81" are calendar dates
    first, second = re.split(r"\s*[\-–]\s*", t, maxsplit=1)
    return _date_numeric(first) and _date_numeric(second)


def _date_time(t: str) -> bool:
    # the date part of "02/24/2014 2:22:11 PM" must be a calendar date
    return _date_numeric(t.split()[0])


def _weekday_date(t: str) -> bool:
    # "Thursday, 3/14": the weekday capitalised (a lower-case "sat" or "wed" is a verb) and
    # its figures a calendar day, month first or day first, with a year when written
    weekday, figures = t.split(" ", 1)
    groups = figures.split("/")
    return weekday[:1].isupper() and (_month_and_day(int(groups[0]), int(groups[1])) if len(groups) == 2
                                      else _date_numeric(figures))


def _month_capitalised_inside(t: str) -> bool:
    # "09-Apr-96", "09-APR-96": the month word is capitalised (a lower-case "may" is a verb)
    word = re.search(r"[A-Za-z]+", t)
    return bool(word) and word.group(0)[:1].isupper()


def _year_span(t: str) -> bool:
    # a fiscal or reporting year "1984/1985", "1991-92": the second year follows the first
    first, second = re.split(r"[/\-]", t)
    return int(second[-2:]) == (int(first) + 1) % 100


def _month_capitalised(t: str) -> bool:
    # "may 2024" in running text is rarely a date; real date month names are capitalised
    return t[:1].isupper()


def _email(t: str) -> bool:
    local, _, domain = t.replace(" ", "").partition("@")
    return bool(local) and "." in domain and not domain.startswith(".")


# Three figures over three are two numbers, not one identifier: a fax header's page counter
# ("P.002/003": page 2 of 3) or a pair compared in a test ("627/647" and "647/627").
# Identifiers written with a slash split it unevenly ("4162/158", "2023/00456").
_PAIR = re.compile(r"\d{3}/\d{3}")


def _long_number(t: str) -> bool:
    d = re.sub(r"\D", "", t)
    # a month and its year ("04/2014": a form's revision, an expiry) is no identifier
    return len(d) >= 6 and len(set(d)) > 1 and not _PAIR.fullmatch(t.strip()) and \
        not re.fullmatch(r"(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}", t.strip())


def table_row_with_ratio(t: str) -> bool:
    """Whether the digits of a long-number match are a table row with a ratio in it: an
    identifier printed in groups keeps one separator; a slash beside spaces or dashes is a
    fraction ("10  2160  0/6": a dose group, its dose, deaths out of six). Asked of what
    is left of a match once other rules claimed their cells (a date's slashes are the date
    rule's)."""
    seps = set(re.findall(r"[^\dA-Za-z]", t.strip()))
    return "/" in seps and len(seps) > 1


def _alnum_code(t: str) -> bool:
    # letters and digits mixed; pure numbers are the other rule's, pure words are no code
    return any(c.isalpha() for c in t) and sum(c.isdigit() for c in t) >= 5 and len(t) >= 6


VALIDATORS: dict[str, Callable[[str], bool]] = {
    "card": _card, "ssn": _ssn, "ein": _ein, "aba": _aba, "iban": _iban, "ipv4": _ipv4,
    "ipv4_misread": _ipv4_misread,
    "phone_nanp": _phone_nanp, "phone_intl": _phone_intl, "phone_national": _phone_national,
    "date_numeric": _date_numeric, "date_numeric_misread": _date_numeric_misread,
    "month_capitalised": _month_capitalised, "email": _email,
    "date_time": _date_time, "date_range": _date_range, "weekday_date": _weekday_date,
    "month_capitalised_inside": _month_capitalised_inside, "year_span": _year_span,
    "long_number": _long_number, "alnum_code": _alnum_code,
}


def check_validators(patterns: tuple[Pattern, ...]) -> None:
    for p in patterns:
        if p.validate and p.validate not in VALIDATORS:
            raise ValueError(f"pattern {p.rule!r} names unknown validator {p.validate!r}")


def find_pattern_hits(text: str, patterns: tuple[Pattern, ...]) -> list[Hit]:
    """Every validated match of every pattern (matches may overlap; merging decides)."""
    hits: list[Hit] = []
    for p in patterns:
        for m in p.regex.finditer(text):
            start, end = m.span(p.group) if p.group else m.span()
            start, end = trim(text, start, end, " \n\t,;:")
            if end <= start:
                continue
            value = text[start:end]
            if "\n" in value and p.rule not in ("address_block",):
                continue   # a number's parts on two lines are two things
            if p.validate and not VALIDATORS[p.validate](value):
                continue
            hits.append(Hit(p.rule, start, end, p.score))
    return hits
