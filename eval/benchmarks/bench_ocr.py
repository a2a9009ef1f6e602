"""Benchmark of the tesseract OCR backend on scan-like pages: word recall and seconds per
page with scan clean-up off and on, per kind of degradation, measured in one run.

Pages are rendered here with Pillow and system fonts (a letter, a key-value form and a ruled
table, with Faker names, addresses and numbers), then degraded the way real office scans
are: 75-200 dpi, sensor noise and blur, JPEG, fax-style 1-bit dithering at 204x98 dpi,
faint ink on an uneven background, faint ink dithered into dots by a 1-bit scan, 1-2
degree skew, pages fed in sideways or upside down. A known word
counts as recalled when the backend returns the same text (case and surrounding punctuation
ignored) with a box whose centre lies inside the word's true box (grown by a third of its
height) in the pixel space of the degraded image, so wrong box mapping costs recall too.

Run: ``python -m redactor_eval.benchmarks.bench_ocr [--pages N] [--settings a,b] [--kinds k1,k2]``.
"""
from __future__ import annotations

import argparse
import io
import os
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_FILES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
]

Word = tuple[str, tuple[float, float, float, float]]


@dataclass
class Page:
    image: Image.Image
    words: list[Word]


# ----------------------------------------------------------------------- rendering
def render_page(seed: int, dpi: int = 300) -> Page:
    """A Letter-size page at ``dpi`` with a letter paragraph, a form and a table."""
    from faker import Faker

    rng = random.Random(seed)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    w, h = int(8.5 * dpi), int(11 * dpi)
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    font_file = FONT_FILES[seed % len(FONT_FILES)]
    pt = rng.choice([9, 10, 11])
    font = ImageFont.truetype(font_file, int(round(pt * dpi / 72)))
    big = ImageFont.truetype(font_file, int(round(16 * dpi / 72)))
    words: list[Word] = []
    margin = int(0.9 * dpi)
    line_h = int(font.size * 1.45)

    def put(x: float, y: float, text: str, f=font) -> float:
        """Draw words one by one (so each true box is known); returns the x after."""
        space = draw.textlength(" ", font=f)
        for token in text.split():
            draw.text((x, y), token, font=f, fill="black")
            box = draw.textbbox((x, y), token, font=f)
            words.append((token, tuple(float(v) for v in box)))
            x += draw.textlength(token, font=f) + space
        return x

    y = margin
    put(margin, y, fake.company(), big)
    y += int(big.size * 1.6)
    for line in (fake.street_address(), f"{fake.city()}, {fake.state_abbr()} {fake.zipcode()}",
                 f"Tel: {fake.phone_number()}"):
        put(margin, y, line)
        y += line_h
    y += line_h
    put(margin, y, f"Dear {fake.name()},")
    y += line_h * 1.5
    text = " ".join(fake.paragraph(nb_sentences=6) for _ in range(2))
    x, max_x = margin, w - margin
    for token in text.split():
        tw = draw.textlength(token, font=font)
        if x + tw > max_x:
            x, y = margin, y + line_h
        x = put(x, y, token)
    y += line_h * 2
    # A reverse-video section header, as on most printed forms, with a reference in it.
    band_h = int(font.size * 1.9)
    draw.rectangle([margin, y, w - margin, y + band_h], fill=(40, 40, 40))
    header = f"APPLICANT INFORMATION Claim No. {fake.bothify('??-#######').upper()}"
    space = draw.textlength(" ", font=font)
    x = margin + int(font.size * 0.5)
    for token in header.split():
        draw.text((x, y + (band_h - font.size) // 2), token, font=font, fill="white")
        box = draw.textbbox((x, y + (band_h - font.size) // 2), token, font=font)
        words.append((token, tuple(float(v) for v in box)))
        x += draw.textlength(token, font=font) + space
    y += band_h + line_h // 2
    labels = [("Name:", fake.name()), ("Account No.:", fake.bothify("##-####-####")),
              ("Date of birth:", fake.date(pattern="%m/%d/%Y")), ("Email:", fake.email()),
              ("Address:", fake.address().replace("\n", ", ")), ("SSN:", fake.ssn())]
    for label, value in labels:
        put(margin, y, label)
        put(margin + int(2.2 * dpi), y, value)
        y += line_h
    y += line_h
    cols = [margin, margin + int(1.6 * dpi), margin + int(3.9 * dpi), margin + int(5.4 * dpi)]
    right = w - margin
    rows = [["Invoice", "Description", "Date", "Amount"]] + [
        [fake.bothify("INV-#####"), fake.word().capitalize() + " " + fake.word(),
         fake.date(pattern="%Y-%m-%d"), f"${rng.randint(10, 9999)}.{rng.randint(0, 99):02d}"]
        for _ in range(5)]
    row_h = int(line_h * 1.3)
    top = y
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            put(cols[c] + 12, y + (row_h - font.size) // 2, cell)
        y += row_h
    stroke = max(1, dpi // 150)
    for r in range(len(rows) + 1):
        draw.line([(cols[0], top + r * row_h), (right, top + r * row_h)], fill="black", width=stroke)
    for x in cols + [right]:
        draw.line([(x, top), (x, top + len(rows) * row_h)], fill="black", width=stroke)
    # Fine print, as at the foot of statements and policies: 6.5 pt.
    small = ImageFont.truetype(font_file, int(round(6.5 * dpi / 72)))
    y += line_h * 2
    fine = (f"Member {fake.name()} policy {fake.bothify('??-#######').upper()} "
            f"issued {fake.date(pattern='%m/%d/%Y')}. " + fake.paragraph(nb_sentences=3))
    x = margin
    for token in fine.split():
        tw = draw.textlength(token, font=small)
        if x + tw > max_x:
            x, y = margin, y + int(small.size * 1.4)
        x = put(x, y, token, small)
    return Page(img, words)


# ----------------------------------------------------------------------- degradations
def _scale(page: Page, sx: float, sy: float, resample=Image.LANCZOS) -> Page:
    w, h = page.image.size
    nw, nh = max(1, round(w * sx)), max(1, round(h * sy))
    img = page.image.resize((nw, nh), resample)
    fx, fy = nw / w, nh / h
    return Page(img, [(t, (b[0] * fx, b[1] * fy, b[2] * fx, b[3] * fy)) for t, b in page.words])


def _noise(img: Image.Image, sigma: float, rng: np.random.Generator) -> Image.Image:
    arr = np.asarray(img).astype(np.float32)
    arr += rng.normal(0, sigma, arr.shape[:2])[..., None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


def _jpeg(img: Image.Image, quality: int) -> Image.Image:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def _rotate(page: Page, angle: float) -> Page:
    """Rotate counter-clockwise about the centre with an expanded white canvas, as a
    skewed or sideways feed would; true boxes become the hull of their rotated corners."""
    w, h = page.image.size
    img = page.image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor="white")
    nw, nh = img.size
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)

    def tx(x, y):
        dx, dy = x - w / 2, y - h / 2
        return (c * dx + s * dy + nw / 2, -s * dx + c * dy + nh / 2)

    words = []
    for t, (x0, y0, x1, y1) in page.words:
        pts = [tx(x0, y0), tx(x1, y0), tx(x1, y1), tx(x0, y1)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        words.append((t, (min(xs), min(ys), max(xs), max(ys))))
    return Page(img, words)


def degrade(page: Page, kind: str, seed: int) -> Page:
    """The page as a scanner of the given ``kind`` would deliver it (page rendered at 300 dpi)."""
    rng = np.random.default_rng(seed)
    if kind == "clean300":
        return page
    if kind == "low100":          # cheap 100 dpi scan, slight softness
        p = _scale(page, 1 / 3, 1 / 3, Image.BILINEAR)
        return Page(p.image.filter(ImageFilter.GaussianBlur(0.4)), p.words)
    if kind == "low75jpg":        # phone-app or e-mailed scan: 75 dpi, soft, JPEG
        p = _scale(page, 0.25, 0.25, Image.BILINEAR)
        return Page(_jpeg(p.image.filter(ImageFilter.GaussianBlur(0.3)), 50), p.words)
    if kind == "noisy150":        # 150 dpi, blur, sensor noise, strong JPEG
        p = _scale(page, 0.5, 0.5)
        img = _noise(p.image.filter(ImageFilter.GaussianBlur(0.7)), 18, rng)
        return Page(_jpeg(img, 35), p.words)
    if kind == "noisy200":        # the common office setting: 200 dpi, soft, noise, JPEG
        p = _scale(page, 2 / 3, 2 / 3)
        img = _noise(p.image.filter(ImageFilter.GaussianBlur(0.8)), 14, rng)
        return Page(_jpeg(img, 40), p.words)
    if kind == "fax":             # 204x98 dpi, 1-bit Floyd-Steinberg dithered, grey ink
        p = _scale(page, 204 / 300, 98 / 300)
        arr = np.asarray(p.image.convert("L")).astype(np.float32)
        arr = 255 - (255 - arr) * 0.75          # toner does not reach full black
        speck = rng.random(arr.shape)            # line noise: isolated black and white dots
        arr[speck < 0.004] = 0
        arr[speck > 0.996] = 255
        img = Image.fromarray(arr.astype(np.uint8)).convert("1").convert("RGB")
        img.info["dpi"] = (204, 98)   # as Pillow reports a fax TIFF's resolution
        return Page(img, p.words)
    if kind == "faint150":        # light ink on an uneven, darkened background
        p = _scale(page, 0.5, 0.5)
        arr = np.asarray(p.image.convert("L")).astype(np.float32) / 255.0
        hh, ww = arr.shape
        yy, xx = np.mgrid[0:hh, 0:ww]
        paper = 225 - 60 * (xx / ww) * (yy / hh) - 25 * np.exp(-((xx - ww * 0.3) ** 2) / (0.1 * ww * ww))
        ink = paper - 85
        img = paper * arr + ink * (1 - arr)
        img = _noise(Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).convert("RGB"), 6, rng)
        return Page(img, p.words)
    if kind == "skew2_150":       # 150 dpi, 1.7 degree skew, light noise
        p = _rotate(_scale(page, 0.5, 0.5), 1.7)
        return Page(_jpeg(_noise(p.image, 8, rng), 60), p.words)
    if kind == "dotted200":       # faint copy scanned 1-bit at 200 dpi, then softened (JPEG)
        p = _scale(page, 2 / 3, 2 / 3)
        arr = np.asarray(p.image.convert("L")).astype(np.float32)
        arr = 255 - (255 - arr) * 0.4           # light toner: dithering leaves sparse dots
        img = Image.fromarray(arr.astype(np.uint8)).convert("1").convert("RGB")
        return Page(_jpeg(img.filter(ImageFilter.GaussianBlur(0.5)), 75), p.words)
    if kind == "rot90_200":       # fed in sideways at 200 dpi
        p = _rotate(_scale(page, 2 / 3, 2 / 3), 90)
        return Page(_jpeg(p.image, 75), p.words)
    if kind == "rot180_150":      # fed in upside down at 150 dpi
        p = _rotate(_scale(page, 0.5, 0.5), 180)
        return Page(_jpeg(p.image, 75), p.words)
    raise ValueError(f"unknown degradation {kind!r}")


KINDS = ["clean300", "low100", "low75jpg", "noisy150", "noisy200", "fax", "dotted200",
         "faint150", "skew2_150", "rot90_200", "rot180_150"]


# ----------------------------------------------------------------------- scoring
def norm(text: str) -> str:
    return text.strip(".,;:!?()[]\"'").lower()


def recall(truth: list[Word], read: list[Word]) -> tuple[int, int, int]:
    """(words with text found anywhere, words found with a box on them, total words)."""
    by_text: dict[str, list] = defaultdict(list)
    for t, b in read:
        by_text[norm(t)].append(b)
    pool = Counter(norm(t) for t, _ in read)
    found_text = located = 0
    for t, (x0, y0, x1, y1) in truth:
        key = norm(t)
        if pool[key] > 0:
            pool[key] -= 1
            found_text += 1
        grow = (y1 - y0) / 3
        for b in by_text.get(key, []):
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if x0 - grow <= cx <= x1 + grow and y0 - grow <= cy <= y1 + grow:
                located += 1
                break
    return found_text, located, len(truth)


SETTINGS = {
    # Tesseract as plain pytesseract users run it: the image as given.
    "raw": dict(preprocess=False, scale=1.0, orientation="off", reread=False),
    # Resolution estimate and upscaling only.
    "scale": dict(preprocess=False, scale="auto", orientation="off", reread=False),
    # The backend's defaults (clean-up, scaling, deskew, orientation).
    "default": dict(),
    # Defaults plus the re-read of unsure lines and unread ink.
    "reread": dict(reread=True),
    # Defaults plus ruling-line removal.
    "rules": dict(remove_rules=True),
    # The speed settings measured for issue 7 (docs/ocr.md, "Speed"): the upscale target
    # before (30 px) and around the default (20 px), and without Tesseract's own retry of
    # unsure words inverted (the clean-up turns reverse-video bands the right way round).
    "t30": dict(target_height=30),
    "t24": dict(target_height=24),
    "t16": dict(target_height=16),
    "noinvert": dict(try_inverted=False),
    # The backend of algorithm revision 2: big text read at full size, no joining or
    # repair of broken strokes, orientation detection whenever the first read is weak.
    "previous": dict(join_broken=False, repair=False, orientation_check="read",
                     shrink_above="off"),
    # Defaults without Tesseract's table finder (forms with underlined fields).
    "notables": dict(find_tables=False),
}


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    from redactor_plugins.tesseract_ocr import TesseractOcr

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2, help="pages per degradation")
    parser.add_argument("--settings", default="raw,scale,default,reread",
                        help=f"comma-separated, from {','.join(SETTINGS)}")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated degradations")
    args = parser.parse_args(argv)
    reason = TesseractOcr.unavailable_reason()
    if reason:
        print(f"bench_ocr: skipped: {reason}")
        return 0
    settings = [s for s in args.settings.split(",") if s]
    kinds = [k for k in args.kinds.split(",") if k]
    backends = {s: TesseractOcr(**SETTINGS[s]) for s in settings}
    pages = [render_page(seed) for seed in range(args.pages)]
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    print(f"tesseract OCR benchmark: {args.pages} page(s) per degradation; "
          f"recall = words read / located (text and box right) out of known words")
    print(f"{'degradation':<11} {'setting':<8} {'text recall':>11} {'located':>8} {'s/page':>7}")
    for kind in kinds:
        degraded = [degrade(p, kind, seed=i) for i, p in enumerate(pages)]
        for s in settings:
            found = loc = total = 0
            seconds = 0.0
            for page in degraded:
                t0 = time.perf_counter()
                ocr = backends[s].read(page.image)
                seconds += time.perf_counter() - t0
                f, lc, n = recall(page.words, [(wd.text, wd.bbox) for wd in ocr.words])
                found, loc, total = found + f, loc + lc, total + n
            acc = totals[s]
            for i, value in enumerate((found, loc, total, seconds, len(degraded))):
                acc[i] += value
            print(f"{kind:<11} {s:<8} {found / total:>11.3f} {loc / total:>8.3f} "
                  f"{seconds / len(degraded):>7.2f}", flush=True)
    print("-" * 49)
    for s in settings:
        f, lc, n, sec, np_ = totals[s]
        print(f"{'ALL':<11} {s:<8} {f / n:>11.3f} {lc / n:>8.3f} {sec / np_:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
