"""Redacts one input document (image, multi-page TIFF or PDF) into its output files.

Pages stream through: each is rendered, analysed, burned in, verified and written to the
output under a temporary name before the next is rendered, so a document of any length
takes the memory of one page (and of its small record). The outputs get their final names
only when every page succeeded, so a document with a failed page leaves no file that could
pass for its redacted version. The output keeps the input's format (``output_kind``) and,
page by page, its pixel size and resolution. The boxes file says where and what was hidden,
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
from redactor.errors import OutputError, RedactorError, VerificationFailed
from redactor.imageio import Page, is_pdf, is_tiff, pages_with_multi
from redactor.model import PageResult
from redactor.pdf_writer import ImagePdfWriter
from redactor.render import TiffPageWriter, atomic_outputs, save_png, scratch_file
from redactor.summary import readable_findings
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


# The suffixes a redacted output can have: ``<stem>.redacted.<kind>``.
OUTPUT_KINDS = ("png", "pdf", "tif")


def output_kind(path: Path, multi_page: bool) -> str:
    """The output format of an input, its own where it can be: a PDF gives a PDF, a TIFF (of
    one page or many) a TIFF, one page of any other image a PNG (JPEG would lose pixels to
    compression, GIF colours), several pages of one (an animated GIF or WebP) a PDF."""
    if is_pdf(path):
        return "pdf"
    if is_tiff(path):
        return "tif"
    return "pdf" if multi_page else "png"


def output_paths(out_dir: Path, stem: str, kind: str) -> tuple[Path, Path]:
    """(redacted document, boxes file) of ``stem`` in ``out_dir`` for an output ``kind``."""
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"unknown output kind {kind!r}")
    return Path(out_dir) / f"{stem}.redacted.{kind}", Path(out_dir) / f"{stem}.boxes.jsonl"


def existing_outputs(out_dir: Path, stem: str, published: bool = True,
                     quarantine: bool = True) -> list[Path]:
    """Files that hold a name the outputs of ``stem`` may take, in the folder itself
    (``published``) and in its quarantine: the redacted document in every format, and the
    boxes file."""
    found = []
    folders = [Path(out_dir)] * published + [Path(out_dir) / QUARANTINE_DIR] * quarantine
    for folder in folders:
        names = [output_paths(folder, stem, kind)[0] for kind in OUTPUT_KINDS]
        names.append(output_paths(folder, stem, "png")[1])
        found += [p for p in names if p.exists()]
    return found


class _PngPage:
    """The writer of a one-page output: the page as a PNG."""

    def __init__(self, path: Path):
        self.path, self.n_pages = Path(path), 0

    def add_page(self, image, dpi=None) -> None:
        if self.n_pages:
            raise OutputError(f"{self.path}: a PNG output holds one page")
        save_png(image, self.path, dpi)
        self.n_pages = 1

    def close(self) -> None:
        if not self.n_pages:
            raise OutputError(f"{self.path}: no page to write")

    def abort(self) -> None:
        pass


class PageSink:
    """The redacted pages of one input, written to ``spool`` (a scratch file in the output
    folder) as they come, in the input's format (``output_kind``), each page at its input
    page's resolution; ``publish_outputs`` moves the finished file into place. Use it as a
    context manager: the file is finished when the block succeeds, left unfinished (and
    never published) when it fails."""

    def __init__(self, source: Path, spool: Path):
        self.source, self.spool = Path(source), Path(spool)
        self.kind: str | None = None
        self._writer = None

    def add(self, page: Page, image, multi_page: bool) -> None:
        """Write ``image`` (the redacted ``page``); ``multi_page`` as ``pages_with_multi``
        says (it decides the format of an image file other than a TIFF)."""
        if self._writer is None:
            self.kind = output_kind(self.source, multi_page)
            self._writer = {"png": _PngPage, "tif": TiffPageWriter,
                            "pdf": ImagePdfWriter}[self.kind](self.spool)
        self._writer.add_page(image, page.dpi)

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if self._writer is None:
            if kind is None:
                raise OutputError(f"{self.source.name}: no pages to write")
        elif kind is None:
            self._writer.close()
        else:
            self._writer.abort()


def publish_outputs(out_dir: Path, stem: str, records: list[dict], page) -> tuple[Path, Path]:
    """Write ``<stem>.boxes.jsonl`` (the public form of ``records``) and the redacted
    document: ``page`` is a finished ``PageSink``, the image of a single page (a PNG), or
    the path of a finished multi-page PDF under a temporary name, moved into place. Both
    files appear together or not at all; boxes are renamed into place first, so a redacted
    page never exists without the record of what was hidden. A redacted output of ``stem``
    in another format (an earlier run's, or of an earlier version of the input) is removed:
    the new boxes file does not describe it. Returns (page path, boxes path)."""
    if isinstance(page, PageSink):
        kind, source = page.kind, page.spool
    else:
        kind, source = ("png", None) if hasattr(page, "save") else ("pdf", Path(page))
    target, boxes = output_paths(out_dir, stem, kind)
    lines = "".join(json.dumps(public_record(r)) + "\n" for r in records)
    with atomic_outputs([boxes, target]) as (tmp_boxes, tmp_target):
        tmp_boxes.write_text(lines, encoding="utf-8")
        if source is None:
            save_png(page, tmp_target)
        else:
            os.replace(source, tmp_target)
    for other in OUTPUT_KINDS:
        stale = output_paths(out_dir, stem, other)[0]
        try:
            if other != kind:
                stale.unlink(missing_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot remove the earlier output {stale}: {exc.strerror or exc}") from None
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
                    analyzer=None, progress=None) -> DocumentResult:
    """``analyzer`` (default: ``redactor``) finds the boxes and verifies the output; an
    ``IsolatedAnalyzer`` runs both in a killable child process. ``progress`` is called
    once per finished page (a progress bar's ``update``)."""
    cfg = redactor.config
    analyzer = analyzer or redactor
    verify = getattr(analyzer, "verify", None) or (lambda redacted, result: verify_page(redactor, redacted, result))
    path = Path(path)
    stem = stem or path.stem
    out_dir = Path(out_dir)
    results: list[PageResult] = []
    records: list[dict] = []
    with scratch_file(out_dir) as spool:
        with PageSink(path, spool) as sink:
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
                sink.add(page, redacted, multi)
                if progress is not None:
                    progress(1)
        failed = [r for r in results if r.verification and not r.verification["ok"]]
        quarantined = False
        if failed:
            where = (f"{path.name}: {len(failed)} page(s) failed verification, "
                     f"{readable_findings(failed)}")
            if cfg.on_verify_fail != "quarantine":
                raise VerificationFailed(where + " (nothing written; --on-verify-fail=quarantine keeps it aside)")
            out_dir, quarantined = out_dir / QUARANTINE_DIR, True
        target, boxes = publish_outputs(out_dir, stem, records, sink)
    return DocumentResult(path, target, boxes, results, quarantined, records)
