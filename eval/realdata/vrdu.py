"""Draft specs for pages of VRDU's FARA registration forms (registration-form/ only; the
ad-buy forms are reserved), for a person to check and correct on an overlay
(``eval.realdata.overlay``) before ``checked`` is set.

The page is rendered as the spec records it (150 dpi, grey). Its words come from the PDF's
text layer where that covers the page content (the modern filings carry an OCR layer over
the scan), else from Tesseract on the rendered image (the old typewritten scans). Many first
pages also carry an invisible "Document Metadata" block ("REGISTRANT NAME=...,
REGISTRATION NUMBER=..."): it is never annotated, only used to know which names and
numbers to look for on the visible page. Proposals are by shape (dates, the "Received by
NSD/FARA Registration Unit" stamp, phones, e-mails, the registration number) and by the
metadata's names; the checker adds people, addresses and signatures and fixes the boxes.

    python -m redactor_eval.realdata.vrdu draft --repo VRDU_DIR "registration-form/main/pdfs/X.pdf:1"
    python -m redactor_eval.realdata.vrdu words --repo VRDU_DIR "registration-form/main/pdfs/X.pdf:1"
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import yaml

from redactor_eval.realdata.sources import (COMMITS, check_not_reserved, pixel_sha256, read_source_file,
                                   source_image)
from redactor_eval.realdata.spec import assign_split

DPI = 150
META_LINE = re.compile(r"^([A-Z][A-Z /()]+)=(.*)$")
META_NAMES = {"REGISTRANT NAME": "ORGANIZATION", "FOREIGN PRINCIPAL NAME": "ORGANIZATION",
              "SHORT FORM NAME": "PERSON", "DOING BUSINESS AS": "ORGANIZATION"}
# The FARA export's accessibility notice, drawn invisibly on some first pages.
NOTICE = re.compile(r"The Department of Justice recognizes.*?you are requesting\.?", re.S)
STAMP = re.compile(r"\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}:\d{2}\s*[AP]M")
DATE = re.compile(r"\b(\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2,4}|(jan|feb|mar|apr|may|jun|jul|aug|sep|"
                  r"oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?,?\s*\d{4})\b", re.I)
PHONE = re.compile(r"\(?\d{3}\)?[\s.\-/]*\d{3}[\s.\-]\d{4}")
EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(\.[\w\-]+)+")


def split_metadata(text: str) -> tuple[dict[str, str], int]:
    """The invisible metadata block's fields and the number of its characters at the top."""
    if not text.startswith("Document Metadata"):
        return {}, 0
    fields, end, pos = {}, 0, 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        m = META_LINE.match(line.strip())
        if line.startswith("Document Metadata") or m:
            end = pos
            if m:
                fields[m.group(1).strip()] = m.group(2).strip()
        else:
            break
    return fields, end


def layer_lines(data: bytes, page: int) -> tuple[dict[str, str], list[list[dict]]]:
    """Metadata fields and the text layer (less the invisible metadata block and notice) as
    lines of words, boxes in pixels."""
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(data)
    try:
        pg = pdf[page - 1]
        height = pg.get_height()
        tp = pg.get_textpage()
        n = tp.count_chars()
        text = tp.get_text_range(0, n)
        meta, skip = split_metadata(text)
        hidden = {i for m in NOTICE.finditer(text) for i in range(m.start(), m.end())}
        k = DPI / 72
        lines, words, word = [], [], None
        for i in range(skip, n):
            ch = text[i] if i < len(text) and i not in hidden else " "
            if ch in "\r\n":
                if word:
                    words.append(word)
                word = None
                if words:
                    lines.append(words)
                words = []
                continue
            if ch.isspace():
                if word:
                    words.append(word)
                word = None
                continue
            left, b, r, t = tp.get_charbox(i)
            box = [left * k, (height - t) * k, r * k, (height - b) * k]
            if word is None:
                word = {"text": ch, "bbox": box}
            else:
                word["text"] += ch
                wb = word["bbox"]
                word["bbox"] = [min(wb[0], box[0]), min(wb[1], box[1]),
                                max(wb[2], box[2]), max(wb[3], box[3])]
        if word:
            words.append(word)
        if words:
            lines.append(words)
        return meta, lines
    finally:
        pdf.close()


def ocr_lines(image) -> list[list[dict]]:
    import pytesseract
    d = pytesseract.image_to_data(image, output_type=pytesseract.Output.DICT)
    lines: dict[tuple, list[dict]] = {}
    for i, t in enumerate(d["text"]):
        if t.strip() and float(d["conf"][i]) >= 0:
            x, y, w, h = d["left"][i], d["top"][i], d["width"][i], d["height"][i]
            key = (d["block_num"][i], d["par_num"][i], d["line_num"][i])
            lines.setdefault(key, []).append({"text": t, "bbox": [x, y, x + w, y + h]})
    return list(lines.values())


def page_words(repo: Path, path: str, page: int):
    """(image, metadata fields, lines of words, where the words came from)."""
    data = read_source_file(repo, COMMITS["vrdu"][1], path, "vrdu")
    image = source_image("vrdu", data, page, DPI)
    meta, lines = layer_lines(data, page)
    parts = name_parts(path)              # pages without the metadata block: names from the file
    if len(parts) > 1:
        meta.setdefault("REGISTRANT NAME", parts[1])
    if len(parts) > 3 and parts[-1] == "Short-Form":
        meta.setdefault("SHORT FORM NAME", parts[2].strip(" &"))
    if sum(len(w["text"]) for ln in lines for w in ln) >= 40:
        return image, meta, lines, "text layer"
    return image, meta, ocr_lines(image), "tesseract"


def union(words: list[dict]) -> list[float]:
    return [round(min(w["bbox"][0] for w in words), 1), round(min(w["bbox"][1] for w in words), 1),
            round(max(w["bbox"][2] for w in words), 1), round(max(w["bbox"][3] for w in words), 1)]


def match_span(line: list[dict], start: int, end: int) -> list[dict]:
    """The words of ``line`` covering characters [start, end) of its space-joined text."""
    out, pos = [], 0
    for w in line:
        a, b = pos, pos + len(w["text"])
        if a < end and b > start:
            out.append(w)
        pos = b + 1
    return out


def name_patterns(meta: dict[str, str]) -> list[tuple[re.Pattern, str]]:
    """Patterns for the names the metadata states, to find them on the visible page."""
    out = []
    for key, fine in META_NAMES.items():
        value = meta.get(key, "")
        names = re.split(r"\s*,\s*(?=[A-Z])", value) if key == "FOREIGN PRINCIPAL NAME" else [value]
        for name in names:
            if not name or name == "N/A" or len(name) <= 3:
                continue
            if key == "SHORT FORM NAME" and "," in name:          # "Last, First": either order
                last, first = (re.escape(s.strip()) for s in name.split(",", 1))
                out.append((re.compile(rf"{first}.{{0,20}}{last}|{last},?\s+{first}", re.I), fine))
            else:
                out.append((re.compile(re.escape(name), re.I), fine))
    return out


def propose(meta: dict[str, str], lines: list[list[dict]]) -> list[dict]:
    patterns = [(STAMP, "DATE"), (EMAIL, "EMAIL"), (PHONE, "PHONE"), (DATE, "DATE")]
    reg_no = meta.get("REGISTRATION NUMBER", "")
    if reg_no.isdigit():
        patterns.insert(0, (re.compile(rf"(?<!\d){reg_no}(?!\d)"), "BUSINESS_ID"))
    patterns += name_patterns(meta)
    out, taken = [], set()
    for li, line in enumerate(lines):
        text = " ".join(w["text"] for w in line)
        for pattern, fine in patterns:
            for m in pattern.finditer(text):
                words = match_span(line, m.start(), m.end())
                key = (li, id(words[0])) if words else None
                if key is None or key in taken:
                    continue
                taken.add(key)
                out.append({"type": fine, "bbox": union(words), "value": m.group(0)})
    return out


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(s) > 30:
        s = s[:31].rsplit("-", 1)[0] if "-" in s[:31] else s[:30]
    return s


def name_parts(path: str) -> list[str]:
    """The file name's fields: 20151130_KOTRA_Kang, Junkyung_Short-Form -> date, registrant,
    short-form name, kind (the export wrote "&" as " _ " and "'" as "_")."""
    name = re.sub(r" _ ?|_ ", " & ", Path(path).stem)
    name = re.sub(r"(?<=[a-z])_s\b", "'s", name)
    return name.split("_")


def page_id_of(path: str, page: int) -> str:
    parts = name_parts(path)
    registrant = parts[1] if len(parts) > 1 and parts[1] else "page"
    return f"vrdu-{parts[0]}-{slug(registrant)}-p{page}"


def draft(repo: Path, path: str, page: int) -> dict:
    image, meta, lines, origin = page_words(repo, path, page)
    page_id = page_id_of(path, page)
    return {"page_id": page_id, "source": "vrdu", "source_path": path, "pdf_page": page,
            "dpi": DPI, "sha256": pixel_sha256(image), "width": image.width,
            "height": image.height, "page_type": "form", "split": assign_split(page_id),
            "checked": "", "notes": f"words from the {origin}",
            "annotations": propose(meta, lines)}


def parse_target(target: str) -> tuple[str, int]:
    path, _, page = target.rpartition(":")
    if not path or not page.isdigit():
        raise SystemExit(f"{target}: expected PDFPATH:PAGE")
    check_not_reserved("vrdu", path)
    return path, int(page)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draft", help="write draft specs (never over a checked one)")
    d.add_argument("--repo", required=True, help="clone or bare git dir of google-research-datasets/vrdu")
    d.add_argument("--out", default="eval/data/real/spec/vrdu")
    d.add_argument("targets", nargs="+", metavar="PDFPATH:PAGE")
    w = sub.add_parser("words", help="print a page's metadata and lines of words with boxes")
    w.add_argument("--repo", required=True)
    w.add_argument("target", metavar="PDFPATH:PAGE")
    args = ap.parse_args(argv)
    if args.cmd == "words":
        _, meta, lines, origin = page_words(Path(args.repo), *parse_target(args.target))
        print(f"# words from the {origin}; metadata: {meta}")
        for line in lines:
            print(union(line), " ".join(w["text"] for w in line))
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for target in args.targets:
        path, page = parse_target(target)
        spec_path = out / f"{page_id_of(path, page)}.yaml"
        old = yaml.safe_load(spec_path.read_text()) or {} if spec_path.exists() else {}
        if old.get("checked"):
            print(f"{spec_path}: checked already, left alone")
            continue
        if old and old.get("source_path") != path:     # same date and registrant, other PDF
            print(f"{spec_path}: drafted from {old.get('source_path')}, left alone")
            continue
        spec_path.write_text(yaml.safe_dump(draft(Path(args.repo), path, page), sort_keys=False,
                                            default_flow_style=None, allow_unicode=True, width=100))
        print(spec_path)


if __name__ == "__main__":
    main()
