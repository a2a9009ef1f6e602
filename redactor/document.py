"""Redacts one input document (image, multi-page TIFF or PDF) into its output files.

Pages stream through: each is rendered, analysed, burned in, verified and written to the
output under a temporary name before the next is rendered, so a document of any length
takes the memory of one page (and of its small record). The outputs get their final names
only when every page succeeded, so a document with a failed page leaves no file that could
pass for its redacted version. The boxes file says where and what was hidden,
not the hidden text (``redactor.audit``); the full records stay on the result for an audit
file.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from redactor.audit import public_record
from redactor.errors import RedactorError, VerificationFailed
from redactor.imageio import is_pdf, pages_with_multi
from redactor.model import PageResult
from redactor.pdf_writer import ImagePdfWriter
from redactor.render import atomic_outputs, save_png, scratch_file
from redactor.verify import second_pass_redactions, verify_page


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


def existing_outputs(out_dir: Path, stem: str, published: bool = True,
                     quarantine: bool = True) -> list[Path]:
    """Files that hold a name the outputs of ``stem`` may take, in the folder itself
    (``published``) and in its quarantine."""
    found = []
    folders = [Path(out_dir)] * published + [Path(out_dir) / QUARANTINE_DIR] * quarantine
    for folder in folders:
        single, boxes = output_paths(Path(stem), folder, stem, multi_page=False)
        multi, _ = output_paths(Path(stem), folder, stem, multi_page=True)
        found += [p for p in (single, multi, boxes) if p.exists()]
    return found


def publish_outputs(out_dir: Path, stem: str, records: list[dict], page) -> tuple[Path, Path]:
    """Write ``<stem>.boxes.jsonl`` (the public form of ``records``) and the redacted page:
    ``page`` is the image of a single page, or the path of a finished multi-page PDF under a
    temporary name, moved into place. Both files appear together or not at all; boxes are
    renamed into place first, so a redacted page never exists without the record of what
    was hidden. Returns (page path, boxes path)."""
    multi = not hasattr(page, "save")
    target, boxes = output_paths(Path(stem), Path(out_dir), stem, multi)
    lines = "".join(json.dumps(public_record(r)) + "\n" for r in records)
    with atomic_outputs([boxes, target]) as (tmp_boxes, tmp_target):
        tmp_boxes.write_text(lines, encoding="utf-8")
        if multi:
            os.replace(page, tmp_target)
        else:
            save_png(page, tmp_target)
    return target, boxes


def remove_stale_outputs(out_dir: Path, stem: str, published: bool = True) -> list[Path]:
    """The outputs an earlier run wrote for ``stem`` (in the folder and its quarantine),
    removed: after a failed re-run they would pass for the redaction of the input as it is
    now. Returns what was removed."""
    removed = []
    for path in existing_outputs(out_dir, stem, published=published):
        if path.is_file():
            path.unlink()
            removed.append(path)
    return removed


def _verify_and_fix(redactor, verify, image, redacted, result: PageResult):
    """Verify ``redacted``; when the re-read finds something, burn those boxes too (a
    second pass over the original page with the added redactions; types the run was told
    to leave are not burned, they fail the page), and verify once more.
    Sets ``result.verification`` (with what the second pass added: count and types, the
    values stay in the findings, which the published record drops) and returns the page to
    write."""
    first = verify(redacted, result).to_json()
    added = [] if first["ok"] else second_pass_redactions(first, redactor.types)
    if not added:
        result.verification = first
        return redacted
    result.redactions = list(result.redactions) + added
    redacted = redactor.render(image, result.redactions)
    final = verify(redacted, result).to_json()
    final["second_pass"] = {"added": len(added),
                            "types": dict(sorted(Counter(r.type for r in added).items())),
                            "first_findings": len(first["findings"])}
    result.verification = final
    return redacted


def redact_document(redactor, path: Path, out_dir: Path, stem: str | None = None,
                    analyzer=None) -> DocumentResult:
    """``analyzer`` (default: ``redactor``) finds the boxes and verifies the output; an
    ``IsolatedAnalyzer`` runs both in a killable child process."""
    cfg = redactor.config
    analyzer = analyzer or redactor
    verify = getattr(analyzer, "verify", None) or (lambda redacted, result: verify_page(redactor, redacted, result))
    path = Path(path)
    stem = stem or path.stem
    out_dir = Path(out_dir)
    results: list[PageResult] = []
    records: list[dict] = []
    single_image = None
    pdf_in = is_pdf(path)
    dpi = cfg.pdf_dpi if pdf_in else 200
    with scratch_file(out_dir) as spool:
        writer = None
        try:
            for page, multi in pages_with_multi(path, cfg.max_pixels, cfg.pdf_dpi):
                page_id = f"{stem}-p{page.index + 1:04d}" if multi else stem
                try:
                    result = analyzer.analyze(page.image, page_id=page_id)
                    redacted = redactor.render(page.image, result.redactions)
                    if cfg.verify:
                        redacted = _verify_and_fix(redactor, verify, page.image, redacted, result)
                except RedactorError as exc:
                    raise type(exc)(f"{path.name} page {page.index + 1}: {exc}") from exc
                records.append(result.prediction_json(redactor.system_name))
                result.ocr = None   # the words of every page of a long document add up
                results.append(result)
                if multi:
                    writer = writer or ImagePdfWriter(spool, dpi)
                    writer.add_page(redacted)
                else:
                    single_image = redacted
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        multi = writer is not None
        failed = [r for r in results if r.verification and not r.verification["ok"]]
        quarantined = False
        if failed:
            first = failed[0].verification["findings"][0]
            where = (f"{path.name}: {len(failed)} page(s) failed verification, e.g. page "
                     f"{failed[0].page_id}: {first['type']} {first['reason']} at {first['bbox']}")
            if cfg.on_verify_fail != "quarantine":
                raise VerificationFailed(where + " (nothing written; --on-verify-fail=quarantine keeps it aside)")
            out_dir, quarantined = out_dir / QUARANTINE_DIR, True
        target, boxes = publish_outputs(out_dir, stem, records, spool if multi else single_image)
    return DocumentResult(path, target, boxes, results, quarantined, records)
