"""Filings and memoranda: an FCC-style pleading (caption, call sign, facility and file
numbers, numbered paragraphs, counsel's block, certificate of service) and an inter-office
memo as typed in industry archives."""

from __future__ import annotations

from redactor_eval.synth.layouts.common import Page, footer, kv_rows, paragraph, sign, stamp
from redactor_eval.synth.values import pick

FILING = (
    "{org} is the licensee of Station {call}, Facility ID No. {fid}, licensed to {loc}.",
    "On {date}, {org} filed its application (File No. {file}) for renewal of the license.",
    "The petition filed by {person} on {date} does not raise a substantial question of fact.",
    "The station's main studio is located at {addr}.",
    "Counsel for {org2} was served on {date} at the address listed below.",
    "{person}, the station's general manager, may be contacted at {phone}.",
    "The public file for {call} is maintained at {url}.",
)
MEMO = (
    "Per our conversation on {date}, {person} will coordinate the test in {loc}.",
    "The budget for project {ref} was approved by {person}.",
    "Questions should be directed to {person} at extension {ext} or {phone}.",
    "{org2} has agreed to supply the materials under contract {ref}.",
    "The employee file for {person} (SSN {ssn}) has been forwarded to Personnel.",
    "Samples were received from the {loc} plant on {date}.",
)


def draw(page: Page) -> None:
    if page.style.source == "filing" or page.rng.random() < 0.3:
        filing(page)
    else:
        memo(page)


def filing(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    org, org2 = v.org(), v.org()
    body = st.body.with_(size=max(11.0, st.body.size))
    lead = body.size * rng.uniform(1.6, 2.0)  # pleadings are double-spaced or nearly so
    y = 70.0
    bold = body.bold()
    c.text(c.width_pt / 2, y, "Before the", body, align="center")
    y += body.size * 1.3
    c.text(c.width_pt / 2, y, "FEDERAL COMMUNICATIONS COMMISSION", bold, align="center")
    y += body.size * 1.3
    c.text(c.width_pt / 2, y, "Washington, D.C. 20554", body, align="center")
    y += body.size * 2.4
    call, fid, file_no = v.call_sign(), v.facility_id(), v.fcc_file_no()
    city = v.location()
    mid = c.width_pt / 2 + 10
    cap_top = y
    c.text(page.margin, y, "In the Matter of", body)
    y += body.size * 2
    c.text(page.margin, y, org.name, body, kind="ORGANIZATION")
    y += body.size * 1.4
    c.text(page.margin, y, "Application for Renewal of License", body)
    y += body.size * 1.4
    r = c.text(page.margin, y, "of Station ", body)
    r = c.text(r.x1, y, call, body, kind="BUSINESS_ID")
    r = c.text(r.x1, y, ", ", body)
    c.text(r.x1, y, city, c.fit(city, body, mid - r.x1 - 20), kind="LOCATION")
    y += body.size * 1.4
    for yy in range(int(cap_top - body.size), int(y - body.size), int(body.size * 1.2)):
        c.text(mid - 14, yy + body.size, ")", body)
    c.text(mid + 10, cap_top + body.size * 2, "File No. ", body)
    c.text(
        mid + 10 + c.measure("File No. ", body),
        cap_top + body.size * 2,
        file_no,
        body,
        kind="REFERENCE_NUMBER",
    )
    c.text(mid + 10, cap_top + body.size * 3.6, "Facility ID No. ", body)
    c.text(
        mid + 10 + c.measure("Facility ID No. ", body),
        cap_top + body.size * 3.6,
        fid,
        body,
        kind="BUSINESS_ID",
    )
    y += body.size * 1.5
    c.text(
        c.width_pt / 2,
        y,
        pick(
            rng,
            (
                "OPPOSITION TO PETITION TO DENY",
                "PETITION TO DENY",
                "REPLY COMMENTS",
                "MOTION FOR EXTENSION OF TIME",
            ),
        ),
        bold,
        align="center",
    )
    y += lead * 1.2
    person = v.person()
    ctx = {
        "org": (org.name, "ORGANIZATION"),
        "org2": (org2.name, "ORGANIZATION"),
        "call": (call, "BUSINESS_ID"),
        "fid": (fid, "BUSINESS_ID"),
        "loc": (city, "LOCATION"),
        "date": (v.date(style=1), "DATE"),
        "file": (file_no, "REFERENCE_NUMBER"),
        "person": (person.full(), "PERSON"),
        "addr": (org.address.one_line(), "ADDRESS"),
        "phone": (org.phone, "PHONE"),
        "url": (v.web(org.domain), "ONLINE_ID"),
    }
    width = page.right - page.margin
    n = 1
    while y < c.height_pt - 330 and n <= 3:
        segs = [(f"{n}. ", None)] + paragraph(page, FILING, ctx, int(rng.integers(0, 2)))
        y = c.flow(page.margin, y, width, segs, body, lead, indent=36)
        n += 1
    y += body.size
    x = c.width_pt / 2
    c.text(x, y, "Respectfully submitted,", body)
    y += body.size * 1.6
    c.text(x, y, org.name.upper(), body, kind="ORGANIZATION")
    y += body.size * 2.6
    counsel = v.person()
    if rng.random() < 0.5:
        r = c.text(x, y, "By: ", body)
        sign(page, r.x1, y + 4, counsel.full(), width=130, height=34)
    else:
        r = c.text(x, y, "By: ", body)
        c.text(r.x1, y, f"/s/ {counsel.full()}", body, kind="SIGNATURE")
    y += body.size * 1.5
    c.text(x, y, counsel.full(1), body, kind="PERSON")
    y += body.size * 1.3
    c.text(x, y, "Its Counsel", body.italic())
    y += body.size * 1.3
    firm = v.org()
    c.text(x, y, firm.name, body, kind="ORGANIZATION")
    y += body.size * 1.3
    y = c.lines(x, y, firm.address.lines(), body, body.size * 1.3, kind="ADDRESS")
    c.text(x, y, firm.phone, body, kind="PHONE")
    y += body.size * 1.3
    c.text(x, y, v.email(counsel, firm.domain), body, kind="EMAIL")
    y += body.size * 2
    r = c.text(page.margin, y, "Dated: ", body)
    c.text(r.x1, y, v.date(style=1), body, kind="DATE")
    if st.source != "digital" and rng.random() < 0.4:
        stamp(page, page.right - 160, 40, v.date(style=pick(rng, (3, 5))).upper(), "FILED")
    footer(page, int(rng.integers(1, 9)), int(rng.integers(9, 20)))


def memo(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    org, org2 = v.org(), v.org()
    body = st.body
    lead = body.size * rng.uniform(1.3, 1.7)
    y = 60.0
    if rng.random() < 0.6:
        c.text(
            c.width_pt / 2,
            y,
            org.name.upper(),
            st.head.with_(size=st.head.size * 0.75),
            kind="ORGANIZATION",
            align="center",
        )
        y += st.head.size
    c.text(
        c.width_pt / 2 if rng.random() < 0.5 else page.margin,
        y + 6,
        pick(rng, ("MEMORANDUM", "INTER-OFFICE MEMORANDUM", "M E M O R A N D U M")),
        body.bold().with_(size=body.size * 1.4),
        align="center" if rng.random() < 0.5 else "left",
    )
    y += lead * 2.5
    to, frm = v.person(), v.person()
    rows = [
        (st.lab("TO:"), to.full(pick(rng, (0, 1, 3))), "PERSON"),
        (st.lab("FROM:"), frm.full(pick(rng, (0, 3))), "PERSON"),
        (st.lab("DATE:"), v.date(style=pick(rng, (1, 0, 5))), "DATE"),
        (
            st.lab(pick(rng, ("RE:", "SUBJECT:"))),
            pick(
                rng,
                (
                    "Consumer test results",
                    "Budget review",
                    "Plant visit",
                    "Personnel change",
                    "Vendor contract",
                ),
            ),
            None,
        ),
    ]
    if rng.random() < 0.5:
        cc = v.person()
        rows.insert(2, (st.lab("CC:"), cc.full(3), "PERSON"))
    y = kv_rows(page, page.margin, y, rows, body, st.label.with_(size=body.size), lead=lead)
    c.hline(page.margin, page.right, y - lead * 0.5, 0.8)
    y += lead * 0.5
    ctx = {
        "date": (v.date(), "DATE"),
        "person": (v.person().full(), "PERSON"),
        "loc": (v.location(), "LOCATION"),
        "ref": (v.contract_no(), "REFERENCE_NUMBER"),
        "ext": (str(int(rng.integers(1000, 9999))), None),
        "phone": (v.phone(), "PHONE"),
        "org2": (org2.name, "ORGANIZATION"),
        "ssn": (v.ssn(), "ID_NUMBER"),
    }
    width = page.right - page.margin
    for _ in range(int(rng.integers(2, 5))):
        y = c.flow(
            page.margin,
            y,
            width,
            paragraph(page, MEMO, ctx, int(rng.integers(1, 3))),
            body,
            lead,
            indent=36 if rng.random() < 0.5 else 0,
        )
        y += lead * 0.5
        if y > c.height_pt - 200:
            break
    y += lead
    c.text(page.margin + width * 0.55, y, f"{frm.first[0]}{frm.middle}{frm.last[0]}".upper(), body)
    y += lead * 2
    if rng.random() < 0.7:
        c.text(page.margin, y, st.lab("Distribution:"), body)
        y += lead
        for _ in range(int(rng.integers(2, 5))):
            p = v.person()
            c.text(page.margin + 20, y, p.full(pick(rng, (0, 3))), body, kind="PERSON")
            y += lead
            if y > c.height_pt - 60:
                break
    if st.source == "industry" and rng.random() < 0.5:
        stamp(page, page.right - 170, 40 + rng.uniform(0, 80), v.date(style=pick(rng, (3, 5))).upper())
    footer(page, 1, 1)
