"""Fax and memo cover sheets of the kind found in old corporate archives (page type
"other"): a fax machine's transmission header across the top (date, time, sender name and
fax number, page count), a letterhead that may list offices abroad, To / From / cc / Fax /
Phone / Date / Re fields with typewritten values, a distribution list of several people or
a recipients table (name, company, fax, phone), a short note, handwritten initials or a
signature, a confidentiality notice and a Bates number printed sideways in the margin.

Half of the sheets come from an organisation outside the US (its address, phones, legal
form and registration number in that country's conventions, see ``eval.synth.intl``)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from redactor_eval.synth import intl
from redactor_eval.synth.fonts import Font, load
from redactor_eval.synth.layouts.common import Page, handwrite, paragraph, sign
from redactor_eval.synth.typewriter import typewrite, typewriter_font
from redactor_eval.synth.values import ValueMaker, pick

NOTES = (
    "Further to our telephone conversation of {date}, please find attached the revised figures for {org}.",
    "Please call {person} on {phone} if any pages are missing or illegible.",
    "As requested, attached is the draft agreement with {org}; comments to {person} by {date}.",
    "The samples will be shipped to {person} at the address above; our reference is {ref}.",
    "Kindly confirm receipt to {person} (fax {phone}).",
)


def draw(page: Page) -> None:
    c, rng = page.canvas, page.rng
    country = pick(rng, ("US",) + intl.COUNTRIES, p=[8] + [1] * len(intl.COUNTRIES))
    v: ValueMaker = intl.value_maker(page.v.fake, rng, country)
    page.flags["country"] = country
    org = v.org()
    total = int(rng.integers(2, 9))
    tw = typewriter_font(rng)
    y = transmission_header(page, v, org, total)
    y = letterhead_offices(page, v, org, y + 18)
    title = pick(
        rng, ("FAX COVER SHEET", "FACSIMILE TRANSMISSION", "MEMORANDUM", "TELECOPY", "INTER-OFFICE MEMO")
    )
    memo = title.endswith("MEMO") or title == "MEMORANDUM"
    hf = Font(pick(rng, ("nimbus-sans", "liberation-sans", "nimbus-roman", "century")), 16, "bold")
    c.text(c.width_pt / 2, y + 10, title, hf, align="center")
    y += 42
    label_font = Font(page.style.label.family if rng.random() < 0.5 else "nimbus-sans", 10, "bold")
    lx, vx = page.margin + 6, page.margin + 96
    hand = rng.random() < 0.25  # blanks filled in by hand instead of typed

    def field(label: str, value: str, kind: str | None, y: float, rule: bool = True) -> float:
        c.text(lx, y, label, label_font)
        if hand:
            handwrite(page, vx + 4, y, value, 12, kind, max_width=page.right - vx - 10)
        else:
            typewrite(c, vx, y, value, c.fit(value, tw, page.right - vx - 4), rng, kind=kind)
        if rule:
            c.hline(vx - 2, page.right - (0 if memo else 150), y + 3, 0.4)
        return y + 24

    to, frm = v.person(), v.person()
    to_org = intl.value_maker(page.v.fake, rng, pick(rng, ("US",) + intl.COUNTRIES)).org()
    date = v.date()
    y = field("TO:", to.full(int(rng.integers(0, 4))), "PERSON", y)
    y = field("COMPANY:", to_org.name, "ORGANIZATION", y)
    y = field("FAX:", to_org.fax, "PHONE", y)
    if rng.random() < 0.6:
        y = field("PHONE:", to_org.phone, "PHONE", y)
    y = field("FROM:", frm.full(int(rng.integers(0, 4))), "PERSON", y)
    if rng.random() < 0.5:
        handwrite(page, page.right - 120, y - 24, frm.first[0] + frm.last[0], 18, "SIGNATURE", style=0)
    y = field("DATE:", date, "DATE", y)
    if not memo:
        c.text(page.right - 140, y - 24, f"PAGES: {total}", label_font)
    subject = pick(rng, ("Order ", "Project ", "Contract ", "Shipment "))
    c.text(lx, y, pick(rng, ("RE:", "SUBJECT:")), label_font)
    r = typewrite(c, vx, y, subject, tw, rng)
    typewrite(c, r.x1, y, v.order_no(), tw, rng, kind="REFERENCE_NUMBER")
    y += 28
    if rng.random() < 0.5:
        y = distribution_list(page, v, lx, vx, y, label_font, tw)
    else:
        y = recipients_table(page, y)
    y += 14
    ctx = {
        "date": (v.date(), "DATE"),
        "org": (to_org.name, "ORGANIZATION"),
        "person": (frm.full(), "PERSON"),
        "phone": (v.phone(), "PHONE"),
        "ref": (v.order_no(), "REFERENCE_NUMBER"),
    }
    y = c.flow(
        page.margin + 6, y, page.right - page.margin - 12, paragraph(page, NOTES, ctx, 1), tw, tw.size * 1.5
    )
    if rng.random() < 0.6:
        y += 30
        sign(page, page.margin + 260, y, frm.full(), width=130, height=34)
        y += 12
        typewrite(c, page.margin + 260, y, frm.full(), tw, rng, kind="PERSON")
    notice_and_confirmation(page, max(y + 30, c.height_pt - 150))
    bates_sideways(page)


def transmission_header(page: Page, v: ValueMaker, org, total: int) -> float:
    """The line the sending fax machine prints at the top: three common formats."""
    c, rng = page.canvas, page.rng
    f = Font(pick(rng, ("nimbus-mono", "liberation-mono", "dejavu-mono", "nimbus-sans")), 7.5)
    d = v.date_obj()
    date = pick(
        rng,
        (
            f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
            f"{d.strftime('%b').upper()}-{d.day:02d}-{d.year % 100:02d}",
            f"{d.month}-{d.day}-{d.year % 100:02d}",
            f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d}",
        ),
    )
    t = f"{int(rng.integers(0, 24)):02d}:{int(rng.integers(0, 60)):02d}"
    fax = org.fax
    y, x = 18.0, 22.0
    fmt = int(rng.integers(0, 3))
    name = org.name.upper()[:30]
    if fmt == 0:  # date time FAX number   NAME ->-> DEPT   page/total
        x = c.text(x, y, date, f, kind="DATE").x1 + 10
        x = c.text(x, y, f"{t}  FAX ", f).x1
        x = c.text(x, y, fax, f, kind="PHONE").x1 + 24
        x = c.text(x, y, name, f, kind="ORGANIZATION").x1
        c.text(x, y, pick(rng, ("  ->-> SALES", "  ->-> LEGAL", "  -> NYO", "")), f)
        c.text(c.width_pt - 24, y, f"#{int(rng.integers(1, total + 1)):03d}/{total:03d}", f, align="right")
    elif fmt == 1:  # SENT BY: machine ; date ; time ; from-number -> to-number ;# page/total
        x = c.text(
            x, y, "SENT BY:" + pick(rng, ("Xerox Telecopier 7021", "FAXPHONE L770", "TELEFAX ")) + " ; ", f
        ).x1
        x = c.text(x, y, date, f, kind="DATE").x1
        x = c.text(x, y, f" ; {t} ; ", f).x1
        x = c.text(x, y, fax, f, kind="PHONE").x1
        x = c.text(x, y, " -> ", f).x1
        x = c.text(x, y, v.phone(), f, kind="PHONE").x1
        c.text(x, y, f" ;# {int(rng.integers(1, total + 1))}/{total}", f)
    else:  # FROM NAME  number   date time  P.02
        x = c.text(x, y, "FROM ", f).x1
        x = c.text(x, y, name, f, kind="ORGANIZATION").x1 + 10
        x = c.text(x, y, fax, f, kind="PHONE").x1 + 24
        x = c.text(x, y, date, f, kind="DATE").x1
        c.text(x, y, f"  {t}   P.{int(rng.integers(1, total + 1)):02d}", f)
    return y + 8


def letterhead_offices(page: Page, v: ValueMaker, org, y: float) -> float:
    """Firm name, its address and, often, a row of its other offices (some abroad)."""
    c, rng = page.canvas, page.rng
    head = Font(
        pick(rng, ("nimbus-roman", "century", "palatino", "nimbus-sans")), float(rng.uniform(18, 26)), "bold"
    )
    name = org.name.upper() if rng.random() < 0.5 else org.name
    head = c.fit(name, head, page.right - page.margin)
    c.text(page.margin, y + head.size, name, head, kind="ORGANIZATION", value=name)
    y += head.size + 14
    small = Font(head.family, 7.5)
    y = c.lines(page.margin, y, org.address.lines(), small, 9.5, kind="ADDRESS")
    r = c.text(page.margin, y, "Tel. ", small)
    r = c.text(r.x1, y, org.phone, small, kind="PHONE")
    r = c.text(r.x1 + 10, y, "Fax ", small)
    c.text(r.x1, y, org.fax, small, kind="PHONE")
    y += 10
    if isinstance(v, intl.IntlValueMaker) and rng.random() < 0.6:
        label, bid = v.business_id_labeled()
        r = c.text(page.margin, y, (label + " ") if label else "", small)
        c.text(r.x1, y, bid, small, kind="BUSINESS_ID")
        y += 10
    if rng.random() < 0.6:  # offices row
        n = int(rng.integers(2, 5))
        col = (page.right - page.margin) / n
        y += 6
        tiny = Font(head.family, 6.5)
        for k in range(n):
            ov = intl.value_maker(page.v.fake, rng, pick(rng, ("US",) + intl.COUNTRIES))
            addr = ov.address()
            lines = [ln.upper() for ln in addr.lines()[:3]]
            x = page.margin + k * col
            lines = [
                ln if c.measure(ln, tiny) < col - 6 else ln[: int(len(ln) * (col - 6) / c.measure(ln, tiny))]
                for ln in lines
            ]
            yy = c.lines(x, y, lines, tiny, 8, kind="ADDRESS")
            c.text(x, yy, ov.phone(), tiny, kind="PHONE")
        y += 8 * 4 + 4
    c.hline(page.margin, page.right, y, 0.8)
    return y + 16


def distribution_list(page: Page, v: ValueMaker, lx: float, vx: float, y: float, lf: Font, tw: Font) -> float:
    """``cc:`` with several people, one a line, some with their organisation."""
    c, rng = page.canvas, page.rng
    c.text(lx, y, pick(rng, ("cc:", "CC:", "Distribution:", "Copies to:")), lf)
    for _ in range(int(rng.integers(3, 7))):
        p = v.person()
        r = typewrite(c, vx, y, p.full(pick(rng, (0, 3, 3, 1))), tw, rng, kind="PERSON")
        if rng.random() < 0.35:
            o = (
                intl.org_name(intl.value_maker(page.v.fake, rng, pick(rng, ("US",) + intl.COUNTRIES)))
                if rng.random() < 0.5
                else None
            )
            if o:
                r = typewrite(c, r.x1 + 8, y, "-", tw, rng)
                typewrite(c, r.x1 + 8, y, o, c.fit(o, tw, page.right - r.x1 - 12), rng, kind="ORGANIZATION")
        y += tw.size * 1.45
    return y


def recipients_table(page: Page, y: float) -> float:
    """Recipients grid: name | company | fax no. | phone no., a row per recipient."""
    c, rng = page.canvas, page.rng
    f = Font(pick(rng, ("nimbus-roman", "liberation-serif", "nimbus-sans")), 9.5)
    hf = f.bold()
    xs = [page.margin, page.margin + 120, page.margin + 250, page.margin + 370, page.right]
    c.text(c.width_pt / 2, y, "Please deliver to:", hf, align="center")
    y += 8
    rows = int(rng.integers(2, 5))
    top = y
    h = 18
    for i, head in enumerate(("Recipient", "Company", "Fax No.", "Phone No.")):
        c.text(xs[i] + 4, y + 13, head.upper() if rng.random() < 0.5 else head, hf)
    for k in range(rows):
        yy = y + h * (k + 1) + 13
        vv = intl.value_maker(page.v.fake, rng, pick(rng, ("US",) + intl.COUNTRIES))
        o = vv.org()
        vals = (
            (vv.person().full(), "PERSON"),
            (o.name, "ORGANIZATION"),
            (o.fax, "PHONE"),
            (vv.phone(), "PHONE"),
        )
        for i, (val, kind) in enumerate(vals):
            if i == 3 and rng.random() < 0.3:
                continue
            c.text(xs[i] + 4, yy, val, c.fit(val, f, xs[i + 1] - xs[i] - 8), kind=kind)
    bottom = y + h * (rows + 1)
    c.rect(xs[0], top, xs[-1], bottom, 0.6)
    for x in xs[1:-1]:
        c.vline(x, top, bottom, 0.6)
    for k in range(1, rows + 1):
        c.hline(xs[0], xs[-1], top + h * k, 0.5)
    return bottom + 12


def notice_and_confirmation(page: Page, y: float) -> None:
    c, rng = page.canvas, page.rng
    small = Font(pick(rng, ("nimbus-roman", "liberation-serif")), 7)
    y = c.flow(
        page.margin,
        y,
        page.right - page.margin,
        [
            (
                "The information in this facsimile is confidential and may be legally privileged. It is "
                "intended only for the addressee. If you are not the intended recipient, any review, "
                "copying or distribution is prohibited; please notify the sender by telephone and "
                "return the pages by post.",
                None,
            )
        ],
        small,
        8.5,
    )
    if rng.random() < 0.5:
        f = Font(small.family, 9)
        c.rect(page.margin, y + 4, page.right, y + 34, 0.6)
        c.text(page.margin + 8, y + 16, "Operator initials: ______     Confirmed: Yes ___  No ___", f)
        c.text(page.margin + 8, y + 29, "Time sent: ________", f)


def bates_sideways(page: Page) -> None:
    """A production number printed along the right margin, turned 90 degrees (not personal
    data, not annotated)."""
    c, rng = page.canvas, page.rng
    if rng.random() < 0.3:
        return
    f = load(pick(rng, ("nimbus-sans", "nimbus-mono")), "bold", c.px(13))
    text = page.v.bates()
    w = int(f.getlength(text)) + 4
    h = int(f.size * 1.4)
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).text((2, h - 4), text, font=f, fill=255, anchor="ls")
    m = m.rotate(-90 if rng.random() < 0.5 else 90, expand=True)
    arr = np.asarray(m)
    c.paste_mask(
        arr, c.width - arr.shape[1] - c.px(14), c.height - arr.shape[0] - c.px(int(rng.integers(60, 200)))
    )
