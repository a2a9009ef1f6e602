"""Invoices: vendor invoices (typed or printed, with line items, remittance and card
details); three in ten pages are broadcast ad-buy orders (``ad_buy``)."""

from __future__ import annotations

from redactor_eval.synth.layouts.ad_buy import ad_buy_order
from redactor_eval.synth.layouts.common import (
    Page,
    address_block,
    footer,
    kv_rows,
    letterhead,
    sign,
    split_cells,
    stamp,
    table,
)
from redactor_eval.synth.values import pick


def draw(page: Page) -> None:
    if page.rng.random() < 0.3:
        ad_buy_order(page)
    else:
        vendor_invoice(page)


def vendor_invoice(page: Page) -> None:
    c, v, rng, st = page.canvas, page.v, page.rng, page.style
    seller = v.org()
    buyer_org = v.org()
    buyer = v.person()
    body = st.body
    small = body.with_(size=body.size * 0.9)
    y = 50.0
    y_left = letterhead(page, seller, y, align="left", rule=False)
    # title and the invoice's own numbers, top right
    title = pick(rng, ("INVOICE", "Invoice", "INVOICE", "STATEMENT", "TAX INVOICE"))
    c.text(page.right, y + st.head.size * 1.1, title, st.head.with_(size=st.head.size * 1.15), align="right")
    inv_no = v.invoice_no()
    cust_no = v.account()
    day = v.date_obj()
    rows = [(page.label("INVOICE"), inv_no, "REFERENCE_NUMBER"), (page.label("DATE"), v.date(d=day), "DATE")]
    if rng.random() < 0.7:
        rows.append((page.label("ACCOUNT_NUMBER"), cust_no, "ACCOUNT_NUMBER"))
    if rng.random() < 0.5:
        rows.append((page.label("ORDER"), v.order_no(), "REFERENCE_NUMBER"))
    if rng.random() < 0.6:
        rows.append((st.lab("Due Date:"), v.date(d=v.near(day, 10, 45)), "DATE"))
    if rng.random() < 0.6:
        rows.append(
            (
                st.lab(pick(rng, ("Ship Date:", "Date Shipped:", "Order Date:"))),
                v.date(d=v.near(day, -20, 0)),
                "DATE",
            )
        )
    rows.append((st.lab("Terms:"), pick(rng, ("Net 30", "Net 15", "Due on receipt", "2% 10, Net 30")), None))
    rx = page.right - 215
    y_right = kv_rows(
        page,
        rx,
        y + st.head.size * 2.4,
        rows,
        small,
        st.label.with_(size=small.size),
        value_x=page.right - 105,
    )
    y = max(y_left, y_right) + 8
    if rng.random() < 0.5:
        c.hline(page.margin, page.right, y - 6, rng.uniform(0.5, 1.5))
        y += 6
    # bill to / ship to
    colw = (page.right - page.margin) / 2
    hf = st.label.with_(size=body.size)
    c.text(page.margin, y, st.lab(pick(rng, ("Bill To:", "BILL TO", "Sold To:", "Invoice To:"))), hf)
    c.text(page.margin + colw, y, st.lab(pick(rng, ("Ship To:", "SHIP TO", "Deliver To:"))), hf)
    y += body.size * 1.5
    yb = address_block(
        page, page.margin + 8, y, buyer if rng.random() < 0.55 else None, buyer_org, buyer_org.address, body
    )
    ship = rng.random()
    if ship < 0.35:  # ship to the same place: the values repeat on the page
        ys = address_block(
            page, page.margin + colw + 8, y, buyer, buyer_org, buyer_org.address, body, title=False
        )
    elif ship < 0.6:
        ys = c.text(
            page.margin + colw + 8, y, st.lab(pick(rng, ("Same", "SAME AS ABOVE", "Same as billing"))), body
        ).baseline
    else:
        other_site = v.org()
        ys = address_block(
            page,
            page.margin + colw + 8,
            y,
            v.person() if rng.random() < 0.3 else None,
            other_site,
            other_site.address,
            body,
            title=False,
        )
    y = max(yb, ys) + 6
    if rng.random() < 0.2:  # attention line with a phone, split across cells on some forms
        lab = st.lab(pick(rng, ("Attn:", "Contact:", "Ordered by:")))
        r = c.text(page.margin, y, lab + " ", small)
        r = c.text(r.x1, y, buyer.full(), small, kind="PERSON")
        r = c.text(r.x1 + 12, y, page.label("PHONE") + " ", small)
        c.text(r.x1, y, v.phone(), small, kind="PHONE")
        y += small.size * 1.6
    # salesperson / ship via strip: a small table whose phone is split into two cells
    if rng.random() < 0.3:
        k = (page.right - page.margin) / 492
        cols = [
            (name, w * k)
            for name, w in (
                ("Salesperson", 140),
                ("Ship Via", 90),
                ("F.O.B.", 80),
                ("Area", 40),
                ("Phone", 80),
                ("Terms", 62),
            )
        ]
        x = page.margin
        xs = []
        for name, w in cols:
            xs.append(x)
            c.text(x + 3, y + small.size, st.lab(name), small.bold() if not st.caps_labels else small)
            x += w
        c.rect(page.margin, y - 2, x, y + small.size * 3.2, 0.5)
        for cx in xs[1:]:
            c.vline(cx, y - 2, y + small.size * 3.2, 0.4)
        c.hline(page.margin, x, y + small.size * 1.4, 0.4)
        yy = y + small.size * 2.7
        sp = v.person()
        c.text(xs[0] + 3, yy, sp.full(3), small, kind="PERSON")
        c.text(xs[1] + 3, yy, pick(rng, ("UPS Ground", "Fed Ex", "Truck", "Our truck", "Best way")), small)
        c.text(xs[2] + 3, yy, pick(rng, ("Origin", "Destination", "Plant")), small)
        phone = v.phone(style=1)
        area, rest = phone[:3], phone[4:12]
        split_cells(page, [xs[3] + 3, xs[4] + 3], yy, [area, rest], "PHONE", small)
        c.text(xs[5] + 3, yy, "Net 30", small)
        y += small.size * 4.4
    # line items
    n = int(rng.integers(4, 13))
    dated = rng.random() < 0.6
    line_style = pick(rng, (0, 2))
    line_days = sorted(int(rng.integers(-45, 1)) for _ in range(n))  # deliveries before the invoice
    items = []
    total = 0.0
    for _ in range(n):
        price = v.amount(0.5, 400)
        qty = int(rng.integers(1, max(3, int(4000 / price))))  # cheap items by the hundred, dear ones by few
        amt = round(qty * price, 2)
        total += amt
        row = [
            (v.product_code(), None),
            (v.product(), None),
            (f"{qty:,}", None),
            (v.money(price, False), None),
            (v.money(amt, False), None),
        ]
        if dated:
            row.insert(
                0,
                (
                    v.date(style=line_style, d=v.near(day, line_days[len(items)], line_days[len(items)])),
                    "DATE",
                ),
            )
        items.append(row)
    width = page.right - page.margin
    cols = [
        (st.lab("Item No."), width * 0.15, "left"),
        (st.lab("Description"), width * 0.45, "left"),
        (st.lab("Qty"), width * 0.1, "right"),
        (st.lab("Unit Price"), width * 0.14, "right"),
        (st.lab("Amount"), width * 0.16, "right"),
    ]
    if dated:  # a delivery date per line, as on statements and service invoices
        cols = [
            (st.lab("Date"), width * 0.13, "left"),
            (cols[0][0], width * 0.13, "left"),
            (cols[1][0], width * 0.36, "left"),
        ] + cols[2:]
    y = table(
        page, page.margin, y + 4, cols, items, body, st.label.with_(size=body.size * 0.95), body.size * 1.75
    )
    tax = round(total * rng.uniform(0.0, 0.09), 2)
    ship = v.amount(5, 120) if rng.random() < 0.5 else 0.0
    y += body.size * 1.6
    tx = page.right - 200
    for lab, val in ((st.lab("Subtotal"), total), (st.lab("Sales Tax"), tax), (st.lab("Shipping"), ship)):
        c.text(tx, y, lab, body)
        c.text(page.right - 3, y, v.money(val), body, align="right")
        y += body.size * 1.4
    c.hline(tx, page.right, y - body.size * 0.9, 0.8)
    c.text(tx, y + 2, st.lab("TOTAL DUE"), body.bold())
    c.text(page.right - 3, y + 2, v.money(total + tax + ship), body.bold(), align="right")
    y_tot = y + body.size * 2
    # remittance: bank account, tax id, contact
    y = y - body.size * 4.2
    x = page.margin
    c.text(
        x, y, st.lab(pick(rng, ("Remit to:", "Please remit payment to:", "Wire transfer to:"))), small.bold()
    )
    y += small.size * 1.4
    rows = [
        (st.lab("Bank:"), v.org().name, "ORGANIZATION"),
        (st.lab(pick(rng, ("ABA/Routing:", "Routing No.", "ABA #"))), v.routing(), "BUSINESS_ID"),
        (
            st.lab(pick(rng, ("Account:", "Acct #", "Account No.", "A/C No."))),
            v.bank_account(),
            "ACCOUNT_NUMBER",
        ),
        (page.label("BUSINESS_ID"), v.ein(), "BUSINESS_ID"),
    ]
    if rng.random() < 0.4:  # checks only: payee and a tax id, no bank account on the page
        rows = [
            (st.lab("Payable to:"), seller.name, "ORGANIZATION"),
            (page.label("BUSINESS_ID"), v.ein(), "BUSINESS_ID"),
            (st.lab("Remit by:"), v.date(d=v.near(day, 10, 45)), "DATE"),
        ]
    y = kv_rows(page, x + 6, y, rows, small, lead=small.size * 1.35)
    y = max(y, y_tot) + 6
    if rng.random() < 0.35:  # card authorisation with the cardholder's signature
        c.text(
            page.margin,
            y,
            st.lab(pick(rng, ("Credit Card Authorization", "Charge my card:", "PAYMENT BY CARD"))),
            small.bold(),
        )
        y += small.size * 1.5
        r = c.text(page.margin + 6, y, page.label("CARD_NUMBER") + " ", small)
        r = c.text(r.x1, y, v.card(), small, kind="CARD_NUMBER")
        r = c.text(r.x1 + 12, y, st.lab("Exp. "), small)
        c.text(r.x1, y, v.card_expiry(), small)
        y += small.size * 1.5
        r = c.text(page.margin + 6, y, st.lab("Cardholder: "), small)
        holder = buyer.full()
        r = c.text(r.x1, y, holder, small, kind="PERSON")
        r = c.text(r.x1 + 14, y + 2, st.lab("Signature"), small)
        sign(page, r.x1 + 16, y + 3, holder, width=120, height=28)
        c.hline(r.x1 + 4, r.x1 + 150, y + 3, 0.4)
        y += small.size * 2.2
    y += 4
    ctx_person = v.person()
    segs = (
        [
            (pick(rng, ("Please reference invoice ", "Include invoice number ", "Quote invoice ")), None),
            (inv_no, "REFERENCE_NUMBER"),
            (" with your payment. ", None),
        ]
        if rng.random() < 0.6
        else [
            (pick(rng, ("Thank you for choosing ", "We appreciate your business with ")), None),
            (seller.name, "ORGANIZATION"),
            (". ", None),
        ]
    )
    if rng.random() < 0.4:
        segs += [
            ("Questions regarding this invoice? Contact ", None),
            (ctx_person.full(), "PERSON"),
            (" at ", None),
            (seller.phone, "PHONE"),
        ]
        if rng.random() < 0.3:
            segs += [(" or ", None), (v.email(ctx_person, seller.domain), "EMAIL")]
        segs.append((".", None))
    else:
        segs += [
            ("Goods shipped from our ", None),
            (v.location(), "LOCATION"),
            (" warehouse on ", None),
            (v.date(), "DATE"),
            (" via ", None),
            (pick(rng, ("common carrier", "UPS", "our truck")), None),
            (". Late payments after ", None),
            (v.date(), "DATE"),
            (" are subject to a 1.5% monthly charge.", None),
        ]
    y = c.flow(page.margin, y + small.size, page.right - page.margin, segs, small, small.size * 1.35)
    c.text(
        c.width_pt / 2,
        y + small.size * 0.8,
        pick(rng, ("Thank you for your business!", "THANK YOU", "")),
        small.italic(),
        align="center",
    )
    if rng.random() < (0.5 if st.source == "industry" else 0.2):
        stamp(
            page,
            page.right - 190,
            150 + rng.uniform(0, 300),
            v.date(style=pick(rng, (3, 5, 1))),
            pick(rng, ("PAID", "RECEIVED", "APPROVED")),
        )
    footer(page, 1, pick(rng, (1, 1, 2)))
