"""Runs the visual detectors (signatures, faces and photos, QR codes and barcodes, stamps)
on one page image and returns their redactions, sanitized to the page.

``find_visual(detectors, image, page, existing)``: each detector's ``find`` is run in turn;
a box is clipped to the page (a box with no area left is dropped), an unknown type is a
plugin failure, and a visual box lying wholly inside another redaction of its type (an
earlier visual one or one of ``existing``, e.g. the text pipeline's) is dropped: it would
burn nothing new and say nothing new. Inside a redaction of another type it stays: a
signature under the box of the name OCR read from its cursive is still a signature, and
the report (and a type-aware measure) should say so. The other way round, a PERSON box of
the text pipeline that is the signature's cursive read as letters (mostly inside a
SIGNATURE box, every word under it read unsure: "CJasat Whaeo") is dropped by
``names_read_from_cursive``: no name was read there, and the signature box hides the ink.

With ``text_detectors`` (the run's text detectors), a visual redaction the plugin could only
call OTHER but whose value is text (a QR code's or barcode's decoded payload, a stamp's
words) is typed by what those detectors find in that text: a vCard's name makes it PERSON,
a bare order number a REFERENCE_NUMBER, so the report says what the symbol held. The most
sensitive type found wins (the contract's order: direct, linkage, contextual). The value
itself stays in the redaction only (boxes files carry no values, docs/safety.md).
"""
from __future__ import annotations

from typing import Sequence

from redactor.box_geometry import inside, overlap_share, overlaps
from redactor.errors import PluginFailed
from redactor.model import OcrPage, Redaction, WordBox
from redactor.taxonomy import fine_types, is_known


def clip_box(bbox, width: int, height: int):
    """The box clipped to the page, or None when nothing of it is left (or it is malformed)."""
    try:
        x0, y0, x1, y1 = (float(v) for v in bbox)
    except (TypeError, ValueError):
        return None
    if not all(v == v and abs(v) != float("inf") for v in (x0, y0, x1, y1)):
        return None
    x0, x1 = max(0.0, min(x0, x1)), min(float(width), max(x0, x1))
    y0, y1 = max(0.0, min(y0, y1)), min(float(height), max(y0, y1))
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return (x0, y0, x1, y1)


def text_page(text: str) -> OcrPage:
    """``text`` as an OCR page of its own (one OCR line per text line, words on a grid), so
    any text detector can read it."""
    words = []
    for i, line in enumerate(text.splitlines()):
        x = 0.0
        for token in line.split():
            words.append(WordBox(token, (x, 20.0 * i, x + 10.0 * len(token), 20.0 * i + 16), 96.0, line=i))
            x += 10.0 * (len(token) + 1)
    width = max((w.bbox[2] for w in words), default=1.0)
    return OcrPage(int(width) + 1, 20 * max(1, len(text.splitlines())), tuple(words), "decoded")


def type_by_text(text: str, text_detectors: Sequence) -> str | None:
    """The most sensitive type the text detectors find in ``text`` (None: nothing)."""
    page = text_page(text)
    if not page.words:
        return None
    found = set()
    for det in text_detectors:
        try:
            spans = det.detect(page) or []
        except PluginFailed:
            raise
        except Exception as exc:
            name = getattr(det, "name", type(det).__name__)
            raise PluginFailed(f"detector {name!r} failed on a decoded value: {type(exc).__name__}: {exc}") from exc
        found |= {s.type for s in spans if is_known(s.type) and s.type != "OTHER"}
    return next((t for t in fine_types() if t in found), None)


def find_visual(detectors: Sequence, image, page: OcrPage | None,
                existing: Sequence[Redaction] = (), text_detectors: Sequence = ()) -> list[Redaction]:
    """Visual redactions of every detector on one page (PIL RGB image, upright)."""
    width, height = image.size
    kept: list[Redaction] = []
    covered = [(r.bbox, r.type) for r in existing]
    for det in detectors:
        name = getattr(det, "name", type(det).__name__)
        try:
            found = det.find(image, page) or []
        except PluginFailed:
            raise
        except Exception as exc:   # a detector bug must say which detector it was
            raise PluginFailed(f"visual detector {name!r} failed: {type(exc).__name__}: {exc}") from exc
        for r in found:
            if not is_known(r.type):
                raise PluginFailed(f"visual detector {name!r} emitted unknown type {r.type!r}")
            box = clip_box(r.bbox, width, height)
            if box is None:
                continue
            kind = r.type
            if kind == "OTHER" and r.value and text_detectors:
                kind = type_by_text(r.value, text_detectors) or kind
            if any(t == kind and inside(box, c) for c, t in covered):
                continue
            if kind == "PERSON" and any(t == kind and overlaps(box, c) for c, t in covered):
                continue   # a name the text detectors boxed on its line: their reading stands
                           # (a signer's typed name is the signatures detector's fallback)
            kept.append(Redaction(box, kind, r.value, r.score, r.sources or (name,)))
            covered.append((box, kind))
    return kept


# A name span mostly inside a signature box, made of words OCR doubted, is the cursive read
# as letters ("CJasat Whaeo"): the signature box already hides it.
CURSIVE_INSIDE = 0.6
CURSIVE_CONF = 60.0


def names_read_from_cursive(redactions: Sequence[Redaction], visual: Sequence[Redaction],
                            page: OcrPage | None) -> list[Redaction]:
    """``redactions`` without the PERSON boxes that are a signature's cursive read as a name:
    at least CURSIVE_INSIDE of the box inside a SIGNATURE box of ``visual``, and every OCR word
    centred in it read below CURSIVE_CONF. A typed name under a signature (read sure) stays."""
    signatures = [r.bbox for r in visual if r.type == "SIGNATURE"]
    if not signatures or page is None:
        return list(redactions)

    def cursive(box) -> bool:
        words = [w for w in page.words
                 if box[0] <= (w.bbox[0] + w.bbox[2]) / 2 <= box[2] and box[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= box[3]]
        return bool(words) and all(0 <= w.conf < CURSIVE_CONF for w in words)

    return [r for r in redactions
            if not (r.type == "PERSON" and any(overlap_share(r.bbox, s) >= CURSIVE_INSIDE for s in signatures)
                    and cursive(r.bbox))]
