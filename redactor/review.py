"""Review before burning: a preview of the proposed boxes, and burning a reviewed boxes file.

``redactor redact --preview`` analyses each page as usual but burns nothing: it writes
``<stem>.preview.png`` (``<stem>-p0001.preview.png``, ... for a document of several pages),
the page with each proposed box outlined in the colour of its risk group and labelled
"TYPE · source", and ``<stem>.boxes.jsonl``, the same boxes file a normal run writes (no
hidden values; the page's pixel size added). The preview shows the unredacted page: it is
written owner-only (0600) and is not for publishing.

``redactor apply INPUT --boxes FILE`` burns the boxes of a (possibly edited) boxes file onto
INPUT without OCR, page by page, and writes the normal outputs atomically. A boxes file that
does not fit the input (page ids or count, a box off its page, a page size that differs, bad
JSON, an unknown type) is refused before anything is written.
"""
from __future__ import annotations

import glob
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from redactor.audit import public_record
from redactor.box_geometry import intersection
from redactor.document import OUTPUT_KINDS, PageSink, output_paths, publish_outputs
from redactor.errors import InputError, OutputError, RedactorError
from redactor.imageio import is_pdf, pages_with_multi, read_pages
from redactor.model import PageResult, Redaction
from redactor.render import TEMP_PREFIX, TEMP_SUFFIX, atomic_outputs, burn_in, pixel_rect, save_png, scratch_file
from redactor.taxonomy import group_of, is_known

# Outline colour of each risk group (taxonomy.yaml): strong, distinct, readable on paper.
GROUP_COLOURS = {
    "direct": (220, 20, 20),        # red: names, addresses, e-mail, phone
    "linkage": (255, 130, 0),       # orange: account, ID, card, reference numbers
    "contextual": (0, 100, 230),    # blue: dates, places, organisations
    "other": (150, 40, 200),        # purple: signatures, OTHER (deny list)
}
OUTLINE = 3           # px, drawn just outside the box so the value stays readable
PREVIEW_MODE = 0o600  # the preview shows the unredacted page
MANUAL_SOURCE = "manual"   # the source of a box added to a boxes file by hand


def page_id(stem: str, index: int, multi: bool) -> str:
    """The page id a run gives page ``index`` (0-based) of the document ``stem``."""
    return f"{stem}-p{index + 1:04d}" if multi else stem


def preview_paths(out_dir: Path, stem: str, n_pages: int, multi: bool) -> list[Path]:
    if not multi:
        return [Path(out_dir) / f"{stem}.preview.png"]
    return [Path(out_dir) / f"{page_id(stem, i, True)}.preview.png" for i in range(n_pages)]


def existing_previews(out_dir: Path, stem: str) -> list[Path]:
    out_dir = Path(out_dir)
    found = [out_dir / f"{stem}.preview.png"]
    found += sorted(Path(p) for p in glob.glob(str(out_dir / f"{glob.escape(stem)}-p[0-9][0-9][0-9][0-9].preview.png")))
    return [p for p in found if p.is_file()]


# -- drawing ------------------------------------------------------------------------------
def _label(r: Redaction) -> str:
    return f"{r.type} · {'+'.join(r.sources) if r.sources else 'unknown'}"


def draw_preview(image: Image.Image, redactions: Sequence[Redaction], pad: float = 0.0) -> Image.Image:
    """A fresh RGB copy of ``image`` with each box (grown by ``pad``, as it would be burned)
    outlined in its group's colour and labelled with its type and source. Labels go above
    or below their box, at its left or right end, wherever they overlap other labels and
    boxes least."""
    src = image.convert("RGB")
    out = Image.frombytes("RGB", src.size, src.tobytes())
    width, height = out.size
    draw = ImageDraw.Draw(out)
    font_px = max(11, min(22, round(height / 110)))
    try:
        font = ImageFont.load_default(size=font_px)
    except (TypeError, OSError):   # Pillow without FreeType
        font = ImageFont.load_default()
    rects = []
    for r in redactions:
        rect = pixel_rect(r.bbox, width, height, pad)
        if rect is None:
            continue
        colour = GROUP_COLOURS.get(group_of(r.type), (0, 0, 0)) if is_known(r.type) else (0, 0, 0)
        x0, y0, x1, y1 = rect
        outline = (max(0, x0 - OUTLINE), max(0, y0 - OUTLINE),
                   min(width - 1, x1 - 1 + OUTLINE), min(height - 1, y1 - 1 + OUTLINE))
        draw.rectangle(outline, outline=colour, width=OUTLINE)
        rects.append((r, colour, outline))
    placed: list[tuple[float, float, float, float]] = []
    boxes = [o for _, _, o in rects]
    for r, colour, (x0, y0, x1, y1) in rects:
        text = _label(r)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        lw, lh = right - left + 6, bottom - top + 4
        candidates = [(x0, y0 - lh), (x0, y1 + 1), (x1 + 1 - lw, y0 - lh), (x1 + 1 - lw, y1 + 1),
                      (x1 + 2, y0), (x0 - lw - 1, y0)]
        best, best_cost = None, math.inf
        for order, (lx, ly) in enumerate(candidates):
            lx = min(max(0, lx), max(0, width - lw))
            ly = min(max(0, ly), max(0, height - lh))
            cand = (lx, ly, lx + lw, ly + lh)
            cost = (10 * sum(intersection(cand, p) for p in placed)
                    + sum(intersection(cand, b) for b in boxes) + order)
            if cost < best_cost:
                best, best_cost = cand, cost
        placed.append(best)
        draw.rectangle((best[0], best[1], best[2] - 1, best[3] - 1), fill=colour)
        draw.text((best[0] + 3 - left, best[1] + 2 - top), text, font=font, fill=(255, 255, 255))
    return out


# -- preview ------------------------------------------------------------------------------
@dataclass
class PreviewResult:
    source: Path
    previews: list[Path]
    boxes: Path
    pages: list[PageResult]
    records: list[dict] = field(default_factory=list)   # full records (hidden values included)

    @property
    def n_redactions(self) -> int:
        return sum(len(p.redactions) for p in self.pages)

    @property
    def output(self) -> Path:
        return self.previews[0] if len(self.previews) == 1 else self.previews[0].parent


def _owner_only(path: Path) -> None:
    os.chmod(path, PREVIEW_MODE)


def preview_document(redactor, path: Path, out_dir: Path, stem: str | None = None,
                     analyzer=None, replace: bool = False) -> PreviewResult:
    """Analyse every page of ``path`` and write its preview image(s) and boxes file to
    ``out_dir``, all together or none. With ``replace``, earlier previews of ``stem`` and
    an earlier redacted output (which the new boxes file would not describe) are removed."""
    cfg = redactor.config
    analyzer = analyzer or redactor
    path, out_dir = Path(path), Path(out_dir)
    stem = stem or path.stem
    results: list[PageResult] = []
    records: list[dict] = []
    scratch: list[Path] = []
    try:
        multi = False
        for page, multi in pages_with_multi(path, cfg.max_pixels, cfg.pdf_dpi):
            pid = page_id(stem, page.index, multi)
            try:
                result = analyzer.analyze(page.image, page_id=pid)
            except RedactorError as exc:
                raise type(exc)(f"{path.name} page {page.index + 1}: {exc}") from exc
            record = result.prediction_json(redactor.system_name)
            record.update(width=page.image.width, height=page.image.height)
            records.append(record)
            result.ocr = None
            results.append(result)
            with scratch_file(out_dir) as tmp:
                save_png(draw_preview(page.image, result.redactions, cfg.pad), tmp)
                kept = tmp.with_name(f"{TEMP_PREFIX}preview-{len(scratch)}-{os.getpid()}{TEMP_SUFFIX}")
                os.replace(tmp, kept)
            scratch.append(kept)
            _owner_only(kept)
        previews = preview_paths(out_dir, stem, len(results), multi)
        boxes = out_dir / f"{stem}.boxes.jsonl"
        lines = "".join(json.dumps(public_record(r)) + "\n" for r in records)
        stale = [p for p in existing_previews(out_dir, stem) if p not in previews] if replace else []
        with atomic_outputs([boxes, *previews]) as (tmp_boxes, *tmp_previews):
            tmp_boxes.write_text(lines, encoding="utf-8")
            for kept, tmp in zip(scratch, tmp_previews):
                os.replace(kept, tmp)
                _owner_only(tmp)
    except OSError as exc:
        raise OutputError(f"cannot write to {out_dir}: {exc.strerror or exc}") from None
    finally:
        for kept in scratch:
            kept.unlink(missing_ok=True)
    if replace:
        for old in stale + [output_paths(out_dir, stem, kind)[0] for kind in OUTPUT_KINDS]:
            if old.is_file():
                old.unlink()
    return PreviewResult(path, previews, boxes, results, records)


# -- reading a boxes file -----------------------------------------------------------------
def _finite_box(value, where: str) -> tuple[float, float, float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        raise InputError(f"{where}: \"bbox\" must be [x0, y0, x1, y1], not {value!r}")
    try:
        box = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: \"bbox\" must hold 4 numbers, not {value!r}") from None
    if isinstance(value[0], bool) or not all(math.isfinite(v) for v in box):
        raise InputError(f"{where}: \"bbox\" must hold 4 finite numbers, not {value!r}")
    x0, y0, x1, y1 = box
    if not (x1 > x0 and y1 > y0):
        raise InputError(f"{where}: \"bbox\" {list(value)} is empty or reversed (x0 < x1, y0 < y1)")
    return box   # type: ignore[return-value]


def read_boxes_file(path: Path) -> list[dict]:
    """The records of a boxes file, checked line by line (InputError naming the line):
    ``page_id`` and ``predictions``, each prediction with a 4-number ``bbox`` and a known
    ``type``; ``score`` and ``sources`` optional (a box added by hand gets the source
    "manual")."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"boxes file {path} not found") from None
    except IsADirectoryError:
        raise InputError(f"boxes file {path} is a folder") from None
    except UnicodeDecodeError:
        raise InputError(f"boxes file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read boxes file {path}: {exc.strerror or exc}") from None
    records: list[dict] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path.name} line {n}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON ({exc.msg})") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("page_id"), str):
            raise InputError(f"{where}: a record needs a \"page_id\" string")
        if rec["page_id"] in seen:
            raise InputError(f"{where}: page {rec['page_id']!r} appears twice")
        seen.add(rec["page_id"])
        if rec.get("error"):
            raise InputError(f"{where}: page {rec['page_id']!r} failed in the run that wrote "
                             f"this file; its boxes are not complete")
        preds = rec.get("predictions")
        if not isinstance(preds, list):
            raise InputError(f"{where}: \"predictions\" must be a list")
        boxes = []
        for i, p in enumerate(preds):
            pw = f"{where}, box {i + 1}"
            if not isinstance(p, dict):
                raise InputError(f"{pw}: must be an object with \"bbox\" and \"type\"")
            bbox = _finite_box(p.get("bbox"), pw)
            ptype = p.get("type")
            if not isinstance(ptype, str) or not is_known(ptype):
                from redactor.taxonomy import fine_types
                raise InputError(f"{pw}: unknown type {ptype!r} (known: {', '.join(fine_types())})")
            score = p.get("score", 1.0)
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                raise InputError(f"{pw}: \"score\" must be a number, not {score!r}")
            sources = p.get("sources") or [MANUAL_SOURCE]
            if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
                raise InputError(f"{pw}: \"sources\" must be a list of names")
            boxes.append(Redaction(bbox, ptype, "", float(score), tuple(sources)))
        size = None
        if "width" in rec or "height" in rec:
            w, h = rec.get("width"), rec.get("height")
            if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (w, h)):
                raise InputError(f"{where}: \"width\" and \"height\" must be positive whole numbers")
            size = (w, h)
        records.append({"line": n, "page_id": rec["page_id"], "system": rec.get("system"),
                        "boxes": boxes, "size": size})
    if not records:
        raise InputError(f"boxes file {path} has no pages")
    return records


# -- apply --------------------------------------------------------------------------------
@dataclass
class ApplyResult:
    source: Path
    output: Path
    boxes: Path
    n_pages: int
    n_redactions: int


def _check_page(rec: dict, image: Image.Image, boxes_name: str) -> None:
    where = f"{boxes_name} line {rec['line']} (page {rec['page_id']})"
    if rec["size"] is not None and rec["size"] != image.size:
        raise InputError(f"{where}: made for a {rec['size'][0]}x{rec['size'][1]} page, but the input's "
                         f"page is {image.width}x{image.height} (same --pdf-dpi as the preview?)")
    for i, r in enumerate(rec["boxes"]):
        x0, y0, x1, y1 = r.bbox
        if x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height:
            raise InputError(f"{where}, box {i + 1}: {[round(v, 2) for v in r.bbox]} lies off the "
                             f"{image.width}x{image.height} page")


def apply_document(path: Path, boxes_file: Path, out_dir: Path, stem: str | None = None, *,
                   fill: str = "black", pad: float = 0.0, max_pixels: int, pdf_dpi: int) -> ApplyResult:
    """Burn the boxes of ``boxes_file`` onto the pages of ``path``; write the redacted
    document in the input's format (``document.output_kind``: ``<stem>.redacted.png``,
    ``.pdf`` or ``.tif``, each page at its input's resolution) and ``<stem>.boxes.jsonl``
    to ``out_dir``, together or not at all."""
    path, boxes_file, out_dir = Path(path), Path(boxes_file), Path(out_dir)
    stem = stem or path.stem
    records = read_boxes_file(boxes_file)
    multi = is_pdf(path) or len(records) > 1
    by_id = {r["page_id"]: r for r in records}
    expected = [page_id(stem, i, multi) for i in range(len(records))]
    if set(by_id) != set(expected):
        wrong = sorted(set(by_id) - set(expected))[:1] or sorted(set(expected) - set(by_id))[:1]
        raise InputError(f"{boxes_file.name} does not match {path.name}: page id {wrong[0]!r} "
                         f"(expected {expected[0]!r}{' ...' if len(expected) > 1 else ''}; the boxes "
                         f"file of another input?)")
    out_records: list[dict] = []
    n_boxes = n_pages = 0
    with scratch_file(out_dir) as spool:
        with PageSink(path, spool) as sink:
            for page in read_pages(path, max_pixels=max_pixels, pdf_dpi=pdf_dpi):
                n_pages += 1
                if page.index >= len(records):
                    raise InputError(f"{boxes_file.name} does not match {path.name}: the input has more "
                                     f"pages than the boxes file ({len(records)})")
                rec = by_id[expected[page.index]]
                _check_page(rec, page.image, boxes_file.name)
                burned = burn_in(page.image, rec["boxes"], fill=fill, pad=pad)
                n_boxes += len(rec["boxes"])
                out_records.append({"page_id": rec["page_id"], "system": rec["system"] or "apply",
                                    "predictions": [r.to_json() for r in rec["boxes"]], "error": None,
                                    "width": page.image.width, "height": page.image.height})
                sink.add(page, burned, multi)
            if n_pages != len(records):
                raise InputError(f"{boxes_file.name} does not match {path.name}: the input has "
                                 f"{n_pages} page(s), the boxes file {len(records)}")
        target, boxes_out = publish_outputs(out_dir, stem, out_records, sink)
    return ApplyResult(path, target, boxes_out, n_pages, n_boxes)
