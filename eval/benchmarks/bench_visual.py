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
from redactor_eval.benchmarks.visual_pages import generated_pages
from redactor.model import OcrPage, Redaction

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "pages.jsonl"
TAU = 0.5
VISUAL_TYPES_REAL = ("SIGNATURE",)


def load_detectors(names):
    from redactor import registry
    return [registry.create("visual", n) for n in names]


def default_text_detectors():
    """The default pipeline's text detectors: they type a code's decoded text (redactor.visual)."""
    from redactor import registry
    from redactor.config import DEFAULT_DETECTOR_OPTIONS, DEFAULT_DETECTORS
    return [registry.create("detector", n, **DEFAULT_DETECTOR_OPTIONS.get(n, {})) for n in DEFAULT_DETECTORS]


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


class SourceTally:
    """One visual detector's boxes on the real pages (stamps have no gold of their own): how
    many, how many touch no gold, the share of non-gold ink they hide on the pages they are
    on, and the golds lying mostly inside them, ink-covered without and with them."""

    def __init__(self):
        self.boxes = self.no_gold = self.pages = self.inside = 0
        self.covered_before = self.covered_after = 0
        self.inside_types = defaultdict(int)
        self.other_ink = self.other_hidden = 0

    def add(self, gray, golds, base, vis, source):
        H, W = gray.shape
        mine = [r for r in vis if (r.sources[0] if r.sources else "?") == source]
        ink = ink_mask(gray)
        other = ink & ~union_mask([b for b, _ in golds], W, H)
        self.pages += 1
        self.other_ink += int(other.sum())
        self.other_hidden += int((other & union_mask([r.bbox for r in mine], W, H)).sum())
        g_boxes = as_boxes([b for b, _ in golds]) if golds else np.zeros((0, 4))
        before, after = union_mask([r.bbox for r in base], W, H), union_mask([r.bbox for r in base + vis], W, H)
        for r in mine:
            self.boxes += 1
            if len(g_boxes) == 0 or iou_matrix(g_boxes, as_boxes([r.bbox])).max() <= 0:
                self.no_gold += 1
        for box, t in golds:
            if any(_share_inside(box, r.bbox) >= 0.5 for r in mine):
                self.inside += 1
                self.inside_types[t] += 1
                self.covered_before += gold_covered(ink, before, box)
                self.covered_after += gold_covered(ink, after, box)

    @property
    def collateral(self):
        return self.other_hidden / self.other_ink if self.other_ink else None


def _share_inside(box, outer) -> float:
    iw = max(0.0, min(box[2], outer[2]) - max(box[0], outer[0]))
    ih = max(0.0, min(box[3], outer[3]) - max(box[1], outer[1]))
    area = (box[2] - box[0]) * (box[3] - box[1])
    return iw * ih / area if area > 0 else 0.0


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
    by_source = defaultdict(SourceTally)
    texts = default_text_detectors()
    seconds = 0.0
    dumped = []
    for p in pages:
        image = Image.open(REAL.parent / p["image"]).convert("RGB")
        gray = np.asarray(image.convert("L"))
        golds = [(a["bbox"], a["type"]) for a in p["annotations"]]
        red, page = bases[p["page_id"]]
        t0 = time.perf_counter()
        vis = find_visual(detectors, image, page, red, text_detectors=texts)
        seconds += time.perf_counter() - t0
        for src in {r.sources[0] if r.sources else "?" for r in vis}:
            by_source[src].add(gray, golds, red, vis, src)
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
    for src, st in sorted(by_source.items()):
        print(f"{src}: {st.boxes} boxes on {st.pages} pages, {st.no_gold} touching no gold; collateral of its boxes"
              f" alone {fmt(st.collateral)}; gold inside its boxes {st.inside} "
              f"({dict(sorted(st.inside_types.items()))}), ink-covered before {st.covered_before}"
              f" after {st.covered_after}")
    sig_pages = [p for p in pages if any(a["type"] == "SIGNATURE" for a in p["annotations"])]
    print(f"visual detectors: {seconds / max(1, len(pages)):.2f} s/page "
          f"({len(sig_pages)} pages hold signatures)")
    return {"before": before, "after": after, "alone": alone}


def run_generated(detectors):
    from redactor import registry
    from redactor.visual import find_visual
    try:
        ocr = registry.create("ocr", "tesseract")
    except Exception as exc:  # no Tesseract: the visual detectors still run without words
        print(f"generated pages: no OCR ({exc}); labels unused")
        ocr = None
    texts = default_text_detectors()
    tally = Tally()
    seconds = 0.0
    pages = generated_pages()
    types = sorted({t for _, _, g in pages for _, t in g})
    fa_pages = []
    for name, image, golds in pages:
        page = ocr.read(image) if ocr else None
        t0 = time.perf_counter()
        vis = find_visual(detectors, image, page, text_detectors=texts)
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
    print(f"pages without visual gold (print only, stamps of no content), boxes: {'; '.join(fa_pages) or 'none'}")
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
