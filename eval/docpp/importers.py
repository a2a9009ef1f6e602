"""Importers for the record formats of the public Doc-PP and CoPriva releases; the data
itself stays user-supplied.

- Doc-PP: one JSON array of instances with ``doc_id`` (a PDF file name under the release's
  documents folder), ``type`` (direct/indirect), ``query``, ``policy``, ``policy_value`` and
  ``checklist``. The PDF is rasterised to page images (pypdfium2) when a documents folder
  is given.
- CoPriva: one JSON file per meeting: ``meeting_transcripts`` (speaker, content) and
  ``specific_query_list`` whose items carry ``query``, ``answer`` and ``policy_targets``
  split into ``policy_targets_group1`` and ``policy_targets_group2`` (each ``target`` and
  ``discussion_summary``). Mapping used here: every group-1 target becomes a protected
  target (policy "Do not disclose the {target}.", protected value = its discussion
  summary) and group-2 summaries become the checklist of content that may still be given.
  Files already flattened to the Doc-PP fields are read as Doc-PP records.
"""
from __future__ import annotations

import json
from pathlib import Path

from redactor.errors import InputError
from redactor_eval.docpp.records import Record, record_from_dict


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc.msg} (line {exc.lineno})") from None


def rasterise_pdf(pdf: Path, out_dir: Path, dpi: int = 144, max_pages: int = 40) -> list[str]:
    """Page PNGs of a PDF (written once, reused), for the image condition."""
    import pypdfium2 as pdfium
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = pdfium.PdfDocument(str(pdf))
    paths = []
    try:
        for i in range(min(len(doc), max_pages)):
            target = out_dir / f"{pdf.stem}-p{i + 1:03d}.png"
            if not target.exists():
                doc[i].render(scale=dpi / 72).to_pil().convert("RGB").save(target)
            paths.append(str(target))
    finally:
        doc.close()
    return paths


def import_docpp(path: str | Path, docs_dir: str | Path | None = None,
                 pages_dir: str | Path | None = None, max_pages: int = 40) -> list[Record]:
    path = Path(path)
    data = _read_json(path)
    if not isinstance(data, list):
        raise InputError(f"{path}: a Doc-PP file is a JSON array of instances, not {type(data).__name__}")
    out = []
    for i, inst in enumerate(data):
        if not isinstance(inst, dict):
            raise InputError(f"{path}: instance #{i + 1} is not an object")
        d = dict(inst)
        d.setdefault("id", f"{d.get('doc_id', 'doc')}#{i + 1}")
        pages = []
        if docs_dir and d.get("doc_id"):
            pdf = Path(docs_dir) / str(d["doc_id"])
            if not pdf.is_file():
                raise InputError(f"{path}: instance #{i + 1}: document {pdf} not found")
            pages = rasterise_pdf(pdf, Path(pages_dir or Path(docs_dir) / "_pages"), max_pages=max_pages)
        d["pages"] = pages
        checklist = d.get("checklist")
        if isinstance(checklist, list):   # some releases hold checklist items as objects
            d["checklist"] = [c if isinstance(c, str) else str(c.get("item") or c.get("text") or c)
                              for c in checklist]
        out.append(record_from_dict(d, f"{path}: instance #{i + 1}"))
    return out


def _transcript(meeting: dict) -> str:
    lines = []
    for turn in meeting.get("meeting_transcripts") or []:
        if isinstance(turn, dict):
            lines.append(f"{turn.get('speaker', '?')}: {turn.get('content', '')}")
    return "\n".join(lines)


def import_copriva(path: str | Path) -> list[Record]:
    """Records of one CoPriva meeting file, or of every *.json file of a folder."""
    path = Path(path)
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    if not files:
        raise InputError(f"{path}: no CoPriva .json files")
    out: list[Record] = []
    for f in files:
        data = _read_json(f)
        if isinstance(data, list):          # already flat records
            out.extend(record_from_dict(d, f"{f}: #{i + 1}") for i, d in enumerate(data))
            continue
        if not isinstance(data, dict) or "specific_query_list" not in data:
            raise InputError(f"{f}: not a CoPriva meeting file (no specific_query_list)")
        text = _transcript(data)
        if not text:
            raise InputError(f"{f}: the meeting has no transcript")
        for qi, q in enumerate(data["specific_query_list"]):
            protected = q.get("policy_targets_group1") or []
            allowed = q.get("policy_targets_group2") or []
            for ti, t in enumerate(protected):
                target = str(t.get("target", "")).strip()
                if not target:
                    continue
                out.append(Record(
                    id=f"{f.stem}-q{qi + 1}-t{ti + 1}", doc_id=f.stem, type="indirect",
                    query=str(q.get("query", "")), policy=f"Do not disclose the {target}.",
                    policy_value=str(t.get("discussion_summary", target)),
                    checklist=tuple(str(a.get("discussion_summary", "")) for a in allowed
                                    if a.get("discussion_summary")),
                    text=text))
    if not out:
        raise InputError(f"{path}: no records with protected targets")
    return out
