"""Business letters: letterhead, date, delivery line, inside address, reference line with
account and claim numbers, body paragraphs with values in running text, signature, cc."""

from __future__ import annotations

from redactor_eval.synth.layouts.common import (
    Page,
    address_block,
    footer,
    letterhead,
    paragraph,
    sign,
    stamp,
    fax_banner,
)
from redactor_eval.synth.values import pick

BODY = (
    "Thank you for your letter of {date2} regarding account {acct}.",
    "As discussed with {other} on {date2}, we have updated our records accordingly.",
    "Please direct any questions to {other} at {phone2}.",
    "Our file reference is {ref}; kindly quote it in all future correspondence.",
    "The payment of {amount} was credited to account {acct} on {date2}.",
    "A copy of this letter has been sent to {other2} of {org2}.",
    "You may reach me directly at {phone} or by e-mail at {email}.",
    "Enclosed please find the signed agreement dated {date2} for your files.",
    "We understand that {other} will represent {org2} at the hearing in {loc}.",
    "The claimant, {client}, resides at {addr1} and has been a policyholder since {date3}.",
    "Under policy {policy}, coverage for {client} remains in force through {date3}.",
    "The shipment to our {loc} facility is scheduled for {date3}.",
    "Our records show {client}'s Social Security number as {ssn}; please confirm it is correct.",
    "The meeting between {org} and {org2} in {loc} has been moved from {date2} to {date3}.",
    "{org2} opened its {loc} office on {date2} and its {loc2} office on {date3}.",
    "Since {date3}, {org2} has handled the distribution for {org3} in {loc2}.",
    "The agreement between {org} and {org3}, signed in {loc} on {date2}, expires on {date3}.",
    "{org3} will open the {loc2} plant on {date3}, as announced on {date2}.",
    "Representatives of {org2} visited our {loc} and {loc2} facilities on {date2}.",
    "The hearing in {loc} was continued from {date2} to {date3} at the request of {org3}.",
    "{org3} has served the {loc} and {loc2} markets since {date3}.",
    "Between {date2} and {date3}, {org2} shipped the materials from {loc}.",
)


def context(page: Page, sender, recipient, org, org2) -> dict:
    v = page.v
    other, other2 = v.person(), v.person()
    client = v.person()
    return {
        "date2": (v.date(), "DATE"),
        "date3": (v.date(), "DATE"),
        "acct": (v.account(), "ACCOUNT_NUMBER"),
        "other": (other.full(), "PERSON"),
        "other2": (other2.full(), "PERSON"),
        "phone2": (v.phone(), "PHONE"),
        "ref": (v.case_no(), "REFERENCE_NUMBER"),
        "amount": (v.money(v.amount(50, 20000)), None),
        "org2": (org2.name, "ORGANIZATION"),
        "phone": (org.phone, "PHONE"),
        "email": (v.email(sender, org.domain), "EMAIL"),
        "loc": (v.location(), "LOCATION"),
        "client": (client.full(), "PERSON"),
        "addr1": (v.address().one_line(), "ADDRESS"),
        "policy": (v.policy(), "ACCOUNT_NUMBER"),
        "ssn": (v.ssn(), "ID_NUMBER"),
        "org": (org.name, "ORGANIZATION"),
        "loc2": (v.location(), "LOCATION"),
        "org3": (v.org().name, "ORGANIZATION"),
    }


def draw(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    org, org2 = v.org(), v.org()
    sender, recipient = v.person(), v.person()
    body = st.body.with_(size=st.body.size * rng.uniform(1.0, 1.1))
    lead = body.size * rng.uniform(1.25, 1.45)
    faxed = st.source == "industry" and rng.random() < 0.35
    if faxed:
        fax_banner(page, org, int(rng.integers(2, 6)))
    y = letterhead(page, org, 50.0, align=pick(rng, ("left", "center", "center")))
    y += lead
    date_x = page.margin if rng.random() < 0.6 else c.width_pt / 2 + 20
    c.text(date_x, y, v.date(style=pick(rng, (1, 1, 5, 0))), body, kind="DATE")
    y += lead * 2
    if rng.random() < 0.4:
        delivery = pick(
            rng, ("VIA FACSIMILE", "VIA FEDERAL EXPRESS", "CERTIFIED MAIL", "BY HAND", "VIA E-MAIL")
        )
        r = c.text(page.margin, y, delivery, body.bold())
        if delivery == "VIA FACSIMILE":
            c.text(r.x1 + 6, y, v.phone(), body, kind="PHONE")
        y += lead * 1.5
    y = address_block(
        page, page.margin, y, recipient, org2, org2.address, body, name_style=pick(rng, (0, 0, 1))
    )
    y += lead
    refs = []
    if rng.random() < 0.6:
        refs.append((page.label("REF") if rng.random() < 0.5 else "Re:", v.case_no(), "REFERENCE_NUMBER"))
    if rng.random() < 0.4:
        refs.append(
            (
                page.label("POLICY") if rng.random() < 0.5 else page.label("ACCOUNT_NUMBER"),
                v.account(),
                "ACCOUNT_NUMBER",
            )
        )
    if rng.random() < 0.2:
        client = v.person()
        refs.append(("Insured:" if rng.random() < 0.5 else "Claimant:", client.full(), "PERSON"))
    x = page.margin + (40 if rng.random() < 0.5 else 0)
    for lab, val, kind in refs:
        r = c.text(x, y, lab + " ", body.bold())
        c.text(r.x1, y, val, body.bold() if rng.random() < 0.5 else body, kind=kind)
        y += lead
    y += lead * 0.6
    salute = pick(rng, ("Dear ", "Dear ", "Dear "))
    r = c.text(page.margin, y, salute + recipient.prefix + " ", body)
    r = c.text(r.x1, y, recipient.last, body, kind="PERSON")
    c.text(r.x1, y, pick(rng, (":", ",")), body)
    y += lead * 1.4
    ctx = context(page, sender, recipient, org, org2)
    indent = 30.0 if rng.random() < 0.4 else 0.0
    width = page.right - page.margin
    for _ in range(int(rng.integers(2, 5))):
        segs = paragraph(page, BODY, ctx, int(rng.integers(1, 3)))
        y = c.flow(page.margin, y, width, segs, body, lead, indent=indent)
        y += lead * 0.6
        if y > c.height_pt - 230:
            break
    c.text(
        page.margin,
        y,
        pick(rng, ("Sincerely,", "Very truly yours,", "Sincerely yours,", "Best regards,")),
        body,
    )
    y += lead * 0.6
    sign(page, page.margin + 4, y + 38, sender.full(), width=130, height=40)
    y += 50
    c.text(page.margin, y, sender.full(pick(rng, (0, 1))), body, kind="PERSON")
    y += lead
    c.text(page.margin, y, sender.title.title(), body)
    y += lead * 1.5
    small = body.with_(size=body.size * 0.85)
    initials = f"{sender.first[0]}{sender.last[0]}:{pick(rng, ('jb', 'mk', 'rs', 'lt', 'db'))}"
    c.text(page.margin, y, initials, small)
    y += small.size * 1.4
    if rng.random() < 0.35:
        cc = v.person()
        r = c.text(page.margin, y, "cc: ", small)
        c.text(r.x1, y, cc.full(), small, kind="PERSON")
        y += small.size * 1.4
    if rng.random() < 0.3:
        c.text(page.margin, y, "Enclosure", small)
    if st.source != "digital" and rng.random() < 0.4:
        stamp(page, page.right - 170, 60 + rng.uniform(60, 200), v.date(style=pick(rng, (3, 5, 1))).upper())
    footer(page, 1, 1)
