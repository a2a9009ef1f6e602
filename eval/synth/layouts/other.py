"""Other pages: fax cover sheets (sender and recipient with fax and phone numbers, a short
note, a confidentiality notice) and "While You Were Out" telephone message slips filled
in by hand."""

from __future__ import annotations

from redactor_eval.synth.fonts import Font
from redactor_eval.synth.layouts.common import Page, footer, handwrite, letterhead, paragraph
from redactor_eval.synth.values import pick

NOTE = (
    "Attached are the pages you requested from {person}.",
    "Please call {person} at {phone} when you receive this.",
    "Here is the signed copy of order {ref}.",
    "Following up on our call of {date}; see account {acct}.",
)


def draw(page: Page) -> None:
    if page.rng.random() < 0.7:
        fax_cover(page)
    else:
        phone_message(page)


def fax_cover(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    org = v.org()
    y = letterhead(page, org, 50.0, align=pick(rng, ("left", "center")), contacts=rng.random() < 0.5)
    c.text(
        c.width_pt / 2,
        y + 30,
        pick(rng, ("FAX", "FACSIMILE TRANSMITTAL", "FAX COVER SHEET", "TELECOPY")),
        st.head.with_(size=st.head.size * 1.4),
        align="center",
    )
    y += 70
    to, frm = v.person(), v.person()
    to_org = v.org()
    rows = [
        ("To:", to.full(), "PERSON"),
        ("Company:", to_org.name, "ORGANIZATION"),
        (page.label("FAX"), to_org.fax, "PHONE"),
        (page.label("PHONE"), v.phone(), "PHONE"),
        ("From:", frm.full(), "PERSON"),
        (page.label("FAX"), org.fax, "PHONE"),
        ("Date:", v.date(), "DATE"),
        ("Pages:", f"{int(rng.integers(2, 12))} (including cover)", None),
        ("Re:", pick(rng, ("Order ", "Invoice ", "Claim ")) + "|" + v.order_no(), "REFERENCE_NUMBER"),
    ]
    body = st.body.with_(size=st.body.size * 1.1)
    lead = body.size * 2.0
    label_x, value_x = page.margin + 10, page.margin + 110
    for lab, val, kind in rows:
        c.text(label_x, y, st.lab(lab), st.label.with_(size=body.size))
        if "|" in val:
            pre, ref = val.split("|")
            r = c.text(value_x, y, pre, body)
            c.text(r.x1, y, ref, body, kind=kind)
        else:
            c.text(value_x, y, val, body, kind=kind)
        c.hline(value_x - 4, page.right, y + 3, 0.3)
        y += lead
    y += lead * 0.5
    for i, box in enumerate(("Urgent", "For Review", "Please Comment", "Please Reply")):
        x = page.margin + 10 + i * 120
        c.rect(x, y - 9, x + 9, y, 0.6)
        c.text(x + 14, y, box, body)
    y += lead * 1.5
    c.text(page.margin, y, st.lab("Comments:"), st.label.with_(size=body.size))
    y += lead * 0.8
    ctx = {
        "person": (v.person().full(), "PERSON"),
        "phone": (v.phone(), "PHONE"),
        "ref": (v.order_no(), "REFERENCE_NUMBER"),
        "date": (v.date(), "DATE"),
        "acct": (v.account(), "ACCOUNT_NUMBER"),
    }
    if rng.random() < 0.4:
        for tmpl in rng.permutation(len(NOTE))[:2]:
            y = _hand_sentence(page, page.margin + 10, y, NOTE[int(tmpl)], ctx, lead)
    else:
        y = c.flow(
            page.margin + 10,
            y,
            page.right - page.margin - 10,
            paragraph(page, NOTE, ctx, 0),
            body,
            body.size * 1.4,
        )
    y = max(y + lead, c.height_pt - 150)
    small = Font(st.body.family, 7.5)
    c.flow(
        page.margin,
        y,
        page.right - page.margin,
        [
            (
                "CONFIDENTIALITY NOTICE: The documents accompanying this facsimile transmission contain "
                "confidential information which is legally privileged. The information is intended only "
                "for the use of the recipient "
                "named above. If you have received this facsimile in error, please notify us by telephone "
                "immediately "
                "to arrange for the return of the original documents.",
                None,
            )
        ],
        small,
        small.size * 1.3,
    )
    footer(page, 1, 1)


def _hand_sentence(page: Page, x: float, y: float, template: str, ctx: dict, lead: float) -> float:
    """A note written by hand: plain words and values written one after another."""
    import re

    parts = re.split(r"(\{\w+\})", template)
    cx = x
    for part in parts:
        if not part:
            continue
        if part.startswith("{"):
            value, kind = ctx[part[1:-1]]
        else:
            value, kind = part.strip(), None
        if not value:
            continue
        run = handwrite(page, cx, y, value, 12, kind)
        cx = run.x1 + 6
        if cx > page.right - 120:
            cx = x
            y += lead * 1.2
    return y + lead * 1.3


def phone_message(page: Page) -> None:
    c, v, rng = page.canvas, page.v, page.rng
    f = Font(pick(rng, ("nimbus-sans", "liberation-sans", "gothic")), 10)
    for k in range(2):  # two slips on the page, as photocopied from a message pad
        top = 60 + k * (c.height_pt / 2 - 20)
        left, right = page.margin + 30, page.right - 30
        c.rect(left, top, right, top + c.height_pt / 2 - 70, 1.0)
        y = top + 30
        c.text((left + right) / 2, y, "WHILE YOU WERE OUT", f.bold().with_(size=15), align="center")
        y += 30
        rows = [
            ("For", v.person().full(pick(rng, (0, 3))), "PERSON"),
            ("Date", v.date(style=2), "DATE"),
            ("M", v.person().full(), "PERSON"),
            ("of", v.org().name, "ORGANIZATION"),
            ("Phone", v.phone(), "PHONE"),
        ]
        for lab, val, kind in rows:
            c.text(left + 14, y, lab, f)
            c.hline(left + 60, right - 14, y + 2, 0.4)
            handwrite(page, left + 66, y - 1, val, 13, kind, max_width=right - left - 90)
            y += 26
        for i, box in enumerate(
            (
                "TELEPHONED",
                "PLEASE CALL",
                "CALLED TO SEE YOU",
                "WILL CALL AGAIN",
                "URGENT",
                "RETURNED YOUR CALL",
            )
        ):
            x = left + 14 + (i % 2) * (right - left) / 2
            yy = y + (i // 2) * 16
            c.rect(x, yy - 8, x + 8, yy, 0.5)
            if rng.random() < 0.3:
                handwrite(page, x, yy + 1, "x", 10, None, style=2)
            c.text(x + 14, yy, box, f.with_(size=8))
        y += 56
        c.text(left + 14, y, "Message", f)
        msg = pick(rng, ("re: acct ", "about order ", "call back re claim "))
        run = handwrite(page, left + 80, y, msg, 12, None)
        ref_kind = "ACCOUNT_NUMBER" if "acct" in msg else "REFERENCE_NUMBER"
        handwrite(
            page, run.x1 + 8, y, v.account() if ref_kind == "ACCOUNT_NUMBER" else v.order_no(), 12, ref_kind
        )
        c.text(left + 14, top + c.height_pt / 2 - 85, "Operator", f.with_(size=8))
        handwrite(page, left + 70, top + c.height_pt / 2 - 86, pick(rng, ("JK", "mb", "RT", "lw")), 11, None)
