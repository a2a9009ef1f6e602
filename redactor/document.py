"""Redacts one input document (image, multi-page TIFF or PDF) into its output files.

All pages are analysed and rendered in memory first; the outputs are written (each
atomically) only when every page succeeded, so a document with a failed page leaves no file
that could pass for its redacted version. The boxes file says where and what was hidden,
not the hidden text (``redactor.audit``); the full records stay on the result for an audit
file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from redactor.audit import public_record
from redactor.errors import RedactorError, VerificationFailed
from redactor.imageio import is_pdf, read_pages
from redactor.model import PageResult
from redactor.render import atomic_outputs, save_pdf, save_png
from redactor.verify import verify_page


# where `redact` keeps pages that failed verification, inside the output folder
QUARANTINE_DIR = "quarantine"


@dataclass
class DocumentResult:
    source: Path
    output: Path
    boxes: Path
    pages: list[PageResult]
    quarantined: bool = False
    records: list[dict] = field(default_factory=list)   # full page records, hidden values included

    @property
    def n_redactions(self) -> int:
        return sum(len(p.redactions) for p in self.pages)


def output_paths(path: Path, out_dir: Path, stem: str, multi_page: bool) -> tuple[Path, Path]:
    suffix = "pdf" if multi_page else "png"
    return out_dir / f"{stem}.redacted.{suffix}", out_dir / f"{stem}.boxes.jsonl"


def remove_stale_outputs(out_dir: Path, stem: str) -> list[Path]:
    """The outputs an earlier run wrote for ``stem`` (in the folder and its quarantine),
    removed: after a failed re-run they would pass for the redaction of the input as it is
    now. Returns what was removed."""
    removed = []
    for folder in (Path(out_dir), Path(out_dir) / QUARANTINE_DIR):
        single, boxes = output_paths(Path(stem), folder, stem, multi_page=False)
        multi, _ = output_paths(Path(stem), folder, stem, multi_page=True)
        for path in (single, multi, boxes):
            if path.is_file():
                path.unlink()
                removed.append(path)
    return removed


def redact_document(redactor, path: Path, out_dir: Path, stem: str | None = None,
                    analyzer=None) -> DocumentResult:
    """``analyzer`` (default: ``redactor``) finds the boxes; an ``IsolatedAnalyzer`` runs
    that in a killable child process."""
    cfg = redactor.config
    analyzer = analyzer or redactor
    path = Path(path)
    stem = stem or path.stem
    pages = list(read_pages(path, max_pixels=cfg.max_pixels, pdf_dpi=cfg.pdf_dpi))
    results, images = [], []
    for page in pages:
        page_id = stem if len(pages) == 1 else f"{stem}-p{page.index + 1:04d}"
        try:
            result = analyzer.analyze(page.image, page_id=page_id)
        except RedactorError as exc:
            raise type(exc)(f"{path.name} page {page.index + 1}: {exc}") from exc
        redacted = redactor.render(page.image, result.redactions)
        if cfg.verify:
            result.verification = verify_page(redactor, redacted, result).to_json()
        results.append(result)
        images.append(redacted)
    failed = [r for r in results if r.verification and not r.verification["ok"]]
    quarantined = False
    if failed:
        first = failed[0].verification["findings"][0]
        where = (f"{path.name}: {len(failed)} page(s) failed verification, e.g. page "
                 f"{failed[0].page_id}: {first['type']} {first['reason']} at {first['bbox']}")
        if cfg.on_verify_fail != "quarantine":
            raise VerificationFailed(where + " (nothing written; --on-verify-fail=quarantine keeps it aside)")
        out_dir, quarantined = Path(out_dir) / QUARANTINE_DIR, True
    pdf_in = is_pdf(path)
    multi = pdf_in or len(pages) > 1
    target, boxes = output_paths(path, Path(out_dir), stem, multi)
    records = [r.prediction_json(redactor.system_name) for r in results]
    lines = "".join(json.dumps(public_record(r)) + "\n" for r in records)
    # Both files appear together or not at all; boxes are renamed into place first, so a
    # redacted page never exists without the record of what was hidden.
    with atomic_outputs([boxes, target]) as (tmp_boxes, tmp_target):
        tmp_boxes.write_text(lines, encoding="utf-8")
        if multi:
            save_pdf(images, tmp_target, dpi=cfg.pdf_dpi if pdf_in else 200)
        else:
            save_png(images[0], tmp_target)
    return DocumentResult(path, target, boxes, results, quarantined, records)
