"""Check digits and structural rules of identifiers (Luhn, SSN, IBAN, ABA, EIN), applied to
an OCR-normalised form of the matched text."""
from __future__ import annotations

import re

# Characters OCR commonly reads in place of a digit, and the digit meant.
OCR_DIGIT_CONFUSIONS = str.maketrans({"O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1",
                                      "|": "1", "i": "1", "S": "5", "s": "5", "$": "5", "B": "8", "Z": "2",
                                      "z": "2", "G": "6", "g": "9", "¢": "6"})


def ocr_digits(text: str) -> str:
    """The digits of ``text`` after undoing common OCR confusions (O->0, l->1, S->5, ...);
    separators and other characters are dropped."""
    return re.sub(r"\D", "", text.translate(OCR_DIGIT_CONFUSIONS))


def real_digit_share(text: str) -> float:
    """Share of true digits among the digit-like characters of ``text``: low values mean the
    'number' is mostly letters read as digits, i.e. probably a word."""
    digitish = sum(1 for c in text if c.isdigit() or c in "OoDQIl|iSs$BZzGg¢")
    return sum(1 for c in text if c.isdigit()) / digitish if digitish else 0.0


def luhn_valid(digits: str) -> bool:
    if not digits.isdigit() or len(digits) < 2:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_valid(digits: str) -> bool:
    """A payment card number: 13-19 digits, a known issuer prefix digit, Luhn-valid, not a
    run of one repeated digit."""
    return (13 <= len(digits) <= 19 and digits[0] in "2345689" and len(set(digits)) > 1
            and luhn_valid(digits))


def ssn_valid(digits: str) -> bool:
    """US SSN structure: area not 000, 666 or 900-999; group not 00; serial not 0000."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9":
        return False
    if group == "00" or serial == "0000":
        return False
    return digits not in ("123456789", "078051120", "219099999")   # famous invalid/sample SSNs


# Campus prefixes the IRS assigns to EINs.
_EIN_PREFIXES = frozenset(
    [f"{n:02d}" for n in list(range(1, 7)) + list(range(10, 17)) + list(range(20, 28))
     + list(range(30, 49)) + list(range(50, 69)) + list(range(71, 78)) + list(range(80, 89))
     + list(range(90, 96)) + [98, 99]])


def ein_valid(digits: str) -> bool:
    return len(digits) == 9 and digits.isdigit() and digits[:2] in _EIN_PREFIXES


# IBAN lengths per country (ISO 13616 registry, common countries).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AT": 20, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21,
    "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "HR": 21, "HU": 28, "IE": 22, "IL": 23,
    "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MT": 31, "MU": 30, "NL": 18, "NO": 15,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24,
    "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}


def iban_valid(text: str) -> bool:
    """ISO 13616: country length where known, then mod-97 of the rearranged number == 1."""
    iban = re.sub(r"[\s\-]", "", text).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


def aba_valid(digits: str) -> bool:
    """ABA routing number: 9 digits, a Federal Reserve prefix, weighted checksum 3-7-1."""
    if len(digits) != 9 or not digits.isdigit() or len(set(digits)) == 1:
        return False
    prefix = int(digits[:2])
    if not (prefix <= 12 or 21 <= prefix <= 32 or 61 <= prefix <= 72 or prefix == 80):
        return False
    d = [int(c) for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 == 0


def ipv4_valid(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 and (p == "0" or not p.startswith("0"))
                                   for p in parts)
