"""Fill-in forms (enrolment, insurance application, claim): ruled cells with small
captions, values typed or handwritten, an SSN in comb boxes and an address split across
street/city/state/ZIP cells, checkboxes, and a signature with its date."""

from __future__ import annotations

from redactor_eval.synth.fonts import Font
from redactor_eval.synth.layouts.common import Page, handwrite, sign
from redactor_eval.synth.values import pick

TITLES = (
    "EMPLOYEE ENROLLMENT FORM",
    "APPLICATION FOR GROUP INSURANCE",
    "CLAIM FOR BENEFITS",
    "NEW ACCOUNT APPLICATION",
    "CHANGE OF ADDRESS / PAYROLL AUTHORIZATION",
    "PATIENT REGISTRATION",
)


class Grid:
    """Rows of ruled cells across the page; values go in the lower part of each cell."""

    def __init__(self, page: Page, y: float, caption: Font, value: Font, hand: bool):
        self.page, self.y, self.caption, self.value, self.hand = page, y, caption, value, hand
        self.row_h = caption.size + value.size * 1.9

    def section(self, title: str) -> None:
        p = self.page
        c = p.canvas
        h = self.caption.size * 1.9
        c.fill(
            p.margin, self.y, p.right, self.y + h, (40, 40, 40) if p.rng.random() < 0.5 else (210, 210, 210)
        )
        dark = c.image.getpixel((c.px(p.margin) + 1, c.px(self.y) + 1))[0] < 128
        c.text(
            p.margin + 5,
            self.y + h * 0.72,
            title,
            self.caption.bold(),
            color=(255, 255, 255) if dark else None,
        )
        self.y += h

    def row(self, cells: list[tuple[str, float, str | None, str | None]]) -> list[float]:
        """cells: (caption, width share, value, type). Returns the x of each cell."""
        p = self.page
        c = p.canvas
        width = p.right - p.margin
        total = sum(w for _, w, _, _ in cells)
        x = p.margin
        xs = []
        top, bottom = self.y, self.y + self.row_h
        for caption, w, value, kind in cells:
            cw = width * w / total
            xs.append(x)
            c.text(x + 3, top + self.caption.size + 1, caption, self.caption)
            if value:
                self.put(x + 6, bottom - self.value.size * 0.55, value, kind, cw - 10)
            x += cw
            c.vline(x, top, bottom, 0.5)
        c.rect(p.margin, top, p.right, bottom, 0.8)
        self.y = bottom
        return xs

    def put(self, x: float, y: float, value: str, kind: str | None, max_w: float):
        p = self.page
        if self.hand:
            return handwrite(p, x, y, value, self.value.size * 1.15, kind, max_width=max_w).piece
        f = p.canvas.fit(value, self.value, max_w)
        return p.canvas.text(x, y, value, f, kind=kind).piece


def draw(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    org = v.org()
    hand = rng.random() < 0.55
    caption = Font(pick(rng, ("liberation-sans", "nimbus-sans", "dejavu-sans", "liberation-narrow")), 6.5)
    value = st.body.with_(size=10.5) if not hand else st.body
    y = 44.0
    c.text(page.margin, y + 14, org.name, Font(caption.family, 14, "bold"), kind="ORGANIZATION")
    c.text(
        page.right,
        y + 12,
        f"Form {v.letters(2)}-{int(rng.integers(100, 999))}",
        Font(caption.family, 8),
        align="right",
    )
    y += 22
    c.text(page.margin, y + 8, org.address.one_line(), Font(caption.family, 8), kind="ADDRESS")
    y += 26
    title = pick(rng, TITLES)
    c.text(c.width_pt / 2, y + 12, title, Font(caption.family, 13, "bold"), align="center")
    y += 24
    c.text(
        c.width_pt / 2,
        y,
        pick(
            rng,
            (
                "Please print clearly in ink.",
                "Type or print. Complete all sections.",
                "Return the completed form to Human Resources.",
            ),
        ),
        Font(caption.family, 7.5, "italic"),
        align="center",
    )
    y += 10
    g = Grid(page, y, caption, value, hand)
    who = v.person()
    home = v.address()
    g.section(
        "SECTION 1 - "
        + pick(rng, ("APPLICANT INFORMATION", "EMPLOYEE INFORMATION", "PATIENT INFORMATION", "CLAIMANT"))
    )
    g.row(
        [
            ("NAME (Last, First, M.I.)", 3, f"{who.last}, {who.first} {who.middle}.", "PERSON"),
            ("DATE OF BIRTH", 1.3, v.dob(), "DATE"),
        ]
    )
    # SSN in comb boxes: one value split over three cells
    sex_or_age = pick(rng, ("SEX", "AGE"))
    id_caption = pick(rng, ("DRIVER'S LICENSE NO.", "DRIVER'S LICENSE NO.", "PASSPORT NO."))
    xs = g.row(
        [
            ("SOCIAL SECURITY NO.", 1.6, None, None),
            (sex_or_age, 0.7, None, None),
            ("MARITAL STATUS", 1.1, None, None),
            (id_caption, 1.6, None, None),
        ]
    )
    ssn = v.ssn().replace(" ", "-").split("-")
    base = g.y - value.size * 0.55
    width = c.width_pt - 2 * page.margin
    ssn_w = width * 1.6 / 5.0
    x0 = xs[0] + 6
    comb_xs = [x0, x0 + ssn_w * 0.33, x0 + ssn_w * 0.55]
    for cx in comb_xs[1:]:
        c.vline(cx - 5, base - value.size * 1.1, g.y, 0.4)
    pieces = [g.put(cx, base, part, None, ssn_w * 0.3) for cx, part in zip(comb_xs, ssn)]
    c.annotate("ID_NUMBER", " ".join(ssn), pieces)
    sexage = pick(rng, ("M", "F")) if sex_or_age == "SEX" else str(int(rng.integers(19, 80)))
    g.put(xs[1] + 6, base, sexage, "OTHER", 30)
    g.put(
        xs[2] + 6,
        base,
        pick(rng, ("Married", "Single", "Divorced", "Widowed")),
        "OTHER",
        width * 1.1 / 5 - 10,
    )
    lic = v.passport() if id_caption.startswith("PASSPORT") else v.license()
    g.put(xs[3] + 6, base, lic, "ID_NUMBER", ssn_w - 10)
    # address split across street / city / state / ZIP cells: one ADDRESS value
    xs = g.row(
        [
            ("HOME ADDRESS (Number and Street)", 2.6, None, None),
            ("CITY", 1.4, None, None),
            ("STATE", 0.5, None, None),
            ("ZIP CODE", 0.8, None, None),
        ]
    )
    base = g.y - value.size * 0.55
    parts = [home.street, home.city, home.state, home.zip]
    pieces = [
        g.put(x + 6, base, part, None, (xs[i + 1] - x - 10) if i + 1 < len(xs) else page.right - x - 10)
        for i, (x, part) in enumerate(zip(xs, parts))
    ]
    c.annotate("ADDRESS", " ".join(parts), pieces)
    g.row(
        [
            ("HOME PHONE", 1, v.phone(), "PHONE"),
            ("WORK PHONE", 1, v.phone(), "PHONE"),
            ("E-MAIL ADDRESS", 1.6, v.email(who), "EMAIL"),
        ]
    )
    if rng.random() < 0.5:
        lab2, val2 = v.other()
        while lab2 in ("Sex:", "Age:", "Marital Status:"):  # already asked above
            lab2, val2 = v.other()
        g.row([(lab2.rstrip(":").upper(), 1.5, val2, "OTHER"), ("OCCUPATION", 2, who.title, None)])
    employer = v.org()
    g.section("SECTION 2 - " + pick(rng, ("EMPLOYMENT", "EMPLOYER / GROUP", "COVERAGE")))
    g.row(
        [
            ("EMPLOYER", 2.2, employer.name, "ORGANIZATION"),
            ("EMPLOYEE ID", 1, v.employee_id(), "ID_NUMBER"),
            ("DATE OF HIRE", 1, v.date(style=0), "DATE"),
        ]
    )
    g.row(
        [
            ("EMPLOYER ADDRESS", 3, employer.address.one_line(), "ADDRESS"),
            ("WORK LOCATION", 1.3, v.location(), "LOCATION"),
        ]
    )
    g.row(
        [
            ("POLICY NO.", 1.2, v.policy(), "ACCOUNT_NUMBER"),
            ("GROUP NO.", 1, v.digits(6), "ACCOUNT_NUMBER"),
            ("MEMBER ID", 1.3, v.member_id(), "ID_NUMBER"),
            ("EFFECTIVE DATE", 1, v.date(style=0), "DATE"),
        ]
    )
    g.section("SECTION 3 - " + pick(rng, ("BENEFICIARY", "EMERGENCY CONTACT")))
    ben = v.person()
    g.row(
        [
            ("NAME", 2, ben.full(), "PERSON"),
            ("RELATIONSHIP", 1, pick(rng, ("Spouse", "Son", "Daughter", "Mother", "Friend")), None),
            ("PHONE", 1.3, v.phone(), "PHONE"),
        ]
    )
    if rng.random() < 0.6:
        g.section("SECTION 4 - DIRECT DEPOSIT")
        g.row(
            [
                ("BANK NAME", 1.6, v.org().name, "ORGANIZATION"),
                ("ROUTING NO.", 1, v.routing(), "BUSINESS_ID"),
                ("ACCOUNT NO.", 1.3, v.bank_account(), "ACCOUNT_NUMBER"),
            ]
        )
        y = g.y + 14
        for i, box in enumerate(("Checking", "Savings")):
            x = page.margin + 6 + i * 90
            c.rect(x, y - 8, x + 8, y, 0.6)
            if i == int(rng.integers(0, 2)):
                c.text(x + 1, y - 0.5, "X", Font("dejavu-sans", 8, "bold"))
            c.text(x + 12, y, box, caption.with_(size=8))
        g.y = y + 6
    # certification and signature
    y = g.y + 16
    y = c.flow(
        page.margin,
        y,
        page.right - page.margin,
        [
            (
                "I certify that the information given above is true and complete to the best of my "
                "knowledge. I authorize my employer to make the payroll deductions required for the "
                "coverage elected.",
                None,
            )
        ],
        Font(caption.family, 7.5),
        9.5,
    )
    y += 34
    c.hline(page.margin, page.margin + 260, y, 0.6)
    c.hline(page.margin + 300, page.right, y, 0.6)
    sign(page, page.margin + 10, y - 1, who.full(), width=150, height=36)
    if hand:
        handwrite(page, page.margin + 310, y - 4, v.date(style=2), 11, "DATE")
    else:
        c.text(page.margin + 310, y - 4, v.date(style=0), value, kind="DATE")
    c.text(page.margin, y + 9, "SIGNATURE OF " + pick(rng, ("APPLICANT", "EMPLOYEE", "CLAIMANT")), caption)
    c.text(page.margin + 300, y + 9, "DATE", caption)
    y += 30
    if y < c.height_pt - 60:
        g2 = Grid(page, y, caption, Font(caption.family, 9), False)
        g2.section("FOR OFFICE USE ONLY")
        g2.row(
            [
                ("RECEIVED BY", 2, None, None),
                ("DATE", 1, None, None),
                ("BATCH NO.", 1, str(int(rng.integers(100, 999))), None),
            ]
        )
