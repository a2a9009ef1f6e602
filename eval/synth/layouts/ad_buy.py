"""Broadcast ad-buy orders: a station's order for an advertiser's spots, with dense
schedule tables (like VRDU's forms)."""
from __future__ import annotations

from redactor_eval.synth.layouts.common import (
    Page,
    footer,
    handwrite,
    inline_pairs,
    sign,
    table,
)
from redactor_eval.synth.values import pick


def ad_buy_order(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    station = v.org()
    call = v.call_sign()
    body = st.body.with_(size=min(st.body.size, 9.5))
    small = body.with_(size=body.size * 0.88)
    y = 44.0
    big = st.head.with_(size=st.head.size * 1.1)
    c.text(page.margin, y + big.size, call, big, kind="BUSINESS_ID")
    c.text(
        page.right,
        y + big.size * 0.9,
        st.lab(
            pick(
                rng,
                (
                    "ORDER CONFIRMATION",
                    "BROADCAST ORDER",
                    "CONTRACT",
                    "AGREEMENT FORM FOR POLITICAL ADVERTISING",
                ),
            )
        ),
        c.fit("AGREEMENT FORM FOR POLITICAL", body.bold().with_(size=body.size * 1.3), 260),
        align="right",
    )
    y += big.size * 1.6
    c.text(page.margin, y, station.name, small, kind="ORGANIZATION")
    y += small.size * 1.3
    c.text(page.margin, y, station.address.one_line(), small, kind="ADDRESS")
    y += small.size * 1.3
    contacts = [(page.label("PHONE"), station.phone, "PHONE")]
    if rng.random() < 0.4:
        contacts.append((page.label("FAX"), station.fax, "PHONE"))
    contacts.append((st.lab("Market:"), v.location(), "LOCATION"))
    y = inline_pairs(page, page.margin, y, contacts, small)
    y += 6
    # header grid: two columns of bordered label/value cells
    agency = v.org()
    advertiser = v.org() if rng.random() < 0.6 else None
    adv_name = (
        advertiser.name
        if advertiser
        else f"{v.fake.last_name()} for {pick(rng, ('Congress', 'Senate', 'Governor', 'Mayor'))}"
    )
    buyer, ae = v.person(), v.person()
    flight_a, flight_b = v.date_obj(), None
    flight_b = flight_a.__class__.fromordinal(flight_a.toordinal() + int(rng.integers(7, 60)))
    contract = v.contract_no()
    left = [
        (st.lab("Contract #"), contract, "REFERENCE_NUMBER"),
        (st.lab("Estimate #"), v.digits(4), "REFERENCE_NUMBER"),
        (st.lab("Order Date"), v.date(), "DATE"),
        (st.lab("Advertiser"), adv_name, "ORGANIZATION"),
        (
            st.lab("Product"),
            pick(rng, ("Political", "Retail", "Auto dealer", "Issue advocacy", "Beverage")),
            None,
        ),
        (st.lab("Revision"), str(int(rng.integers(0, 4))), None),
    ]
    right = [
        (st.lab("Agency"), agency.name, "ORGANIZATION"),
        (st.lab("Buyer"), buyer.full(), "PERSON"),
        (st.lab("Acct. Exec."), ae.full(), "PERSON"),
        (st.lab("Agency Phone"), agency.phone, "PHONE"),
        (st.lab("Flight"), None, None),
        (st.lab("Billing"), pick(rng, ("Broadcast month", "Calendar", "Weekly")), None),
    ]
    half = (page.right - page.margin) / 2
    rh = body.size * 1.7
    top = y
    for col, items in ((0, left), (1, right)):
        yy = top
        x = page.margin + col * half
        for lab, val, kind in items:
            c.text(x + 3, yy + rh * 0.7, lab, small.bold() if not st.caps_labels else small)
            vx = x + 82
            if lab == st.lab("Flight"):
                r = c.text(vx, yy + rh * 0.7, v.date(style=2, d=flight_a), small, kind="DATE")
                r = c.text(r.x1, yy + rh * 0.7, " - ", small)
                c.text(r.x1, yy + rh * 0.7, v.date(style=2, d=flight_b), small, kind="DATE")
            else:
                c.text(vx, yy + rh * 0.7, val, c.fit(val, small, half - 88), kind=kind)
            yy += rh
            c.hline(x, x + half, yy, 0.4)
    c.rect(page.margin, top, page.right, top + rh * 6, 0.7)
    c.vline(page.margin + half, top, top + rh * 6, 0.7)
    y = top + rh * 6 + 8
    # agency billing address: one multi-line value
    c.text(page.margin, y + small.size, st.lab("Bill to agency:"), small.bold())
    y = c.lines(
        page.margin + 90, y + small.size, agency.address.lines(), small, small.size * 1.25, kind="ADDRESS"
    )
    y += 6
    # the schedule: dense numbers, one date per line on most orders
    dated = rng.random() < 0.85
    width = page.right - page.margin
    cols = [
        (st.lab("Ln"), width * 0.05, "right"),
        (st.lab("Week of" if dated else "Weeks"), width * 0.11, "left"),
        (st.lab("Days"), width * 0.09, "left"),
        (st.lab("Time"), width * 0.14, "left"),
        (st.lab("Program"), width * 0.25, "left"),
        (st.lab("Len"), width * 0.06, "right"),
        (st.lab("Spots"), width * 0.07, "right"),
        (st.lab("Rate"), width * 0.11, "right"),
        (st.lab("Total"), width * 0.12, "right"),
    ]
    rows = []
    gross = 0.0
    n = int(rng.integers(9, 19))
    programs = (
        "Good Morning",
        "Early News",
        "Noon News",
        "Daytime Rotator",
        "Prime Access",
        "Evening News",
        "Late News",
        "Sports Wrap",
        "Weekend Movie",
        "Late Fringe",
        "Overnight",
        "Sunday Public Affairs",
    )
    weeks = max(1, (flight_b - flight_a).days // 7 + 1)
    starts = sorted(int(rng.integers(0, weeks)) for _ in range(n))  # schedules list lines by week
    for i in range(n):
        d = flight_a.__class__.fromordinal(flight_a.toordinal() + 7 * starts[i])
        h = int(rng.integers(5, 23))
        spots = int(rng.integers(1, 15))
        rate = float(rng.choice([25, 40, 75, 120, 150, 200, 350, 450, 600, 900, 1200]))
        gross += spots * rate
        rows.append(
            [
                (str(i + 1), None),
                (
                    (v.date(style=2, d=d), "DATE")
                    if dated
                    else (pick(rng, ("Wk 1", "Wk 2", "Wk 3", "All")), None)
                ),
                (pick(rng, ("M-F", "Sa", "Su", "M-Su", "Sa-Su", "M,W,F")), None),
                (
                    f"{(h - 1) % 12 + 1}:00{'ap'[h >= 12]}-{h % 12 + 1}:00{'ap'[h + 1 >= 12]}",
                    None,
                ),
                (pick(rng, programs), None),
                (pick(rng, (":30", ":60", ":15", ":30")), None),
                (str(spots), None),
                (v.money(rate, False), None),
                (v.money(spots * rate, False), None),
            ]
        )
    y = table(
        page,
        page.margin,
        y,
        cols,
        rows,
        small,
        small.bold() if not st.caps_labels else small,
        small.size * 1.65,
    )
    y += small.size * 1.6
    for lab, val in (
        ("Gross Amount", gross),
        ("Agency Commission (15%)", -gross * 0.15),
        ("Net Amount", gross * 0.85),
    ):
        c.text(page.right - 220, y, st.lab(lab), small)
        c.text(page.right - 3, y, v.money(val), small, align="right")
        y += small.size * 1.4
    y += 8
    segs = [
        ("All orders are subject to the station's standard terms. Contract ", None),
        (contract, "REFERENCE_NUMBER"),
        (" must appear on all invoices and correspondence. Questions: ", None),
        (ae.full(), "PERSON"),
        (", ", None),
        (v.email(ae, station.domain), "EMAIL"),
        (".", None),
    ]
    y = c.flow(page.margin, y, page.right - page.margin, segs, small, small.size * 1.3)
    y += 24
    c.hline(page.margin, page.margin + 180, y, 0.5)
    c.hline(page.margin + 260, page.margin + 400, y, 0.5)
    if rng.random() < 0.7:
        sign(page, page.margin + 10, y - 2, ae.full(), width=120, height=32)
        (
            handwrite(page, page.margin + 270, y - 4, v.date(style=2), 11, "DATE")
            if rng.random() < 0.5
            else c.text(page.margin + 270, y - 4, v.date(style=2), small, kind="DATE")
        )
    c.text(page.margin, y + small.size * 1.2, st.lab("Station acceptance"), small)
    c.text(page.margin + 260, y + small.size * 1.2, st.lab("Date"), small)
    footer(page, 1, 1)
