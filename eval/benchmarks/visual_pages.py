"""The generated pages of the visual benchmark (issue 32), with ink-tight gold from the render:
letters with a QR code (URL, e-mail, account, a contact card), an EAN-13 barcode beside its
label, synthetic cursive signatures beside their anchors, a photo block, coloured and grey
stamps (with a date and a name, and without personal content), and pages of print only.
The drawing functions also build the visual detectors' test pages."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PAGE = (1275, 1650)            # US letter at 150 dpi
BODY = ["Dear customer,", "",
        "Thank you for your order. The details of your account are printed below and the",
        "code on this page links to the same record. Please keep this letter for your",
        "files and bring it with you when you visit one of our offices."]

# EAN-13: left-hand digit patterns (odd parity L, even parity G), right-hand R, and the
# parity of the six left digits chosen by the first digit.
_L = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
_G = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"]
_R = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]
_PARITY = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]


def ean13_modules(digits12: str) -> tuple[str, str]:
    """The 95 modules of an EAN-13 symbol (1 = bar) and the 13 digits with check digit."""
    d = [int(c) for c in digits12]
    check = (10 - sum(v * (3 if i % 2 else 1) for i, v in enumerate(d)) % 10) % 10
    d.append(check)
    bits = "101"
    for i, v in enumerate(d[1:7]):
        bits += (_L if _PARITY[d[0]][i] == "L" else _G)[v]
    bits += "01010"
    for v in d[7:]:
        bits += _R[v]
    bits += "101"
    return bits, "".join(map(str, d))


def draw_ean13(arr: np.ndarray, x: int, y: int, digits12: str, module: int = 3, height: int = 110):
    """Draw the bars into a grey page array; returns the ink box and the 13 digits."""
    bits, code = ean13_modules(digits12)
    for i, b in enumerate(bits):
        if b == "1":
            arr[y:y + height, x + i * module:x + (i + 1) * module] = 0
    return (x, y, x + len(bits) * module, y + height), code


def draw_qr(arr: np.ndarray, x: int, y: int, text: str, module: int = 6):
    import cv2
    enc = cv2.QRCodeEncoder.create() if hasattr(cv2.QRCodeEncoder, "create") else cv2.QRCodeEncoder()
    q = enc.encode(text)
    q = cv2.resize(q, (q.shape[1] * module, q.shape[0] * module), interpolation=cv2.INTER_NEAREST)
    arr[y:y + q.shape[0], x:x + q.shape[1]] = np.minimum(arr[y:y + q.shape[0], x:x + q.shape[1]], q)
    ys, xs = np.nonzero(q < 128)
    return (x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1)


def draw_signature(arr: np.ndarray, x: int, y_base: int, width: int, height: int, seed: int = 0):
    """Synthetic cursive: a capital loop, then a run of joined loops of random height (a
    trochoid, like "ellen"), then a second capital and run; stroke width varies along the
    pen path as a real pen's does. Returns the strokes' ink box."""
    import cv2
    rng = np.random.default_rng(seed)
    mask = np.zeros(arr.shape, np.uint8)
    pts = []
    cx = float(x)
    for word in range(2):
        # capital: a tall loop 1.6-2.2 x the letter height
        cap_h = height * rng.uniform(0.8, 1.0)
        t = np.linspace(0, 2 * np.pi, 40)
        pts += [(cx + 0.25 * cap_h * (1 - np.cos(tt)) + 4 * tt, y_base - cap_h * 0.5 * (1 - np.cos(tt / 2) ** 1) - 0.0)
                for tt in t]
        cx = pts[-1][0]
        n_loops = int(rng.integers(3, 6))
        for k in range(n_loops):
            r = height * rng.uniform(0.18, 0.45)
            v = r * rng.uniform(0.9, 1.3)
            t = np.linspace(0, 2 * np.pi, 24)
            pts += [(cx + v * tt / np.pi - 0.6 * r * np.sin(tt), y_base - r * (1 - np.cos(tt))) for tt in t]
            cx = pts[-1][0]
        cx += width * 0.06
    # scale into the width given
    xs = np.array([p[0] for p in pts])
    ys = np.array([p[1] for p in pts])
    xs = x + (xs - xs.min()) * (width / max(1.0, xs.max() - xs.min()))
    slant = 0.25
    xs = xs + slant * (y_base - ys)
    for i in range(len(xs) - 1):
        th = int(round(2 + 1.5 * (1 + np.sin(i / 5.0))))
        cv2.line(mask, (int(xs[i]), int(ys[i])), (int(xs[i + 1]), int(ys[i + 1])), 255, th, cv2.LINE_AA)
    arr[mask > 128] = np.minimum(arr[mask > 128], 20)
    yy, xx = np.nonzero(mask > 128)
    return (int(xx.min()), int(yy.min()), int(xx.max()) + 1, int(yy.max()) + 1)


def draw_photo(arr: np.ndarray, x: int, y: int, w: int, h: int, seed: int = 0):
    """A continuous-tone portrait stand-in: a smooth background gradient, a lit oval face and
    shoulders, film grain."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = 90 + 80 * (xx / w) + 10 * np.sin(yy / 9.0)
    face = ((xx - w / 2) / (0.28 * w)) ** 2 + ((yy - 0.4 * h) / (0.3 * h)) ** 2 < 1
    img[face] = 185 - 40 * ((xx[face] - w / 2) / w) ** 2 * 4
    body = ((xx - w / 2) / (0.45 * w)) ** 2 + ((yy - 1.05 * h) / (0.4 * h)) ** 2 < 1
    img[body] = 70
    img += rng.normal(0, 8, img.shape)
    arr[y:y + h, x:x + w] = np.clip(img, 45, 210).astype(np.uint8)
    return (x, y, x + w, y + h)


BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw_stamp(page: Image.Image, x: int, y: int, lines, ink=(35, 60, 190), shape: str = "rect",
               angle: float = 12.0, size: int = 30) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A rubber-stamp impression pressed onto ``page`` (RGB): lines of bold capitals inside a
    double outline (``"rect"``, ``"oval"`` or ``"circle"``), in one ink, turned by ``angle`` degrees, its
    turned extent's top-left at (x, y). Returns the page and the ink-tight box."""
    font = ImageFont.truetype(BOLD, size)
    widths = [font.getbbox(t)[2] for t in lines]
    lh = int(size * 1.35)
    tw, th = max(widths), lh * len(lines)
    if shape == "rect":
        w, h = int(tw + 1.6 * size), int(th + 1.4 * size)
    elif shape == "circle":
        w = h = int(max(tw, th) * 1.3 + size)
    else:
        w, h = int(tw * 1.5 + size), int(th * 1.6 + size)
    canvas = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(canvas)
    outline = d.rectangle if shape == "rect" else d.ellipse
    outline((2, 2, w - 3, h - 3), outline=255, width=4)
    outline((11, 11, w - 12, h - 12), outline=255, width=2)
    for i, t in enumerate(lines):
        d.text(((w - widths[i]) / 2, (h - th) / 2 + i * lh), t, fill=255, font=font)
    m = np.asarray(canvas.rotate(angle, expand=True, resample=Image.BICUBIC), dtype=np.float32)[..., None] / 255
    arr = np.asarray(page.convert("RGB"), dtype=np.float32).copy()
    region = arr[y:y + m.shape[0], x:x + m.shape[1]]
    region[:] = np.minimum(region, region * (1 - m) + np.array(ink, dtype=np.float32) * m)
    ys, xs = np.nonzero(m[..., 0] > 0.5)
    return (Image.fromarray(arr.astype(np.uint8)),
            (x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1))


def _text(draw, xy, text, size=22):
    draw.text(xy, text, fill=0, font=ImageFont.truetype(FONT, size))


def generated_pages():
    """(name, PIL RGB page, [(gold box, type)]) of each generated page."""
    out = []
    W, H = PAGE

    def base():
        img = Image.new("L", PAGE, 255)
        d = ImageDraw.Draw(img)
        for i, line in enumerate(BODY):
            _text(d, (110, 140 + 34 * i), line)
        return img, d

    # a QR code holding a URL, one an e-mail, one an account number beside its label
    for k, (label, payload, kind) in enumerate([
            ("Your profile:", "https://example.org/people/maria-gonzalez", "ONLINE_ID"),
            ("Contact:", "maria.gonzalez@example.com", "EMAIL"),
            ("Account No.", "ACCT 4471-2209-88", "ACCOUNT_NUMBER")]):
        img, d = base()
        _text(d, (110, 520), label)
        arr = np.array(img)
        box = draw_qr(arr, 400, 480, payload)
        out.append((f"qr-{k}", Image.fromarray(arr).convert("RGB"), [(box, kind)]))
    out.append(vcard_page(base))
    # a barcode beside "Order No."
    img, d = base()
    _text(d, (110, 560), "Order No.")
    arr = np.array(img)
    box, _code = draw_ean13(arr, 300, 520, "400638133393")
    out.append(("ean13", Image.fromarray(arr).convert("RGB"), [(box, "REFERENCE_NUMBER")]))
    # signatures: beside a label on a line, above a line with the label under it, under a
    # letter closing
    for k in range(3):
        img, d = base()
        if k == 0:
            _text(d, (110, 700), "Signature:")
            d.line((240, 722, 700, 722), fill=0, width=2)
            arr = np.array(img)
            box = draw_signature(arr, 270, 715, 300, 46, seed=k)
        elif k == 1:
            d.line((110, 760, 560, 760), fill=0, width=2)
            _text(d, (110, 768), "Signature of applicant")
            _text(d, (700, 768), "Date")
            arr = np.array(img)
            box = draw_signature(arr, 150, 752, 330, 52, seed=k)
        else:
            _text(d, (110, 640), "Yours sincerely,")
            _text(d, (110, 790), "Maria Gonzalez")
            arr = np.array(img)
            box = draw_signature(arr, 120, 745, 280, 50, seed=k)
        out.append((f"signature-{k}", Image.fromarray(arr).convert("RGB"), [(box, "SIGNATURE")]))
    # an ID photo on an application form
    img, d = base()
    _text(d, (110, 520), "Applicant photo")
    arr = np.array(img)
    box = draw_photo(arr, 110, 560, 220, 280, seed=3)
    out.append(("photo", Image.fromarray(arr).convert("RGB"), [(box, "OTHER")]))
    # print only: a typed signature block, a form with lines and boxes (no visual gold)
    img, d = base()
    _text(d, (110, 640), "Yours sincerely,")
    _text(d, (110, 700), "Signed: Maria Gonzalez")
    _text(d, (110, 740), "Head of Customer Accounts")
    d.line((110, 900, 600, 900), fill=0, width=2)
    _text(d, (110, 908), "Signature")
    for i in range(4):
        d.rectangle((700 + 40 * i, 880, 728 + 40 * i, 908), outline=0, width=2)
    out.append(("print-only", img.convert("RGB"), []))
    out += stamp_pages(base)
    return out


def vcard_page(base):
    """A QR code holding a contact card, no label beside it: the codes plugin says OTHER, the
    default text detectors read the card's name in its decoded text (PERSON)."""
    img, _ = base()
    arr = np.array(img)
    box = draw_qr(arr, 400, 480, "BEGIN:VCARD\nVERSION:3.0\nFN:Maria Gonzalez\nTEL:+1-555-201-4471\nEND:VCARD",
                  module=5)
    return ("qr-vcard", Image.fromarray(arr).convert("RGB"), [(box, "PERSON")])


def stamp_pages(base):
    """A letter with a blue received-stamp turned 12 degrees (a date and a name: PERSON, the
    most sensitive it holds), a grey scan with a double-ring oval stamp turned -8 degrees (a
    date and a file number: DATE), and a page with a red "COPY" stamp, a grey "ORIGINAL"
    oval and a blue letterhead with a phone number (no stamp of personal content: no gold,
    must stay)."""
    out = []
    img, _ = base()
    page, box = draw_stamp(img, 700, 380, ["RECEIVED", "14 MAR 2024", "Maria Gonzalez"])
    out.append(("stamp-colour", page, [(box, "PERSON")]))
    img, _ = base()
    page, box = draw_stamp(img, 620, 400, ["FILED", "2 APR 1984", "No. 4471"], ink=(45, 45, 45),
                           shape="oval", angle=-8.0)
    out.append(("stamp-grey", page.convert("L").convert("RGB"), [(box, "DATE")]))
    img, d = base()
    page = img.convert("RGB")
    from PIL import ImageFont
    # a letterhead printed in colour, square to the page: print, not a stamp
    ImageDraw.Draw(page).multiline_text((110, 20), "NORTHGATE SUPPLIES LTD\nTel. 020 7946 0321",
                                        fill=(20, 60, 160), font=ImageFont.truetype(BOLD, 28))
    page, _ = draw_stamp(page, 700, 380, ["COPY"], ink=(200, 35, 40), angle=10.0, size=40)
    page, _ = draw_stamp(page, 200, 700, ["ORIGINAL"], ink=(45, 45, 45), shape="oval", angle=-6.0)
    out.append(("stamp-no-content", page, []))
    return out
