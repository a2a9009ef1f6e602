"""Fake personal values per fine type (Faker, seeded per page) in the many surface forms
real documents use, the label styles printed in front of them, and distractors that look
like identifiers but are not personal data (product codes, amounts, page numbers)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
from faker import Faker


def pick(rng: np.random.Generator, seq, p=None):
    """One element of ``seq`` (a plain Python object, not a numpy scalar)."""
    if p is not None:
        p = np.asarray(p, dtype=float)
        p = p / p.sum()
    return seq[int(rng.choice(len(seq), p=p))]


LABELS: dict[str, tuple[str, ...]] = {
    "PHONE": (
        "Tel.",
        "Tel:",
        "Phone:",
        "Ph.",
        "Telephone:",
        "Phone No.",
        "Tel. No.",
        "T:",
        "Office:",
        "Direct:",
        "Mobile:",
        "Cell:",
    ),
    "FAX": ("Fax:", "Fax No.", "FAX", "F:", "Facsimile:", "Fax #"),
    "EMAIL": ("E-mail:", "Email:", "e-mail", "E:", "Mail:"),
    "WEB": ("Web:", "www", "Website:", "URL:"),
    "ACCOUNT_NUMBER": (
        "Acct #",
        "Account No.",
        "Account Number:",
        "A/C No.",
        "Customer No.",
        "Cust. #",
        "Customer ID:",
        "Acct. No.:",
    ),
    "POLICY": ("Policy No.", "Policy #", "Policy Number:", "Pol. No."),
    "LOAN": ("Loan No.", "Loan #", "Loan Number:"),
    "SSN": ("SSN", "SSN:", "Social Security No.", "S.S. #", "Soc. Sec. No.", "SS#"),
    "EMPLOYEE_ID": ("Employee ID:", "Emp. No.", "Employee #", "Badge No."),
    "LICENSE": ("Driver's Lic. #", "DL No.", "Driver License No."),
    "PASSPORT": ("Passport No.", "Passport #"),
    "MEMBER_ID": ("Member ID:", "Member No.", "Subscriber ID:", "ID #"),
    "CARD_NUMBER": ("Card No.", "Credit Card #", "CC#", "Card Number:", "Visa/MC #", "Acct (card) No."),
    "INVOICE": ("Invoice #", "Invoice No.", "INVOICE NO.", "Invoice Number:", "Inv. #"),
    "ORDER": ("Order No.", "Order #", "P.O. #", "PO Number:", "Purchase Order:", "P.O. No."),
    "REF": ("Ref:", "Our Ref.", "Your Ref.", "Reference No.", "Re:"),
    "CASE": ("Case No.", "Claim No.", "File No.", "Matter No.", "Claim #"),
    "CONTRACT": ("Contract #", "Contract No.", "Agreement No."),
    "ESTIMATE": ("Estimate #", "Est. No.", "Estimate No."),
    "BUSINESS_ID": ("EIN", "Tax ID:", "FEIN:", "Fed. Tax ID #", "TIN:", "DUNS No."),
    "LICENSE_BIZ": ("License No.", "Lic. #", "Contractor Lic."),
    "DATE": ("Date:", "Dated:", "DATE", "Date"),
    "DOB": ("DOB:", "Date of Birth", "Birth Date:", "D.O.B."),
}


ORG_SUFFIXES = (
    "Associates",
    "Marketing",
    "Printing Co.",
    "Media Group",
    "Supply Inc.",
    "Broadcasting",
    "Research Corp.",
    "Advertising",
    "Insurance Agency",
    "Consulting",
)


@dataclass
class Person:
    first: str
    last: str
    middle: str
    prefix: str
    title: str  # job title, not personal data

    def full(self, style: int = 0) -> str:
        if style == 1:
            return f"{self.first} {self.middle}. {self.last}"
        if style == 2:
            return f"{self.last}, {self.first}"
        if style == 3:
            return f"{self.first[0]}. {self.last}"
        return f"{self.first} {self.last}"


@dataclass
class Address:
    street: str
    city: str
    state: str
    zip: str

    def lines(self) -> list[str]:
        return [self.street, f"{self.city}, {self.state} {self.zip}"]

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


@dataclass
class Org:
    name: str
    address: Address
    phone: str
    fax: str
    domain: str


class ValueMaker:
    """All fake values of one page; seeded from the page's seed so a page is reproducible."""

    def __init__(self, fake: Faker, rng: np.random.Generator):
        self.fake = fake
        self.rng = rng
        self.phone_style = int(rng.integers(0, 6))
        self.date_style = int(rng.integers(0, 6))
        self.year_base = int(rng.integers(1978, 2024))

    # -- people and places ---------------------------------------------------------------
    def person(self) -> Person:
        f = self.fake
        female = self.rng.random() < 0.45
        first = f.first_name_female() if female else f.first_name_male()
        prefix = pick(self.rng, ("Ms.", "Mrs.", "Dr.") if female else ("Mr.", "Mr.", "Dr."))
        return Person(first, f.last_name(), f.random_uppercase_letter(), prefix, f.job())

    def address(self) -> Address:
        f = self.fake
        street = f.street_address()
        if self.rng.random() < 0.15:
            street = f"P.O. Box {int(self.rng.integers(10, 99999))}"
        return Address(
            street,
            f.city(),
            f.state_abbr(include_territories=False, include_freely_associated_states=False),
            f.zipcode(),
        )

    def org(self) -> Org:
        f = self.fake
        name = f.company()
        if self.rng.random() < 0.35:
            name = f"{f.last_name()} {pick(self.rng, ORG_SUFFIXES)}"
        domain = f.domain_name()
        return Org(name, self.address(), self.phone(), self.phone(), domain)

    def location(self) -> str:
        f = self.fake
        return pick(
            self.rng,
            (
                f"{f.city()}, {self.state()}",
                f.city(),
                f.state(),
                f"{f.city()}, {f.state()}",
            ),
        )

    # -- contact -------------------------------------------------------------------------
    def phone(self, style: int | None = None) -> str:
        r = self.rng
        area = int(r.integers(201, 990))
        ex = int(r.integers(200, 999))
        num = int(r.integers(0, 10000))
        s = self.phone_style if style is None else style
        forms = (
            f"({area}) {ex}-{num:04d}",
            f"{area}-{ex}-{num:04d}",
            f"{area}.{ex}.{num:04d}",
            f"({area}){ex}-{num:04d}",
            f"{area}/{ex}-{num:04d}",
            f"+1 {area} {ex} {num:04d}",
        )
        out = forms[s % len(forms)]
        if r.random() < 0.08:
            out += f" x{int(r.integers(10, 9999))}"
        return out

    def email(self, person: Person | None = None, domain: str | None = None) -> str:
        if person is None:
            return self.fake.email()
        domain = domain or self.fake.free_email_domain()
        local = pick(
            self.rng,
            (
                f"{person.first[0]}{person.last}",
                f"{person.first}.{person.last}",
                f"{person.first}{person.last[0]}",
                f"{person.first[0]}{person.middle}{person.last}",
            ),
        )
        return f"{local.lower()}@{domain}"

    def web(self, domain: str) -> str:
        return pick(self.rng, (f"www.{domain}", f"http://www.{domain}", f"https://{domain}/", domain))

    def username(self) -> str:
        return self.fake.user_name()

    def ip(self) -> str:
        return self.fake.ipv4_public()

    def state(self) -> str:
        return self.fake.state_abbr(include_territories=False, include_freely_associated_states=False)

    # -- numbers -------------------------------------------------------------------------
    def letters(self, n: int) -> str:
        return "".join(self.fake.random_uppercase_letter() for _ in range(n))

    def digits(self, n: int) -> str:
        return "".join(str(int(d)) for d in self.rng.integers(0, 10, n))

    def account(self) -> str:
        r = self.rng
        return pick(
            r,
            (
                self.digits(10),
                f"{self.digits(4)}-{self.digits(6)}",
                f"{self.digits(3)}-{self.digits(5)}-{self.digits(2)}",
                f"{self.fake.random_uppercase_letter()}{self.digits(8)}",
                self.digits(8),
                f"{self.digits(6)}-{self.digits(3)}",
            ),
        )

    def bank_account(self) -> str:
        return self.digits(int(self.rng.integers(8, 13)))

    def routing(self) -> str:
        return self.fake.aba()

    def policy(self) -> str:
        f = self.fake
        return pick(
            self.rng,
            (
                f"{f.random_uppercase_letter()}{f.random_uppercase_letter()}{self.digits(7)}",
                f"{self.digits(3)}-{self.digits(4)}-{self.digits(3)}",
                f"P{self.digits(9)}",
            ),
        )

    def ssn(self) -> str:
        return (
            f"{self.digits(3)}-{self.digits(2)}-{self.digits(4)}"
            if self.rng.random() < 0.85
            else f"{self.digits(3)} {self.digits(2)} {self.digits(4)}"
        )

    def employee_id(self) -> str:
        return pick(self.rng, (self.digits(6), f"E{self.digits(5)}", f"{self.digits(3)}-{self.digits(4)}"))

    def license(self) -> str:
        f = self.fake
        return (
            f"{f.random_uppercase_letter()}{self.digits(3)}-{self.digits(4)}-{self.digits(4)}"
            if self.rng.random() < 0.5
            else f"{f.random_uppercase_letter()}{self.digits(7)}"
        )

    def passport(self) -> str:
        return self.fake.passport_number()

    def member_id(self) -> str:
        return f"{self.letters(3)}{self.digits(9)}"

    def card(self) -> str:
        r = self.rng
        brand = pick(r, ("visa", "mc", "amex", "disc"))
        if brand == "amex":
            d = "3" + pick(r, ("4", "7")) + self.digits(13)
            groups = (d[:4], d[4:10], d[10:])
        else:
            head = {"visa": "4", "mc": "5" + str(int(r.integers(1, 6))), "disc": "6011"}[brand]
            d = head + self.digits(16 - len(head))
            groups = (d[:4], d[4:8], d[8:12], d[12:])
        sep = pick(r, (" ", "-", " ", ""))
        return sep.join(groups)

    def card_expiry(self) -> str:
        year = (self.year_base + int(self.rng.integers(1, 5))) % 100
        return f"{int(self.rng.integers(1, 13)):02d}/{year:02d}"

    def invoice_no(self) -> str:
        return pick(
            self.rng,
            (
                self.digits(6),
                f"INV-{self.digits(5)}",
                f"{self.digits(2)}-{self.digits(5)}",
                f"{self.fake.random_uppercase_letter()}{self.digits(6)}",
                self.digits(5),
            ),
        )

    def order_no(self) -> str:
        return pick(
            self.rng,
            (
                f"PO-{self.digits(6)}",
                self.digits(7),
                f"{self.digits(4)}-{self.digits(3)}",
                f"{self.fake.random_uppercase_letter()}{self.fake.random_uppercase_letter()}{self.digits(5)}",
            ),
        )

    def case_no(self) -> str:
        return pick(
            self.rng,
            (
                f"{self.digits(2)}-{self.digits(5)}",
                f"CV-{self.digits(2)}-{self.digits(4)}",
                f"{self.digits(4)}-{self.digits(6)}",
                f"CLM{self.digits(7)}",
            ),
        )

    def contract_no(self) -> str:
        return pick(self.rng, (self.digits(6), f"{self.digits(5)}-{self.digits(2)}", f"C{self.digits(7)}"))

    def fcc_file_no(self) -> str:
        year = self.year()
        prefix = pick(self.rng, ("BRCT", "BLCDT", "BR", "BTCCDT", "BALH", "BRH"))
        month, day = int(self.rng.integers(1, 13)), int(self.rng.integers(1, 29))
        return f"{prefix}-{year}{month:02d}{day:02d}{self.letters(3)}"

    def ein(self) -> str:
        return f"{self.digits(2)}-{self.digits(7)}"

    def business_id(self) -> str:
        return pick(
            self.rng,
            (self.ein(), f"{self.digits(2)}-{self.digits(7)}", f"DUNS {self.digits(9)}", f"{self.digits(9)}"),
        )

    def call_sign(self) -> str:
        f = self.fake
        base = pick(self.rng, ("W", "K")) + "".join(
            f.random_uppercase_letter() for _ in range(int(self.rng.integers(2, 4)))
        )
        return base + pick(self.rng, ("-TV", "-FM", "(AM)", "-DT", "", "-CD"))

    def facility_id(self) -> str:
        return str(int(self.rng.integers(1000, 199999)))

    def frn(self) -> str:
        return "00" + self.digits(8)

    def plate(self) -> str:
        return self.fake.license_plate()

    # -- dates ---------------------------------------------------------------------------
    def year(self) -> int:
        return self.year_base + int(self.rng.integers(-1, 2))

    def date_obj(self, year: int | None = None) -> dt.date:
        y = year if year is not None else self.year()
        return dt.date(min(2025, y), 1, 1) + dt.timedelta(days=int(self.rng.integers(0, 365)))

    def date(self, style: int | None = None, d: dt.date | None = None) -> str:
        d = d or self.date_obj()
        s = self.date_style if style is None else style
        forms = (
            f"{d.month:02d}/{d.day:02d}/{d.year}",
            d.strftime("%B ") + f"{d.day}, {d.year}",
            f"{d.month}/{d.day}/{d.year % 100:02d}",
            f"{d.day} {d.strftime('%b')} {d.year}",
            f"{d.year}-{d.month:02d}-{d.day:02d}",
            d.strftime("%b. ") + f"{d.day}, {d.year}",
        )
        return forms[s % len(forms)]

    def near(self, d: dt.date, lo: int, hi: int) -> dt.date:
        """A date ``lo``..``hi`` days after ``d`` (negative: before)."""
        return d + dt.timedelta(days=int(self.rng.integers(lo, hi + 1)))

    def dob(self) -> str:
        return self.date(style=pick(self.rng, (0, 2, 1)), d=self.date_obj(int(self.rng.integers(1930, 2002))))

    def timestamp(self) -> str:
        d = self.date_obj()
        h, m = int(self.rng.integers(7, 19)), int(self.rng.integers(0, 60))
        ampm = "AM" if h < 12 else "PM"
        return f"{d.strftime('%A, %B')} {d.day}, {d.year} {(h - 1) % 12 + 1}:{m:02d} {ampm}"

    # -- other personal data -------------------------------------------------------------
    def other(self) -> tuple[str, str]:
        """(label, value) of a personal attribute without a finer type."""
        r = self.rng
        kind = int(r.integers(0, 6))
        if kind == 0:
            return "Sex:", pick(r, ("M", "F", "Male", "Female"))
        if kind == 1:
            return "Age:", str(int(r.integers(19, 88)))
        if kind == 2:
            return "Marital Status:", pick(r, ("Married", "Single", "Divorced", "Widowed"))
        if kind == 3:
            return "Citizenship:", pick(r, ("U.S.", "Canada", "Mexico", "United States"))
        if kind == 4:
            return "Diagnosis:", pick(
                r,
                (
                    "Hypertension",
                    "Type 2 diabetes",
                    "Asthma",
                    "Chronic bronchitis",
                    "Lumbar strain",
                    "Emphysema",
                ),
            )
        return "Vehicle Plate:", self.plate()

    # -- distractors ---------------------------------------------------------------------
    def product_code(self) -> str:
        f = self.fake
        return pick(
            self.rng,
            (
                f"{f.random_uppercase_letter()}{f.random_uppercase_letter()}-{self.digits(4)}",
                f"{self.digits(5)}",
                f"SKU {self.digits(6)}",
                f"{self.digits(3)}-{f.random_uppercase_letter()}{self.digits(2)}",
                f"#{self.digits(4)}",
            ),
        )

    def amount(self, lo: float = 5, hi: float = 5000) -> float:
        return round(float(np.exp(self.rng.uniform(np.log(lo), np.log(hi)))), 2)

    @staticmethod
    def money(v: float, dollar: bool = True) -> str:
        return f"{'$' if dollar else ''}{v:,.2f}"

    def product(self) -> str:
        r = self.rng
        nouns = (
            "Letterhead, 24 lb. bond",
            "Display carton",
            "Shipping case",
            "Point-of-sale poster",
            "Radio spot :60",
            "Color separation",
            "Printing plates",
            "Brochure, 4-color",
            "Counter display",
            "Coupon insert",
            "Envelopes #10 window",
            "Toner cartridge",
            "Filter tow, bale",
            "Labels, pressure sensitive",
            "Copy paper, case",
            "Service call",
            "Freight charges",
            "Design services (hrs)",
            "Photography session",
            "Typesetting",
            "Binding, perfect",
            "Folding cartons",
            "Tipping paper",
            "Carton overwrap film",
            "Trade show booth rental",
            "Market survey tabulation",
            "Consulting hours",
            "Courier delivery",
        )
        return pick(r, nouns)

    def bates(self) -> str:
        return self.digits(10) if self.rng.random() < 0.6 else f"{self.digits(4)} {self.digits(4)}"
