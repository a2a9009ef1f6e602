"""Printed e-mails: the mail client's print header, From/Sent/To/Cc/Subject lines, a body
with values in running text, a signature block and often a quoted earlier message."""

from __future__ import annotations

from redactor_eval.synth.fonts import Font
from redactor_eval.synth.layouts.common import Page, footer, kv_rows, paragraph
from redactor_eval.synth.values import pick

BODY = (
    "{p1}, can you send me the final numbers for {org2} by {date}?",
    "I spoke with {p2} this morning; the best number to reach them is {phone}.",
    "The order ({ref}) went out on {date} to our {loc} office.",
    "Please use account {acct} for the shipping charges.",
    "Attached is the revised schedule from {org2}.",
    "Let me know if {p2} should be copied on the contract ({ref}).",
    "My cell is {phone} if anything comes up over the weekend.",
    "{p2}'s new address is {addr}.",
    "I set up a login for you on the vendor portal: user {user}.",
    "The test site in {loc} reported the results on {date}.",
    "Can you confirm the employee ID ({emp}) for {p2} before payroll closes?",
    "The {loc} and {loc2} results came in on {date}; {org2} will present them on {date2}.",
    "{org2} moved the review from {date} to {date2}.",
    "Shipments to {loc2} resume on {date2} per {org3}.",
    "We met with {org3} in {loc} on {date2} to go over the plan.",
    "{org3} confirmed the {loc2} launch for {date2}, a week after {org2}'s.",
    "The {loc} panel ran from {date} through {date2}; {org2} has the tabulations.",
    "Both {org2} and {org3} want the revised numbers before {date2}.",
    "Distribution in {loc2} starts {date}, and the {loc} test closes on {date2}.",
    "The trade show in {loc} is on {date2}; {org3} will share our booth.",
    "Sales in {loc2} were flat from {date} to {date2}, while {org2} grew in {loc}.",
    "{org3} signed on {date2}; {org2} is still reviewing the draft.",
    "We expect the {loc} shipment before {date2} and the {loc2} one a week later.",
)


def header(
    page: Page, x: float, y: float, font: Font, bold: Font, sender, sender_email, recips, org
) -> float:
    c, v, rng = page.canvas, page.v, page.rng
    rows = []
    frm_style = int(rng.integers(0, 3))
    if frm_style == 0:
        who = [(sender.full(), "PERSON"), (" [", None), (sender_email, "EMAIL"), ("]", None)]
    elif frm_style == 1:
        who = [(sender.full(), "PERSON"), (" <", None), (sender_email, "EMAIL"), (">", None)]
    else:
        who = [(sender_email, "EMAIL")]
    rows.append(("From:", who))
    rows.append((pick(rng, ("Sent:", "Date:")), [(v.timestamp(), "DATE")]))
    to = []
    for i, (p, e) in enumerate(recips):
        if i:
            to.append(("; ", None))
        to.append((p.full(2 if rng.random() < 0.3 else 0), "PERSON"))
        if e and rng.random() < 0.3:
            to += [(" <", None), (e, "EMAIL"), (">", None)]
    rows.append(("To:", to))
    if rng.random() < 0.3:
        cc = v.person()
        rows.append(("Cc:", [(cc.full(), "PERSON")]))
    subj = [(pick(rng, ("RE: ", "FW: ", "", "Re: ")), None)]
    if rng.random() < 0.6:
        subj += [
            (pick(rng, ("Order ", "Contract ", "Invoice ", "Claim ", "Estimate ")), None),
            (v.order_no(), "REFERENCE_NUMBER"),
        ]
    else:
        subj += [
            (
                pick(
                    rng,
                    (
                        "Q3 plan",
                        "revised budget",
                        "meeting next week",
                        "sample request",
                        "test results",
                        "media schedule",
                    ),
                ),
                None,
            )
        ]
    rows.append(("Subject:", subj))
    if rng.random() < 0.25:
        rows.append(("Importance:", [("High", None)]))
    label_w = max(c.measure(lab, bold) for lab, _ in rows) + 8
    width = page.right - x - label_w
    for lab, segs in rows:
        c.text(x, y, lab, bold)
        y = c.flow(x + label_w, y, width, segs, font, font.size * 1.3)
    return y


def draw(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    v.year_base = max(v.year_base, 1996)  # printed e-mails: the archives start in the 1990s
    org, org2 = v.org(), v.org()
    sender = v.person()
    domain = org.domain
    body = st.body
    bold = body.bold()
    lead = body.size * 1.3
    y = 46.0
    if rng.random() < 0.45:  # the mail client's print header: the user's name, a rule
        owner = v.person()
        c.text(page.margin, y + 12, owner.full(), body.bold().with_(size=body.size * 1.4), kind="PERSON")
        y += 20
        c.hline(page.margin, page.right, y, 2.0)
        y += 18
    else:
        y += 14
    recips = [(v.person(), None) for _ in range(int(rng.integers(1, 3)))]
    recips = [(p, v.email(p, org2.domain)) for p, _ in recips]
    y = header(page, page.margin, y, body, bold, sender, v.email(sender, domain), recips, org)
    y += lead
    if rng.random() < 0.15:
        r = c.text(page.margin, y, "X-Originating-IP: [", body)
        r = c.text(r.x1, y, v.ip(), body, kind="ONLINE_ID")
        c.text(r.x1, y, "]", body)
        y += lead * 1.5
    first = recips[0][0]
    r = c.text(page.margin, y, pick(rng, ("Hi ", "Dear ", "")), body)
    r = c.text(r.x1, y, first.first, body, kind="PERSON")
    c.text(r.x1, y, ",", body)
    y += lead * 1.5
    p2 = v.person()
    ctx = {
        "p1": (first.first, "PERSON"),
        "p2": (p2.full(), "PERSON"),
        "org2": (org2.name, "ORGANIZATION"),
        "date": (v.date(), "DATE"),
        "phone": (v.phone(), "PHONE"),
        "ref": (v.order_no(), "REFERENCE_NUMBER"),
        "loc": (v.location(), "LOCATION"),
        "acct": (v.account(), "ACCOUNT_NUMBER"),
        "addr": (v.address().one_line(), "ADDRESS"),
        "user": (v.username(), "ONLINE_ID"),
        "emp": (v.employee_id(), "ID_NUMBER"),
        "loc2": (v.location(), "LOCATION"),
        "date2": (v.date(), "DATE"),
        "org3": (v.org().name, "ORGANIZATION"),
    }
    width = page.right - page.margin
    for _ in range(int(rng.integers(2, 5))):
        y = c.flow(page.margin, y, width, paragraph(page, BODY, ctx, int(rng.integers(0, 3))), body, lead)
        y += lead * 0.7
    c.text(page.margin, y, pick(rng, ("Thanks,", "Regards,", "Best,", "Thank you,")), body)
    y += lead * 1.2
    # signature block
    c.text(page.margin, y, sender.full(), body, kind="PERSON")
    y += lead
    c.text(page.margin, y, sender.title.title(), body)
    y += lead
    c.text(page.margin, y, org.name, body, kind="ORGANIZATION")
    y += lead
    if rng.random() < 0.3:
        y = c.lines(page.margin, y, org.address.lines(), body, lead, kind="ADDRESS")
    rows = [(page.label("PHONE"), org.phone, "PHONE")]
    if rng.random() < 0.3:
        rows.append((page.label("FAX"), org.fax, "PHONE"))
    if rng.random() < 0.4:
        rows.append((page.label("WEB"), v.web(domain), "ONLINE_ID"))
    y = kv_rows(page, page.margin, y, rows, body, lead=lead)
    y += lead
    # quoted earlier message
    if y < c.height_pt - 260 and rng.random() < 0.35:
        c.text(page.margin, y, "-----Original Message-----", body)
        y += lead
        recips2 = [(sender, v.email(sender, domain))]
        y = header(page, page.margin, y, body, bold, first, recips[0][1], recips2, org2)
        y += lead
        for _ in range(int(rng.integers(1, 3))):
            if y > c.height_pt - 120:
                break
            y = c.flow(page.margin, y, width, paragraph(page, BODY, ctx, int(rng.integers(0, 2))), body, lead)
            y += lead * 0.6
    footer(page, 1, pick(rng, (1, 2)))
