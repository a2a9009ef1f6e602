"""Building blocks shared by the page layouts: the page context (canvas, values, style),
letterheads, address blocks, label/value lines, tables with values split across cells,
running text from sentence templates, stamps, fax banners, handwriting and signatures."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw

from redactor_eval.synth import handwriting
from redactor_eval.synth.fonts import MONO, SANS, SERIF, Font, load
from redactor_eval.synth.render import Canvas, Run
from redactor_eval.synth.values import LABELS, Address, Org, Person, ValueMaker, pick


@dataclass
class Style:
    """Typography of one page: the source it imitates decides fonts and habits."""

    source: str  # "industry" (typed/scanned), "digital" (printed from software), "filing"
    body: Font
    label: Font
    head: Font
    caps_labels: bool
    rules: bool  # table grid lines

    def lab(self, text: str) -> str:
        return text.upper() if self.caps_labels else text


@dataclass
class Page:
    """Everything a layout needs: where to draw, what to write, how it should look."""

    canvas: Canvas
    v: ValueMaker
    rng: np.random.Generator
    style: Style
    margin: float = 60.0
    flags: dict = field(default_factory=dict)

    @property
    def right(self) -> float:
        return self.canvas.width_pt - self.margin

    def label(self, kind: str) -> str:
        return self.style.lab(pick(self.rng, LABELS[kind]))


def make_style(rng: np.random.Generator, source: str) -> Style:
    if source == "industry":
        fam = pick(rng, MONO + SERIF[:3], p=[3, 2, 2, 1, 2, 2, 1])
    elif source == "filing":
        fam = pick(rng, SERIF)
    else:
        fam = pick(rng, SANS + SERIF, p=[3, 2, 2, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1])
    mono = fam in MONO
    size = float(rng.uniform(9.5, 11.5)) if not mono else float(rng.uniform(9.5, 11))
    body = Font(fam, size)
    label = body.bold() if rng.random() < 0.6 else body
    head_fam = fam if (mono or rng.random() < 0.5) else pick(rng, SANS + SERIF)
    head = Font(head_fam, size * rng.uniform(1.5, 2.1), "bold")
    return Style(source, body, label, head, caps_labels=mono and rng.random() < 0.6, rules=rng.random() < 0.7)


# -- text templates ------------------------------------------------------------------------
def fill(template: str, ctx: dict[str, tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Turn ``"Call {name} at {phone}."`` into segments, typed where the context says so."""
    segs: list[tuple[str, str | None]] = []
    pos = 0
    for m in re.finditer(r"\{(\w+)\}", template):
        if m.start() > pos:
            segs.append((template[pos : m.start()], None))
        value, kind = ctx[m.group(1)]
        segs.append((value, kind))
        pos = m.end()
    if pos < len(template):
        segs.append((template[pos:], None))
    return segs


FILLER = (
    "We appreciate your continued business and look forward to working with you.",
    "Please review the enclosed materials at your earliest convenience.",
    "The revised schedule reflects the changes discussed at our last meeting.",
    "As noted previously, the figures below are subject to final review.",
    "All charges are payable within thirty days of receipt unless otherwise agreed.",
    "The program will run as planned, with the exception of the items noted below.",
    "Our records indicate that the balance has not yet been applied.",
    "Copies of the supporting documents are attached for your files.",
    "This summary is provided for informational purposes only.",
    "Further details will follow under separate cover.",
    "We have reviewed the proposal and have no objection to the revised terms.",
    "The samples were shipped by ground freight and should arrive within the week.",
    "Please note that the prior rates remain in effect until the end of the quarter.",
    "The committee will consider the request at its next regular session.",
    "Should the schedule change, we will notify all parties in writing.",
    "The results of the consumer survey are summarized in the attached tables.",
)


def paragraph(
    page: Page, templates: tuple[str, ...], ctx: dict, n_filler: int
) -> list[tuple[str, str | None]]:
    """A paragraph: a few filler sentences around one or two templated sentences."""
    rng = page.rng
    used = page.flags.setdefault("used_sentences", set())

    def fresh(pool: tuple[str, ...]) -> str:
        # a sentence not yet used on this page, while there are any
        left = [s for s in pool if s not in used] or list(pool)
        s = pick(rng, left)
        used.add(s)
        return s

    sentences: list[list[tuple[str, str | None]]] = [
        fill(fresh(templates), ctx) for _ in range(int(rng.integers(1, 3)))
    ]
    for _ in range(n_filler):
        sentences.insert(int(rng.integers(0, len(sentences) + 1)), [(fresh(FILLER), None)])
    segs: list[tuple[str, str | None]] = []
    for s in sentences:
        if segs:
            segs.append((" ", None))
        segs.extend(s)
    return segs


# -- blocks --------------------------------------------------------------------------------
def letterhead(
    page: Page, org: Org, y: float, align: str = "left", contacts: bool = True, rule: bool = True
) -> float:
    """Organisation name, address and contact lines; returns the y below the block."""
    c, st, rng = page.canvas, page.style, page.rng
    x = {"left": page.margin, "center": c.width_pt / 2, "right": page.right}[align]
    head = st.head.with_(size=st.head.size * rng.uniform(0.9, 1.2))
    name = org.name.upper() if rng.random() < 0.4 else org.name
    head = c.fit(name, head, page.right - page.margin)
    c.text(x, y + head.size, name, head, kind="ORGANIZATION", value=name, align=align)
    y += head.size + st.body.size * 1.6
    small = st.body.with_(size=st.body.size * 0.9)
    if rng.random() < 0.5:
        y = c.lines(x, y, org.address.lines(), small, small.size * 1.25, kind="ADDRESS", align=align)
    else:
        c.text(x, y, org.address.one_line(), small, kind="ADDRESS", align=align)
        y += small.size * 1.25
    if contacts:
        parts = [(page.label("PHONE"), org.phone, "PHONE")]
        if rng.random() < 0.55:
            parts.append((page.label("FAX"), org.fax, "PHONE"))
        if rng.random() < 0.5:
            parts.append(
                (page.label("WEB") if rng.random() < 0.5 else "", page.v.web(org.domain), "ONLINE_ID")
            )
        y = inline_pairs(page, x, y, parts, small, align)
    if rule and rng.random() < 0.6:
        c.hline(page.margin, page.right, y - small.size * 0.3, width=rng.uniform(0.5, 1.5))
        y += small.size * 0.6
    return y + st.body.size


def inline_pairs(
    page: Page,
    x: float,
    y: float,
    parts: list[tuple[str, str, str | None]],
    font: Font,
    align: str = "left",
    sep: float = 14.0,
) -> float:
    """``Tel. 555-0101   Fax 555-0102`` on one line (each value annotated)."""
    c = page.canvas
    widths = [(c.measure(lab + " ", font) if lab else 0.0) + c.measure(val, font) for lab, val, _ in parts]
    total = sum(widths) + sep * (len(parts) - 1)
    if align == "center":
        x -= total / 2
    elif align == "right":
        x -= total
    for (lab, v, k), w in zip(parts, widths):
        vx = x
        if lab:
            vx = c.text(x, y, lab + " ", font).x1
        c.text(vx, y, v, font, kind=k)
        x += w + sep
    return y + font.size * 1.35


def address_block(
    page: Page,
    x: float,
    y: float,
    person: Person | None,
    org: Org | None,
    address: Address,
    font: Font,
    title: bool = True,
    name_style: int = 0,
) -> float:
    """Inside-address block: name, job title, organisation, then the postal address as ONE
    multi-line annotation. Returns the baseline after it."""
    c = page.canvas
    lead = font.size * 1.25
    if person is not None:
        who = person.full(name_style)
        if page.rng.random() < 0.4:
            c.text(x, y, person.prefix + " ", font)
            c.text(x + c.measure(person.prefix + " ", font), y, who, font, kind="PERSON")
        else:
            c.text(x, y, who, font, kind="PERSON")
        y += lead
        if title and page.rng.random() < 0.5:
            c.text(x, y, person.title.title(), font)
            y += lead
    if org is not None:
        c.text(x, y, org.name, font, kind="ORGANIZATION")
        y += lead
    return c.lines(x, y, address.lines(), font, lead, kind="ADDRESS")


def kv_rows(
    page: Page,
    x: float,
    y: float,
    rows: list[tuple[str, str, str | None]],
    font: Font,
    label_font: Font | None = None,
    value_x: float | None = None,
    lead: float | None = None,
) -> float:
    """Label/value rows with the values aligned in a column."""
    c = page.canvas
    lf = label_font or font
    lead = lead or font.size * 1.45
    if value_x is None:
        value_x = x + max(c.measure(lab, lf) for lab, _, _ in rows) + 8
    for label, value, kind in rows:
        c.text(x, y, label, lf)
        vf = c.fit(value, font, page.right - value_x)
        c.text(value_x, y, value, vf, kind=kind)
        y += lead
    return y


def split_cells(
    page: Page, xs: list[float], y: float, pieces: list[str], kind: str, font: Font, value: str | None = None
) -> None:
    """One value written across adjacent table cells (area code | number, street | city | zip):
    a single annotation over all pieces, the value joined by spaces."""
    c = page.canvas
    runs = [c.text(x, y, p, c.fit(p, font, 10_000)) for x, p in zip(xs, pieces)]
    c.annotate(kind, value or " ".join(pieces), [r.piece for r in runs])


# -- handwriting and signatures ------------------------------------------------------------
def handwrite(
    page: Page,
    x: float,
    y: float,
    text: str,
    size: float,
    kind: str | None,
    color=None,
    max_width: float | None = None,
    style: int | None = None,
) -> Run:
    """Write ``text`` by hand with its baseline near ``y`` points."""
    c = page.canvas
    if style is None:  # one writer per page: same letters, same capitals habit, same pen
        style = page.flags.setdefault("hand_style", int(page.rng.integers(len(handwriting.HAND_FONTS))))
    caps = page.flags.setdefault("hand_caps", bool(page.rng.random() < 0.6))
    broad = page.flags.setdefault("hand_broad", bool(page.rng.random() < 0.5))
    mask, base, text = handwriting.handwritten_text(
        text,
        int(size * c.scale),
        page.rng,
        style,
        caps=caps and handwriting.HAND_FONTS[style][0] in ("dejavu-sans", "free-sans"),
        broad_pen=broad,
    )
    if max_width is not None:
        cols = np.flatnonzero(mask.max(axis=0) > 0)
        ink_w = (cols[-1] - cols[0] + 1) if cols.size else 1
        limit = max_width * c.scale
        if ink_w > limit:
            f = limit / ink_w
            mask = np.asarray(
                Image.fromarray(mask).resize(
                    (max(1, int(mask.shape[1] * f)), max(1, int(mask.shape[0] * f))), Image.LANCZOS
                )
            )
            base = int(base * f)
    cols = np.flatnonzero(mask.max(axis=0) > 0)
    left = int(cols[0]) if cols.size else 0
    px, py = c.px(x) - left, c.px(y) - base
    piece = c.paste_mask(mask, px, py, color or page.flags.setdefault("pen", handwriting.pen_color(page.rng)))
    if kind and piece is not None:
        c.annotate(kind, text, [piece])
    x1 = x + ((piece.box[2] - piece.box[0]) / c.scale if piece else 0)
    return Run(x, x1, y, piece)


def sign(page: Page, x: float, y: float, name: str, width: float = 140.0, height: float = 38.0) -> None:
    """A drawn signature whose bottom sits on ``y`` points; annotated SIGNATURE with the
    signer's name as value (the strokes themselves are not legible)."""
    c = page.canvas
    w = width * page.rng.uniform(0.8, 1.15)
    mask = handwriting.signature(c.px(height), c.px(w), page.rng)
    piece = c.paste_mask(
        mask, c.px(x), c.px(y - height), page.flags.setdefault("pen", handwriting.pen_color(page.rng))
    )
    c.annotate("SIGNATURE", name, [piece])


# -- scan furniture ------------------------------------------------------------------------
STAMP_COLORS = ((180, 30, 40), (40, 60, 160), (110, 40, 120), (30, 30, 30))


def stamp(page: Page, x: float, y: float, date_text: str | None, title: str | None = None) -> None:
    """A rubber stamp (``RECEIVED`` + date, or a bare word), tilted; the date inside is
    annotated with the box of its rotated ink."""
    c, rng = page.canvas, page.rng
    title = title or pick(rng, ("RECEIVED", "FILED", "PAID", "ENTERED", "APPROVED", "RECEIVED"))
    f1 = load(pick(rng, ("nimbus-sans", "dejavu-sans", "gothic")), "bold", c.px(rng.uniform(12, 16)))
    f2 = load("nimbus-mono" if rng.random() < 0.5 else "dejavu-sans", "bold", c.px(rng.uniform(10, 13)))
    w1 = f1.getlength(title)
    w2 = f2.getlength(date_text) if date_text else 0
    pad = c.px(6)
    W = int(max(w1, w2) + 2 * pad)
    H = int(f1.size * 1.3 + (f2.size * 1.5 if date_text else 0) + 2 * pad)
    frame = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(frame)
    bw = max(2, c.px(1.5))
    d.rounded_rectangle([bw, bw, W - bw - 1, H - bw - 1], radius=c.px(4), outline=255, width=bw)
    d.text((W / 2, pad + f1.size), title, font=f1, fill=255, anchor="ms")
    date_mask = Image.new("L", (W, H), 0)
    if date_text:
        ImageDraw.Draw(date_mask).text(
            (W / 2, pad + f1.size * 1.3 + f2.size * 1.1), date_text, font=f2, fill=255, anchor="ms"
        )
    angle = float(rng.uniform(-12, 12))
    frame = frame.rotate(angle, resample=Image.BICUBIC, expand=True)
    date_mask = date_mask.rotate(angle, resample=Image.BICUBIC, expand=True)
    # worn rubber: the stamp never inks evenly
    wear = rng.uniform(0.55, 1.0, (frame.size[1], frame.size[0]))
    wear = np.clip(wear * 1.4, 0, 1)
    color = pick(rng, STAMP_COLORS)
    X, Y = c.px(x), c.px(y)
    c.paste_mask((np.asarray(frame) * wear).astype(np.uint8), X, Y, color)
    if date_text:
        piece = c.paste_mask((np.asarray(date_mask) * wear).astype(np.uint8), X, Y, color)
        c.annotate("DATE", date_text, [piece])


def fax_banner(page: Page, org: Org, pages_total: int) -> None:
    """The line a fax machine prints across the top: time, sender, number, page."""
    c, v, rng = page.canvas, page.v, page.rng
    f = Font(pick(rng, ("nimbus-mono", "dejavu-mono", "liberation-mono")), 7.5)
    d = v.date_obj()
    date = pick(
        rng,
        (
            f"{d.strftime('%b').upper()}-{d.day:02d}-{d.year % 100:02d}",
            f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
            f"{d.strftime('%b').upper()} {d.day:02d} '{d.year % 100:02d}",
        ),
    )
    y = 16.0
    x = 22.0
    x = c.text(x, y, date, f, kind="DATE").x1 + 8
    x = c.text(x, y, f"{int(rng.integers(0, 24)):02d}:{int(rng.integers(0, 60)):02d}  FROM ", f).x1
    name = org.name.upper()[:28]
    x = c.text(x, y, name, f, kind="ORGANIZATION").x1 + 8
    digits = re.sub(r"\D", "", org.fax)[-10:]
    num = f"{digits[:3]} {digits[3:6]} {digits[6:]}"
    x = c.text(x, y, num, f, kind="PHONE").x1 + 8
    n = int(rng.integers(1, pages_total + 1))
    c.text(c.width_pt - 22, y, f"P.{n:02d}/{pages_total:02d}", f, align="right")


def footer(page: Page, n: int, total: int) -> None:
    """Page number and, on industry documents, a Bates production number."""
    c, rng = page.canvas, page.rng
    f = page.style.body.with_(size=8.5, style="regular")
    y = c.height_pt - 30
    if rng.random() < 0.7:
        txt = pick(rng, (f"Page {n} of {total}", f"- {n} -", f"{n}", f"Page {n}"))
        c.text(c.width_pt / 2, y, txt, f, align="center")
    if page.style.source == "industry" and rng.random() < 0.7:
        bf = Font(pick(rng, ("nimbus-sans", "liberation-mono", "nimbus-mono")), 9, "bold")
        c.text(c.width_pt - 28, c.height_pt - 16, page.v.bates(), bf, align="right")


def table(
    page: Page,
    x0: float,
    y: float,
    cols: list[tuple[str, float, str]],
    rows: list[list[tuple[str, str | None]]],
    font: Font,
    head_font: Font,
    row_h: float,
) -> float:
    """A table with a header row; ``cols`` are (title, width, align); cells are (text, type).
    Returns y below the table."""
    c, st = page.canvas, page.style
    xs = [x0]
    for _, w, _ in cols:
        xs.append(xs[-1] + w)
    top = y
    if st.rules and page.rng.random() < 0.5:
        c.fill(x0, y, xs[-1], y + row_h, (225, 225, 225))
    for (title, w, align), cx in zip(cols, xs):
        hf = c.fit(title, head_font, w - 4)
        tx = {"left": cx + 3, "right": cx + w - 3, "center": cx + w / 2}[align]
        c.text(tx, y + row_h * 0.72, title, hf, align=align)
    y += row_h
    c.hline(x0, xs[-1], y, 0.8)
    for row in rows:
        for (text, kind), (_, w, align), cx in zip(row, cols, xs):
            if not text:
                continue
            f = c.fit(text, font, w - 5)
            tx = {"left": cx + 3, "right": cx + w - 3, "center": cx + w / 2}[align]
            c.text(tx, y + row_h * 0.72, text, f, kind=kind, align=align)
        y += row_h
        if st.rules:
            c.hline(x0, xs[-1], y, 0.4)
    if st.rules:
        c.rect(x0, top, xs[-1], y, 0.8)
        for cx in xs[1:-1]:
            c.vline(cx, top, y, 0.4)
    else:
        c.hline(x0, xs[-1], y, 0.8)
    return y
