"""Government registration forms (page type "form"), modelled on agents' registration
statements filed with a national registry: a "Received by ... Registration Unit" line with
date and time at the top, a form number, boxed fields numbered "1.", "2.", ... with a small
printed caption in the corner of each box and the value typed (typewriter) or filled in
below it (registrant's name and registration number, business and residence addresses,
citizenship, date and place of birth, the foreign principal: a company abroad with its
legal form, address and registration/tax number, or an embassy / ministry), yes/no check
boxes, and an execution block (date, typed name, handwritten signature over a line).
Sometimes a rubber "RECEIVED" stamp with a date lands at an angle over the fields."""

from __future__ import annotations

from redactor_eval.synth import intl
from redactor_eval.synth.fonts import Font
from redactor_eval.synth.layouts.common import Page, handwrite, sign, stamp
from redactor_eval.synth.typewriter import typewrite, typewriter_font
from redactor_eval.synth.values import pick

RECEIVED = (
    "Received by NSD/FARA Registration Unit",
    "Received by Registration Unit",
    "RECEIVED - REGISTRATION SECTION",
    "Filed with the Registry",
)
TITLES = (
    "REGISTRATION STATEMENT",
    "SUPPLEMENTAL STATEMENT",
    "SHORT-FORM REGISTRATION STATEMENT",
    "EXHIBIT A TO REGISTRATION STATEMENT",
    "AMENDMENT TO REGISTRATION STATEMENT",
)
SERVICES = (
    "Legal and public relations advice on trade matters",
    "Tourism promotion and press relations",
    "Monitoring of legislation; meetings with officials",
    "Distribution of information materials on investment",
    "Lobbying on tariff and customs questions",
)


def draw(page: Page) -> None:
    c, v, rng = page.canvas, page.v, page.rng
    cap = Font(pick(rng, ("nimbus-sans", "liberation-sans", "gothic")), 6.8)
    typed = rng.random() < 0.7
    tw = typewriter_font(rng, float(rng.uniform(9.5, 11)))
    filled = tw if typed else Font(pick(rng, ("liberation-sans", "nimbus-sans", "nimbus-mono")), 9.5)
    hand = rng.random() < 0.15  # filled in by hand

    def put(x: float, y: float, text: str, kind: str | None, max_w: float) -> None:
        if hand:
            handwrite(page, x, y, text, 11.5, kind, max_width=max_w)
        elif typed:
            typewrite(c, x, y, text, c.fit(text, tw, max_w), rng, kind=kind)
        else:
            c.text(x, y, text, c.fit(text, filled, max_w), kind=kind)

    def put_lines(x: float, y: float, lines: list[str], kind: str, max_w: float) -> None:
        lead = filled.size * 1.3
        if hand:
            pieces = [
                handwrite(page, x, y + i * lead * 1.2, ln, 11, None, max_width=max_w).piece
                for i, ln in enumerate(lines)
            ]
            c.annotate(kind, "\n".join(lines), pieces)
            return
        f = filled
        for ln in lines:
            f = c.fit(ln, f, max_w)
        pieces = []
        for i, ln in enumerate(lines):
            if typed:
                pieces.append(typewrite(c, x, y + i * lead, ln, f, rng).piece)
            else:
                pieces.append(c.text(x, y + i * lead, ln, f).piece)
        c.annotate(kind, "\n".join(lines), pieces)

    # -- the registry's receipt line and the form's heading ------------------------------
    d = v.date_obj()
    h, m, s = int(rng.integers(1, 13)), int(rng.integers(0, 60)), int(rng.integers(0, 60))
    recv = f"{d.month:02d}/{d.day:02d}/{d.year} {h}:{m:02d}:{s:02d} {pick(rng, ('AM', 'PM'))}"
    rf = Font(pick(rng, ("liberation-sans", "nimbus-sans")), 8)
    r = c.text(page.margin, 22, pick(rng, RECEIVED) + "  ", rf)
    c.text(r.x1, 22, recv, rf, kind="DATE")
    small = Font(cap.family, 7.5)
    c.text(page.margin, 42, f"FORM {pick(rng, ('RU', 'RS', 'NR'))}-{int(rng.integers(1, 9))}", small.bold())
    c.text(page.margin, 51, f"Revised {int(rng.integers(1, 13)):02d}/{int(rng.integers(60, 99))}", small)
    c.text(
        page.right,
        42,
        f"OMB No. {int(rng.integers(1000, 1999))}-{int(rng.integers(1, 99)):04d}",
        small,
        align="right",
    )
    hf = Font(pick(rng, ("nimbus-roman", "century", "liberation-serif")), 13, "bold")
    c.text(c.width_pt / 2, 70, pick(rng, TITLES), hf, align="center")
    c.text(
        c.width_pt / 2,
        84,
        "Pursuant to Section 2 of the Registration Act, as amended",
        Font(hf.family, 8.5, "italic"),
        align="center",
    )

    # -- the values -----------------------------------------------------------------------
    registrant_is_firm = rng.random() < 0.6
    if registrant_is_firm:
        p = v.fake
        reg_name = pick(
            rng,
            (
                f"{p.last_name()} {p.last_name()} & {p.last_name()} LLP",
                f"{p.last_name()} & {p.last_name()}, P.C.",
                f"{p.last_name()} Strategies, Inc.",
                f"{p.last_name()} {p.last_name()} {p.last_name()} & {p.last_name()} LLP",
            ),
        )
        reg_kind = "ORGANIZATION"
    else:
        person = v.person()
        reg_name = person.full(pick(rng, (0, 1, 2)))
        reg_kind = "PERSON"
    reg_no = f"{int(rng.integers(100, 6999))}"
    fc = pick(rng, intl.COUNTRIES)
    fv = intl.value_maker(v.fake, rng, fc)
    page.flags["country"] = fc  # the foreign principal's
    principal_kind = pick(rng, ("company", "company", "embassy", "ministry"))
    country_name = intl.COUNTRY_NAMES[fc][1]
    if principal_kind == "company":
        fp_name = fv.org_name()
        fp_addr = fv.address().lines()
        fp_id = fv.business_id_labeled()[1]
    elif principal_kind == "embassy":
        fp_name = f"{pick(rng, ('Embassy of', 'Consulate General of', 'High Commission of'))} {country_name}"
        fp_addr = v.address().lines()
        fp_id = None
    else:
        body = pick(rng, ("Ministry of Trade and Industry", "Tourism Board", "Investment Promotion Agency"))
        fp_name = f"{body}, {country_name}"
        fp_addr = fv.address().lines()
        fp_id = None

    # -- boxed numbered fields ------------------------------------------------------------
    L, R = page.margin, page.right
    mid = L + (R - L) * float(rng.uniform(0.55, 0.68))
    y = 100.0
    n = [0]

    def box(x0: float, x1: float, y0: float, h: float, caption: str) -> tuple[float, float]:
        n[0] += 1
        c.rect(x0, y0, x1, y0 + h, 0.7)
        c.text(x0 + 3, y0 + 8, f"{n[0]}. {caption}", cap)
        return x0 + 8, y0 + 21

    def row(h: float, cells: list[tuple[float, float, str]]) -> list[tuple[float, float]]:
        nonlocal y
        out = [box(x0, x1, y, h, cap_) for x0, x1, cap_ in cells]
        y += h
        return out

    a, b = row(30, [(L, mid, "Name of Registrant"), (mid, R, "Registration No.")])
    put(a[0], a[1], reg_name, reg_kind, mid - L - 14)
    put(b[0], b[1], reg_no, "BUSINESS_ID", R - mid - 14)
    (a,) = row(48, [(L, R, "Principal Business Address")])
    put_lines(a[0], a[1], v.address().lines(), "ADDRESS", R - L - 16)
    abroad = rng.random() < 0.35
    res = (fv.address() if abroad else v.address()).lines()
    a, b = row(
        48 + (12 if len(res) > 2 else 0),
        [(L, mid, "Residence Address(es) of Registrant"), (mid, R, "Telephone No.")],
    )
    put_lines(a[0], a[1], res, "ADDRESS", mid - L - 14)
    put(b[0], b[1], (fv if abroad else v).phone(), "PHONE", R - mid - 14)
    if not registrant_is_firm:
        a, b = row(30, [(L, mid, "Citizenship"), (mid, R, "Date and Place of Birth")])
        put(
            a[0],
            a[1],
            pick(rng, ("U.S.A.", "United States", country_name, intl.COUNTRY_NAMES[fc][0])),
            "OTHER",
            mid - L - 14,
        )
        dob = v.dob()
        r = (
            typewrite(c, b[0], b[1], dob, tw, rng, kind="DATE")
            if typed
            else c.text(b[0], b[1], dob, filled, kind="DATE")
        )
        place = fv.location() if rng.random() < 0.5 else f"{v.fake.city()}, {v.state()}"
        c.text(r.x1, b[1], ";", filled)
        put(r.x1 + 10, b[1], place, "LOCATION", R - r.x1 - 16)
    (a,) = row(30, [(L, R, "Name of Foreign Principal")])
    put(a[0], a[1], fp_name, "ORGANIZATION", R - L - 16)
    hh = 24 + 13 * len(fp_addr)
    if fp_id:
        a, b = row(
            hh,
            [
                (L, mid, "Principal Address of Foreign Principal"),
                (mid, R, "Registration / Tax No. of Foreign Principal"),
            ],
        )
        put(b[0], b[1], fp_id, "BUSINESS_ID", R - mid - 14)
    else:
        (a,) = row(hh, [(L, R, "Principal Address of Foreign Principal")])
    put_lines(a[0], a[1], fp_addr, "ADDRESS", (mid if fp_id else R) - L - 14)
    a, b = row(30, [(L, L + 170, "Date of Agreement"), (L + 170, R, "Nature of Services")])
    put(a[0], a[1], v.date(), "DATE", 150)
    put(b[0], b[1], pick(rng, SERVICES), None, R - L - 186)
    # yes / no questions
    n[0] += 1
    c.rect(L, y, R, y + 40, 0.7)
    q = Font(cap.family, 8)
    c.text(L + 3, y + 11, f"{n[0]}. Has the registrant filed a statement for this principal before?", q)
    c.text(L + 3, y + 29, f"{n[0] + 1}. Is the foreign principal owned or controlled by a government?", q)
    for k, yy in enumerate((y + 11, y + 29)):
        yes = rng.random() < 0.5
        for j, word in enumerate(("Yes", "No")):
            bx = R - 90 + j * 45
            c.rect(bx, yy - 8, bx + 8, yy, 0.6)
            c.text(bx + 11, yy, word, q)
            if (j == 0) == yes:
                c.text(bx + 1, yy - 0.5, "X", Font(tw.family, 9))
    n[0] += 1
    y += 52

    # -- execution ------------------------------------------------------------------------
    c.text(c.width_pt / 2, y, "EXECUTION", Font(hf.family, 10, "bold"), align="center")
    y += 12
    y = c.flow(
        L,
        y,
        R - L,
        [
            (
                "The undersigned swear(s) or affirm(s) that the contents of this statement and its "
                "attached exhibits are true and complete to the best of their knowledge and belief.",
                None,
            )
        ],
        Font(cap.family, 8),
        10,
    )
    y += 4
    cols = (L, L + 110, L + 300, R)
    heads = ("Date of signature", "Print or type name under each signature", "Signature")
    signers = int(rng.integers(1, 3))
    hrow = 14
    rh = 44
    c.rect(L, y, R, y + hrow + rh * signers, 0.7)
    for x in cols[1:-1]:
        c.vline(x, y, y + hrow + rh * signers, 0.7)
    c.hline(L, R, y + hrow, 0.7)
    for i, head in enumerate(heads):
        c.text(cols[i] + 4, y + 10, head, cap)
    sd = v.date()
    for k in range(signers):
        base = y + hrow + rh * (k + 1) - 10
        who = v.person().full(pick(rng, (0, 1)))
        put(cols[0] + 6, base, sd, "DATE", cols[1] - cols[0] - 10)
        put(cols[1] + 6, base, who, "PERSON", cols[2] - cols[1] - 10)
        c.hline(cols[2] + 8, cols[3] - 8, base + 2, 0.5)
        sign(page, cols[2] + 14, base + 4, who, width=min(130.0, cols[3] - cols[2] - 40), height=30)
    y += hrow + rh * signers
    # -- an angled rubber stamp over the fields --------------------------------------------
    if rng.random() < 0.6:
        sd2 = v.near(d, -3, 0)
        stamp(
            page,
            float(rng.uniform(mid - 60, R - 130)),
            float(rng.uniform(100, 240)),
            pick(
                rng,
                (
                    f"{sd2.strftime('%b').upper()} {sd2.day:02d} {sd2.year}",
                    f"{sd2.day} {sd2.strftime('%b')} {sd2.year}",
                ),
            ),
            pick(rng, ("RECEIVED", "FILED", "REGISTRATION UNIT")),
        )
    c.text(c.width_pt / 2, c.height_pt - 28, f"Page 1 of {int(rng.integers(2, 6))}", small, align="center")
