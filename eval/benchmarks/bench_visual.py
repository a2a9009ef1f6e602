"""Visual PII (issue 32): signatures, faces and photos, QR codes and barcodes, stamps.

Two parts:
- real: the real dev set's SIGNATURE gold (eval/data/real, split dev). The default text
  pipeline runs on each page (its OCR words also feed the visual detectors), then the
  visual redactions are added. Per visual type: recall at IoU 0.5 (typed), ink coverage
  (the contract's: >= 98 % of the gold's ink under any predicted box), and collateral
  (share of ink outside every gold box that the boxes hide), before and after; the visual
  boxes' own collateral and their false alarms (boxes touching no gold); seconds per page
  of the visual detectors.
- generated: rendered pages with a QR code (URL, e-mail, account), a barcode, a signature
  drawn as pen strokes beside "Signature:", a photo block, and pages of print only; with
  ink-tight gold from the render. Same figures per type.

``python -m redactor_eval.benchmarks.bench_visual [--base PREDS.jsonl] [--ocr-cache DIR]
[--detectors signatures,codes,faces,stamps] [--no-real] [--no-generated]``
``--base`` reuses a `redactor predict` run on the split (its .ocr.jsonl beside it);
otherwise the default pipeline runs here (with ``--ocr-cache`` when given).
"""
from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

from redactor_eval.ink import gold_covered, ink_mask, union_mask
from redactor_eval.matching import as_boxes, greedy_match, iou_matrix
from redactor.model import OcrPage, Redaction

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "pages.jsonl"
TAU = 0.5
VISUAL_TYPES_REAL = ("SIGNATURE",)


def load_detectors(names):
    from redactor import registry
    return [registry.create("visual", n) for n in names]


# -- measures --------------------------------------------------------------------------------
class Tally:
    """Per-type gold counts, IoU-0.5 typed matches, ink-covered golds; pooled collateral."""

    def __init__(self):
        self.gold = defaultdict(int)
        self.matched = defaultdict(int)
        self.matched_loc = defaultdict(int)     # any predicted type (localisation only)
        self.covered = defaultdict(int)
        self.other_ink = 0
        self.other_hidden = 0
        self.false_alarms = defaultdict(int)
        self.predicted = defaultdict(int)

    def add(self, gray, golds, preds, types, visual=()):
        """golds: [(box, type)], preds: [Redaction] (all boxes), types: types to count;
        visual: the visual redactions among preds (for false alarms)."""
        H, W = gray.shape
        ink = ink_mask(gray)
        hidden = union_mask([p.bbox for p in preds], W, H)
        gold_area = union_mask([b for b, _ in golds], W, H)
        other = ink & ~gold_area
        self.other_ink += int(other.sum())
        self.other_hidden += int((other & hidden).sum())
        g_boxes = as_boxes([b for b, _ in golds]) if golds else np.zeros((0, 4))
        for t in types:
            g_idx = [i for i, (_, gt) in enumerate(golds) if gt == t]
            p_t = [p for p in preds if p.type == t]
            self.gold[t] += len(g_idx)
            for i in g_idx:
                self.covered[t] += gold_covered(ink, hidden, golds[i][0])
            if g_idx and preds:
                iou = iou_matrix(as_boxes([golds[i][0] for i in g_idx]), as_boxes([p.bbox for p in preds]))
                self.matched_loc[t] += int((greedy_match(iou, np.ones_like(iou, dtype=bool), TAU) >= 0).sum())
            if g_idx and p_t:
                iou = iou_matrix(as_boxes([golds[i][0] for i in g_idx]), as_boxes([p.bbox for p in p_t]))
                m = greedy_match(iou, np.ones_like(iou, dtype=bool), TAU)
                self.matched[t] += int((m >= 0).sum())
        for r in visual:
            self.predicted[r.type] += 1
            if len(g_boxes) == 0 or iou_matrix(g_boxes, as_boxes([r.bbox])).max() <= 0:
                self.false_alarms[r.type] += 1

    def row(self, t):
        g = self.gold[t]
        return {"gold": g, "recall_iou50": self.matched[t] / g if g else None,
                "loc_recall_iou50": self.matched_loc[t] / g if g else None,
                "ink_covered": self.covered[t] / g if g else None}

    @property
    def collateral(self):
        return self.other_hidden / self.other_ink if self.other_ink else None


def fmt(v):
    return "  -  " if v is None else f"{v:.3f}"


# -- real dev pages ----------------------------------------------------------------------------
def real_pages(split: str = "dev"):
    pages = []
    for line in REAL.read_text().splitlines():
        p = json.loads(line)
        if p.get("split") == split:
            pages.append(p)
    return pages


def base_predictions(pages, base: str | None, ocr_cache: str | None):
    """page_id -> (base redactions, OcrPage)."""
    out = {}
    if base:
        preds = {r["page_id"]: r for r in map(json.loads, Path(base).read_text().splitlines())}
        ocr_path = Path(base).with_suffix("").as_posix() + ".ocr.jsonl"
        ocr = {r["page_id"]: r for r in map(json.loads, Path(ocr_path).read_text().splitlines())}
        for p in pages:
            red = [Redaction.from_json(r) for r in preds[p["page_id"]]["predictions"]]
            out[p["page_id"]] = (red, OcrPage.from_json(ocr[p["page_id"]]))
        return out
    from redactor.config import RedactorConfig
    from redactor.ocr_cache import OcrCache, image_hash
    from redactor.pipeline import Redactor
    red = Redactor(RedactorConfig())
    cache = OcrCache(ocr_cache) if ocr_cache else None
    fp = red.ocr.fingerprint() if cache else ""
    for p in pages:
        image = Image.open(REAL.parent / p["image"]).convert("RGB")
        hit = cache.get(fp, image_hash(image)) if cache else None
        if hit:
            page = hit[0]
        else:
            page = red.read(image)
            if cache:
                cache.put(fp, image_hash(image), page, 0.0)
        res = red.analyze_ocr(page, image, p["page_id"])
        out[p["page_id"]] = (res.redactions, page)
    return out


def run_real(detectors, base, ocr_cache, dump: str | None = None, split: str = "dev"):
    from redactor.visual import find_visual
    pages = real_pages(split)
    bases = base_predictions(pages, base, ocr_cache)
    before, after, alone = Tally(), Tally(), Tally()
    sig_before, sig_after = Tally(), Tally()     # the pages that hold signatures
    other_types = defaultdict(int)
    seconds = 0.0
    dumped = []
    for p in pages:
        image = Image.open(REAL.parent / p["image"]).convert("RGB")
        gray = np.asarray(image.convert("L"))
        golds = [(a["bbox"], a["type"]) for a in p["annotations"]]
        red, page = bases[p["page_id"]]
        t0 = time.perf_counter()
        vis = find_visual(detectors, image, page, red)
        seconds += time.perf_counter() - t0
        before.add(gray, golds, red, VISUAL_TYPES_REAL)
        after.add(gray, golds, red + vis, VISUAL_TYPES_REAL, vis)
        alone.add(gray, golds, vis, VISUAL_TYPES_REAL)
        if any(t == "SIGNATURE" for _, t in golds):
            sig_before.add(gray, golds, red, VISUAL_TYPES_REAL)
            sig_after.add(gray, golds, red + vis, VISUAL_TYPES_REAL)
        for r in vis:
            if r.type not in VISUAL_TYPES_REAL:
                other_types[f"{r.sources[0] if r.sources else '?'}:{r.type}"] += 1
        dumped.append({"page_id": p["page_id"], "system": "default+visual",
                       "predictions": [r.to_json() for r in red + vis], "error": None})
    if dump:
        Path(dump).write_text("".join(json.dumps(d) + "\n" for d in dumped))
    print(f"real {split} pages: {len(pages)}; visual detectors: {', '.join(d.name for d in detectors)}")
    print(f"{'type':<12}{'gold':>5}  {'recall@.5 before':>16} {'after':>6}  {'ink-covered before':>18} {'after':>6}"
          f"  {'visual boxes':>12} {'touching no gold':>16}")
    for t in VISUAL_TYPES_REAL:
        b, a = before.row(t), after.row(t)
        print(f"{t:<12}{b['gold']:>5}  {fmt(b['recall_iou50']):>16} {fmt(a['recall_iou50']):>6}  "
              f"{fmt(b['ink_covered']):>18} {fmt(a['ink_covered']):>6}  {after.predicted[t]:>12} "
              f"{after.false_alarms[t]:>16}")
    for t in VISUAL_TYPES_REAL:
        print(f"{t} recall@.5 by location only (any predicted type): before "
              f"{fmt(before.row(t)['loc_recall_iou50'])}  after {fmt(after.row(t)['loc_recall_iou50'])}")
    print(f"collateral (all boxes): before {fmt(before.collateral)}  after {fmt(after.collateral)};"
          f" visual boxes alone {fmt(alone.collateral)}")
    print(f"collateral on the pages with signatures: before {fmt(sig_before.collateral)}"
          f"  after {fmt(sig_after.collateral)}")
    print("other visual boxes on these pages (no such gold here): "
          + (", ".join(f"{k} {v}" for k, v in sorted(other_types.items())) or "none"))
    sig_pages = [p for p in pages if any(a["type"] == "SIGNATURE" for a in p["annotations"])]
    print(f"visual detectors: {seconds / max(1, len(pages)):.2f} s/page "
          f"({len(sig_pages)} pages hold signatures)")
    return {"before": before, "after": after, "alone": alone}


# -- generated pages -------------------------------------------------------------------------
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


def _text(draw, xy, text, size=22):
    from PIL import ImageFont
    draw.text(xy, text, fill=0, font=ImageFont.truetype(FONT, size))


def generated_pages():
    """(name, PIL RGB page, [(gold box, type)]) of each generated page."""
    from PIL import ImageDraw
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
    return out


def run_generated(detectors):
    from redactor import registry
    from redactor.visual import find_visual
    try:
        ocr = registry.create("ocr", "tesseract")
    except Exception as exc:  # no Tesseract: the visual detectors still run without words
        print(f"generated pages: no OCR ({exc}); labels unused")
        ocr = None
    tally = Tally()
    seconds = 0.0
    pages = generated_pages()
    types = sorted({t for _, _, g in pages for _, t in g})
    fa_pages = []
    for name, image, golds in pages:
        page = ocr.read(image) if ocr else None
        t0 = time.perf_counter()
        vis = find_visual(detectors, image, page)
        seconds += time.perf_counter() - t0
        tally.add(np.asarray(image.convert("L")), golds, vis, types, vis)
        if not golds and vis:
            fa_pages.append(f"{name}: {', '.join(r.type for r in vis)}")
    print(f"generated pages: {len(pages)}")
    print(f"{'type':<18}{'gold':>5} {'recall@.5':>10} {'ink-covered':>12} {'boxes':>6} {'touching no gold':>17}")
    for t in types:
        r = tally.row(t)
        print(f"{t:<18}{r['gold']:>5} {fmt(r['recall_iou50']):>10} {fmt(r['ink_covered']):>12} "
              f"{tally.predicted[t]:>6} {tally.false_alarms[t]:>17}")
    others = sorted(set(tally.predicted) - set(types))
    for t in others:
        print(f"{t:<18}{0:>5} {'':>10} {'':>12} {tally.predicted[t]:>6} {tally.false_alarms[t]:>17}")
    print(f"collateral (visual boxes): {fmt(tally.collateral)}; "
          f"visual detectors {seconds / len(pages):.2f} s/page")
    print(f"print-only page false alarms: {'; '.join(fa_pages) or 'none'}")
    return tally


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="predictions of the default pipeline on the dev split")
    ap.add_argument("--ocr-cache", help="OCR cache folder (when --base is not given)")
    ap.add_argument("--detectors", default="signatures,codes,faces,stamps")
    ap.add_argument("--dump", help="write default+visual predictions of the real dev pages here")
    ap.add_argument("--split", default="dev", help="real pages of this split (heldout: a final "
                    "figure only, never for tuning)")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--no-generated", action="store_true")
    args = ap.parse_args(argv)
    from redactor import registry
    names = [n for n in args.detectors.split(",") if n and n in registry.names("visual")]
    detectors = load_detectors(names)
    if not args.no_generated:
        run_generated(detectors)
    if not args.no_real and REAL.exists():
        run_real(detectors, args.base, args.ocr_cache, args.dump, args.split)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
