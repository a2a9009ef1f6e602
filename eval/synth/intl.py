"""Values of organisations and people outside the US, written the way each country writes
them: postal addresses (postcode placement, upper-case post towns), telephone numbers
(national and international forms), company registration and tax numbers (BUSINESS_ID)
and legal-form suffixes on organisation names.

Countries: the UK, Canada, Australia, India, Malaysia, Singapore, Germany and France.
Street, town and person names come from Faker's locale providers (en_GB, en_CA, en_AU,
en_IN, en_MS, de_DE, fr_FR); the number formats are drawn here from the page's rng so that
their shapes are exact and testable (check digits of ABN, ACN and GSTIN are valid)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

import numpy as np
from faker import Faker

from redactor_eval.synth.values import Address, Org, Person, ValueMaker, pick

COUNTRIES = ("GB", "CA", "AU", "IN", "MY", "SG", "DE", "FR")
LOCALES = {
    "GB": "en_GB",
    "CA": "en_CA",
    "AU": "en_AU",
    "IN": "en_IN",
    "MY": "en_MS",
    "SG": "en_MS",
    "DE": "de_DE",
    "FR": "fr_FR",
}
COUNTRY_NAMES = {
    "US": ("U.S.A.", "USA", "United States"),
    "GB": ("UNITED KINGDOM", "United Kingdom", "England", "U.K."),
    "CA": ("CANADA", "Canada"),
    "AU": ("AUSTRALIA", "Australia"),
    "IN": ("INDIA", "India"),
    "MY": ("MALAYSIA", "Malaysia"),
    "SG": ("SINGAPORE", "Republic of Singapore"),
    "DE": ("GERMANY", "Germany", "Federal Republic of Germany"),
    "FR": ("FRANCE", "France"),
}
# legal forms written after an organisation's name
LEGAL_FORMS = {
    "US": ("Inc.", "LLC", "LLP", "Corp.", "Co."),
    "GB": ("Ltd", "Limited", "PLC", "LLP", "Ltd."),
    "CA": ("Inc.", "Ltd.", "Limited", "Corp.", "LLP"),
    "AU": ("Pty Ltd", "Pty. Ltd.", "Pty Limited", "Ltd"),
    "IN": ("Pvt. Ltd.", "Private Limited", "Ltd.", "LLP"),
    "MY": ("Sdn Bhd", "Sdn. Bhd.", "Berhad", "Bhd"),
    "SG": ("Pte Ltd", "Pte. Ltd.", "LLP"),
    "DE": ("GmbH", "AG", "GmbH & Co. KG"),
    "FR": ("S.A.", "S.A.S.", "S.A.R.L."),
}
INDUSTRY = (
    "Trading",
    "Holdings",
    "Engineering",
    "Consultants",
    "Industries",
    "Imports",
    "Marketing",
    "Shipping",
    "Properties",
    "Tobacco",
    "Leaf",
    "Packaging",
    "Distributors",
    "Communications",
)
INDUSTRY_DE = ("Handels", "Technik", "Verpackung", "Vertrieb", "Tabak", "Beratungs")
INDUSTRY_FR = ("Distribution", "Industries", "Conseil", "Emballage", "Tabacs", "Import-Export")
TLD = {
    "US": "com",
    "GB": "co.uk",
    "CA": "ca",
    "AU": "com.au",
    "IN": "co.in",
    "MY": "com.my",
    "SG": "com.sg",
    "DE": "de",
    "FR": "fr",
}

# city prefixes of fixed-line numbers: (area code, subscriber digits grouped)
GB_AREAS = (
    ("20", (4, 4)),
    ("161", (3, 4)),
    ("121", (3, 4)),
    ("131", (3, 4)),
    ("117", (3, 4)),
    ("1632", (6,)),
)
AU_AREAS = ("2", "3", "7", "8")
IN_AREAS = (("22", (4, 4)), ("11", (4, 4)), ("80", (4, 4)), ("44", (4, 4)), ("33", (4, 4)))
CA_AREAS = (416, 604, 514, 613, 403, 902, 905, 780)
DE_AREAS = ("30", "89", "40", "69", "211", "221")
FR_AREAS = ("1", "2", "3", "4", "5")
AU_STATES = ("NSW", "VIC", "QLD", "WA", "SA", "TAS", "ACT", "NT")
CA_PROVINCES = ("ON", "QC", "BC", "AB", "MB", "NS", "SK", "NB")

_FAKERS: dict[str, Faker] = {}


def locale_faker(country: str, seed: int) -> Faker:
    loc = LOCALES[country]
    if loc not in _FAKERS:
        _FAKERS[loc] = Faker(loc)
    f = _FAKERS[loc]
    f.seed_instance(seed)
    return f


@dataclass
class IntlAddress(Address):
    """A postal address in its country's line order (``lines_`` as printed)."""

    lines_: list[str] = field(default_factory=list)
    country: str = "US"

    def lines(self) -> list[str]:
        return list(self.lines_)

    def one_line(self) -> str:
        return ", ".join(self.lines_)


# -- check digits --------------------------------------------------------------------------
def abn_valid(abn: str) -> bool:
    d = [int(c) for c in re.sub(r"\D", "", abn)]
    if len(d) != 11:
        return False
    d[0] -= 1
    w = (10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
    return sum(a * b for a, b in zip(d, w)) % 89 == 0


def acn_check(d8: str) -> int:
    s = sum(int(c) * w for c, w in zip(d8, (8, 7, 6, 5, 4, 3, 2, 1)))
    return (10 - s % 10) % 10


_B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def gstin_check(first14: str) -> str:
    s = 0
    for i, ch in enumerate(first14):
        v = _B36.index(ch) * (1 if i % 2 == 0 else 2)
        s += v // 36 + v % 36
    return _B36[(36 - s % 36) % 36]


# shapes of the BUSINESS_ID values (tests and docs use them)
BUSINESS_ID_SHAPES = {
    "GB": (r"\d{8}", r"SC\d{6}", r"GB ?\d{3} ?\d{4} ?\d{2}"),
    "CA": (r"\d{9} RT\d{4}", r"\d{5} \d{4} RT\d{4}"),
    "AU": (r"\d{2} \d{3} \d{3} \d{3}", r"\d{3} \d{3} \d{3}"),
    "IN": (r"\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]", r"[LU]\d{5}[A-Z]{2}\d{4}(PTC|PLC)\d{6}"),
    "MY": (r"\(\d{6}-[A-Z]\)", r"\d{12} \(\d{6,7}-[A-Z]\)", r"[A-Z]\d{2}-\d{4}-\d{8}"),
    "SG": (r"\d{9}[A-Z]", r"\d{8}[A-Z]", r"M\d-\d{7}-\d"),
    "DE": (r"HRB \d{4,6}", r"DE ?\d{9}", r"\d{3}/\d{3}/\d{5}"),
    "FR": (
        r"\d{3} \d{3} \d{3}",
        r"\d{3} \d{3} \d{3} \d{5}",
        r"FR ?\d{2} ?\d{9}",
        r"RCS [A-Z][a-z]+ B \d{3} \d{3} \d{3}",
    ),
    "US": (r"\d{2}-\d{7}",),
}
POSTCODE_SHAPES = {
    "GB": r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}",
    "CA": r"[A-Z]{2}  [A-Z]\d[A-Z] \d[A-Z]\d",
    "AU": r"[A-Z]{2,3} \d{4}",
    "IN": r"\b\d{6}\b",
    "MY": r"(^|\n)\d{5} ",
    "SG": r"Singapore \d{6}",
    "DE": r"(^|\n)\d{5} ",
    "FR": r"(^|\n)\d{5} [A-Z]",
}


class IntlValueMaker(ValueMaker):
    """A ValueMaker whose organisations, people, addresses, phones, dates and business ids
    belong to ``country`` (one of COUNTRIES); everything else as in the US maker."""

    def __init__(self, fake: Faker, rng: np.random.Generator, country: str):
        super().__init__(fake, rng)
        self.country = country
        self.lf = locale_faker(country, int(rng.integers(0, 2**31)))

    # -- people and places -----------------------------------------------------------------
    def person(self) -> Person:
        f = self.lf
        female = self.rng.random() < 0.45
        first = f.first_name_female() if female else f.first_name_male()
        last = f.last_name()
        if self.country == "MY" and self.rng.random() < 0.4:
            first, last = pick(self.rng, ("Ahmad", "Siti", "Lim", "Tan", "Wong", "Nurul")), f.last_name()
        prefix = pick(self.rng, ("Ms.", "Mrs.", "Dr.") if female else ("Mr.", "Mr.", "Dr."))
        if self.country in ("GB", "AU", "SG", "MY"):
            prefix = prefix.rstrip(".")
        return Person(first, last, self.fake.random_uppercase_letter(), prefix, self.fake.job())

    def _n(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def address(self) -> IntlAddress:
        f, r, c = self.lf, self.rng, self.country
        if c == "GB":
            pc = f.postcode().upper()
            town = f.city().upper()
            street = f"{self._n(1, 240)} {f.street_name()}"
            lines = [street, town, pc] if r.random() < 0.6 else [street, f"{town} {pc}"]
        elif c == "CA":
            pc = re.sub(r"\s", "", f.postalcode())
            lines = [
                f"{self._n(10, 9999)} {f.street_name()}",
                f"{f.city()} {pick(r, CA_PROVINCES)}  {pc[:3]} {pc[3:]}",
            ]
        elif c == "AU":
            unit = f"Level {self._n(1, 30)}, " if r.random() < 0.3 else ""
            lines = [
                f"{unit}{self._n(1, 400)} {f.street_name()}",
                f"{f.city().upper()} {pick(r, AU_STATES)} {self._n(800, 7999):04d}",
            ]
        elif c == "IN":
            street = f.street_address().replace("\n", ", ")
            pin = f"{self._n(110001, 855999)}"
            city = f.city()
            lines = [street, pick(r, (f"{city} - {pin}", f"{city} {pin}")), f.state()]
        elif c == "MY":
            lines = [
                f"No. {self._n(1, 120)}, Jalan {f.last_name()} {self._n(1, 30)}/{self._n(1, 20)}",
                f"{self._n(10000, 98999):05d} {f.city()}",
                f.state(),
            ]
        elif c == "SG":
            lines = [
                f"{self._n(1, 400)} {f.street_name()}",
                f"#{self._n(2, 40):02d}-{self._n(1, 30):02d} {f.last_name()} "
                + pick(r, ("Centre", "Building", "Tower", "Plaza")),
                f"Singapore {self._n(18900, 829999):06d}",
            ]
        elif c == "DE":
            lines = [f"{f.street_name()} {self._n(1, 180)}", f"{self._n(1067, 99998):05d} {f.city()}"]
        else:  # FR
            lines = [
                f"{self._n(1, 180)}, {f.street_name()}",
                f"{self._n(1000, 95999):05d} {f.city().upper()}",
            ]
        if r.random() < 0.4:
            lines.append(pick(r, COUNTRY_NAMES[c]))
        return IntlAddress(lines[0], "", "", "", lines_=lines, country=c)

    def org_name(self) -> str:
        f, r, c = self.lf, self.rng, self.country
        form = pick(r, LEGAL_FORMS[c])
        kind = int(r.integers(0, 3))
        if c == "DE":
            base = pick(r, (f"{f.last_name()} {pick(r, INDUSTRY_DE)}", f"{f.last_name()} & {f.last_name()}"))
        elif c == "FR":
            base = pick(r, (f"{f.last_name()} {pick(r, INDUSTRY_FR)}", f"{f.last_name()} et Fils"))
        elif kind == 0 and form in ("LLP",):
            base = f"{f.last_name()} {f.last_name()} & {f.last_name()}"
        elif kind == 1:
            base = f"{f.city()} {pick(r, INDUSTRY)}"
        else:
            base = f"{f.last_name()} {pick(r, INDUSTRY)}"
        return f"{base} {form}"

    def org(self) -> Org:
        name = self.org_name()
        slug = re.sub(r"[^a-z]", "", name.lower().split()[0]) or "mail"
        return Org(name, self.address(), self.phone(), self.phone(), f"{slug}.{TLD[self.country]}")

    def location(self) -> str:
        f = self.lf
        return pick(
            self.rng,
            (f"{f.city()}, {COUNTRY_NAMES[self.country][1]}", f.city(), COUNTRY_NAMES[self.country][1]),
        )

    # -- telephone -------------------------------------------------------------------------
    def phone(self, style: int | None = None) -> str:
        s = self.phone_style if style is None else style
        d, c, r = self.digits, self.country, self.rng
        if c == "GB":
            area, groups = pick(r, GB_AREAS)
            sub = " ".join(d(g) for g in groups)
            mobile = f"7{d(3)} {d(6)}"
            forms = (
                f"+44 {area} {sub}",
                f"0{area} {sub}",
                f"+44 (0){area} {sub}",
                f"0{mobile}",
                f"+44 {mobile}",
                f"(0{area}) {sub}",
            )
        elif c == "CA":
            a = pick(r, CA_AREAS)
            ex, n = self._n(200, 999), d(4)
            forms = (
                f"({a}) {ex}-{n}",
                f"{a}-{ex}-{n}",
                f"+1 {a} {ex} {n}",
                f"{a}.{ex}.{n}",
                f"1-{a}-{ex}-{n}",
                f"({a}) {ex}-{n}",
            )
        elif c == "AU":
            a = pick(r, AU_AREAS)
            sub = f"{d(4)} {d(4)}"
            m = f"4{d(2)} {d(3)} {d(3)}"
            forms = (
                f"({0}{a}) {sub}",
                f"+61 {a} {sub}",
                f"0{a} {sub}",
                f"0{m}",
                f"+61 {m}",
                f"+61 (0){a} {sub}",
            )
        elif c == "IN":
            a, _ = pick(r, IN_AREAS)
            sub = f"{d(4)} {d(4)}"
            m = f"9{d(4)} {d(5)}"
            forms = (f"+91 {a} {sub}", f"0{a}-{sub}", f"+91-{a}-{d(8)}", f"+91 {m}", f"0{m}", f"({a}) {sub}")
        elif c == "MY":
            sub = f"{d(4)} {d(4)}"
            m = f"1{self._n(2, 9)}-{d(3)} {d(4)}"
            forms = (f"+60 3-{sub}", f"03-{sub}", f"+603 {sub}", f"+60 {m}", f"0{m}", f"+60 3 {sub}")
        elif c == "SG":
            forms = (
                f"+65 6{d(3)} {d(4)}",
                f"6{d(3)} {d(4)}",
                f"(65) 6{d(3)} {d(4)}",
                f"+65 9{d(3)} {d(4)}",
                f"+65-6{d(3)}-{d(4)}",
                f"+65 6{d(7)}",
            )
        elif c == "DE":
            a = pick(r, DE_AREAS)
            forms = (
                f"+49 {a} {d(8 - len(a) + 2)}",
                f"0{a} {d(7)}",
                f"+49 (0){a} {d(7)}",
                f"0{a}/{d(7)}",
                f"+49 {a} {d(6)}-0",
                f"0{a} {d(3)} {d(4)}",
            )
        else:  # FR
            a = pick(r, FR_AREAS)
            p = [d(2) for _ in range(4)]
            forms = (
                f"+33 {a} {' '.join(p)}",
                f"0{a} {' '.join(p)}",
                f"+33 (0){a} {' '.join(p)}",
                f"0{a}.{'.'.join(p)}",
                f"+33 (0) {a} {' '.join(p)}",
                f"0{a} {' '.join(p)}",
            )
        return forms[s % len(forms)]

    # -- dates: day before month outside North America ------------------------------------
    def date(self, style: int | None = None, d: dt.date | None = None) -> str:
        if self.country == "CA":
            return super().date(style, d)
        d = d or self.date_obj()
        s = self.date_style if style is None else style
        forms = (
            f"{d.day:02d}/{d.month:02d}/{d.year}",
            f"{d.day} {d.strftime('%B')} {d.year}",
            f"{d.day}/{d.month}/{d.year % 100:02d}",
            f"{d.day} {d.strftime('%b')} {d.year}",
            (
                f"{d.day:02d}.{d.month:02d}.{d.year}"
                if self.country == "DE"
                else f"{d.day:02d}-{d.month:02d}-{d.year}"
            ),
            f"{d.day}{_ordinal(d.day)} {d.strftime('%B')} {d.year}",
        )
        return forms[s % len(forms)]

    # -- business ids ----------------------------------------------------------------------
    def business_id(self) -> str:
        return self.business_id_labeled()[1]

    def business_id_labeled(self) -> tuple[str, str]:
        """(label as printed, value) of a registration or tax number of an organisation."""
        return business_id_for(self, self.country)


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def business_id_for(v: ValueMaker, country: str) -> tuple[str, str]:
    """(label, value) of a company registration / tax number in ``country``'s format."""
    d, r = v.digits, v.rng
    kind = int(r.integers(0, 3))
    if country == "GB":
        if kind == 0:
            return pick(r, ("Company No.", "Registered in England No.", "Reg. No.")), pick(
                r, (d(8), "0" + d(7))
            )
        if kind == 1:
            return "Registered in Scotland No.", f"SC{d(6)}"
        return pick(r, ("VAT Reg. No.", "VAT No.")), pick(r, (f"GB {d(3)} {d(4)} {d(2)}", f"GB{d(9)}"))
    if country == "CA":
        return pick(r, ("BN", "Business No.", "GST/HST No.")), pick(
            r, (f"{d(9)} RT0001", f"{d(5)} {d(4)} RT{d(4)}")
        )
    if country == "AU":
        if kind < 2:
            body = d(9)
            for pre in range(10, 100):
                if abn_valid(f"{pre}{body}"):
                    break
            else:  # no prefix fits this body (rare): a known-valid body
                pre, body = 51, "824753556"
            s = f"{pre}{body}"
            return pick(r, ("ABN", "A.B.N.", "ABN:")), f"{s[:2]} {s[2:5]} {s[5:8]} {s[8:]}"
        d8 = d(8)
        s = d8 + str(acn_check(d8))
        return pick(r, ("ACN", "A.C.N.")), f"{s[:3]} {s[3:6]} {s[6:]}"
    if country == "IN":
        if kind < 2:
            state = f"{int(r.integers(1, 38)):02d}"
            pan = v.letters(3) + pick(r, ("C", "F", "P")) + v.letters(1) + d(4) + v.letters(1)
            head = state + pan + pick(r, list("123456789"))
            first14 = head + "Z"
            return pick(r, ("GSTIN", "GSTIN:", "GST No.")), first14 + gstin_check(first14)
        return (
            "CIN",
            pick(r, ("U", "L"))
            + d(5)
            + pick(r, ("MH", "KA", "DL", "TN", "WB"))
            + str(int(r.integers(1956, 2020)))
            + pick(r, ("PTC", "PLC"))
            + d(6),
        )
    if country == "MY":
        if kind == 0:
            return "", f"({d(6)}-{v.letters(1)})"
        if kind == 1:
            return (
                pick(r, ("Company No.", "Co. Reg. No.")),
                f"{int(r.integers(1990, 2024))}{pick(r, ('01', '02', '03'))}{d(6)} ({d(6)}-{v.letters(1)})",
            )
        return "SST No.", f"{v.letters(1)}{d(2)}-{d(4)}-{d(8)}"
    if country == "SG":
        if kind == 0:
            return (
                pick(r, ("UEN", "Co. Reg. No.", "UEN:")),
                f"{int(r.integers(1970, 2024))}{d(5)}{v.letters(1)}",
            )
        if kind == 1:
            return pick(r, ("UEN", "Business Reg. No.")), f"{d(8)}{v.letters(1)}"
        return "GST Reg. No.", f"M{d(1)}-{d(7)}-{d(1)}"
    if country == "DE":
        if kind == 0:
            return (
                pick(r, ("Amtsgericht Berlin", "Handelsregister:", "Registergericht Köln")),
                f"HRB {d(int(r.integers(4, 7)))}",
            )
        if kind == 1:
            return pick(r, ("USt-IdNr.", "USt-ID:", "VAT ID")), pick(r, (f"DE{d(9)}", f"DE {d(9)}"))
        return "Steuernummer", f"{d(3)}/{d(3)}/{d(5)}"
    if country == "FR":
        siren = f"{d(3)} {d(3)} {d(3)}"
        if kind == 0:
            return pick(r, ("SIREN", "SIREN :")), siren
        if kind == 1:
            return "SIRET", f"{siren} {d(5)}"
        return pick(r, ("TVA intracom.", "N° TVA", "VAT No.")), pick(
            r, (f"FR {d(2)} {d(9)}", f"FR{d(2)}{d(9)}")
        )
    return pick(r, ("EIN", "FEIN:", "Tax ID:")), f"{d(2)}-{d(7)}"


def org_name(v: ValueMaker) -> str:
    """An organisation name with a legal form: the country's own for an IntlValueMaker,
    an American one (Inc., LLC, ...) otherwise."""
    if isinstance(v, IntlValueMaker):
        return v.org_name()
    return f"{v.fake.last_name()} {pick(v.rng, INDUSTRY)} {pick(v.rng, LEGAL_FORMS['US'])}"


def value_maker(fake: Faker, rng: np.random.Generator, country: str) -> ValueMaker:
    """The US maker for ``"US"``, otherwise an IntlValueMaker."""
    return ValueMaker(fake, rng) if country == "US" else IntlValueMaker(fake, rng, country)
