"""Draft specs for FUNSD training forms from the dataset's own annotations, for a person to
check and correct on an overlay (``eval.realdata.overlay``) before ``checked`` is set.

A FUNSD answer linked from a question that names a kind of personal data ("To:", "Fax
No.", "Address") becomes an annotation of that type with the answer's box; unlinked text
is proposed by its shape (phone numbers, dates). The draft is a starting point only: the
checker splits lists of people, adds what FUNSD did not annotate (signatures, letterhead
names) and drops what is not personal data.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import yaml

from redactor_eval.realdata.sources import COMMITS, pixel_sha256, read_source_file, source_image
from redactor_eval.realdata.spec import assign_split

# Question wording -> type, in order; the first pattern that matches the question decides.
QUESTION_TYPES = [
    (r"\b(e-?mail)\b", "EMAIL"),
    (r"\b(fax|phone|tel(ephone)?|telex)\b", "PHONE"),
    (r"\b(address|street|city|zip)\b", "ADDRESS"),
    (r"\bdate\b", "DATE"),
    (r"\b(company|firm|agency|organi[sz]ation|supplier|vendor|manufacturer|client|"
     r"laboratory|lab|division|department|dept)\b", "ORGANIZATION"),
    (r"^(to|from|cc|c\.c\.|attn|attention|by|name|author|contact|requested by|submitted by|"
     r"approved by|prepared by|signed|signature|originator|recipient|buyer|manager|"
     r"investigator|sender|bcc)\b", "PERSON"),
    (r"\b(no\.?|number|#|code|account|job|file|ref(erence)?|project|p\.?o\.?)\b",
     "REFERENCE_NUMBER"),
]
PHONE_SHAPE = re.compile(r"\(?\d{3}\)?[\s.\-/]*\d{3}[\s.\-]\d{4}")
DATE_SHAPE = re.compile(r"\b(\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2,4}|(jan|feb|mar|apr|may|jun|jul|"
                        r"aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{2,4})\b", re.I)


def question_type(text: str) -> str | None:
    t = text.strip().lower()
    for pattern, fine in QUESTION_TYPES:
        if re.search(pattern, t):
            return fine
    return None


def propose(form: list[dict]) -> list[dict]:
    by_id = {e["id"]: e for e in form}
    out, taken = [], set()
    for e in form:
        if e["label"] != "answer" or not e["text"].strip():
            continue
        questions = [by_id[a] for a, b in e["linking"] if b == e["id"] and a in by_id
                     and by_id[a]["label"] == "question"]
        fine = next((t for t in (question_type(q["text"]) for q in questions) if t), None)
        if fine is None and PHONE_SHAPE.search(e["text"]):
            fine = "PHONE"
        if fine is None and DATE_SHAPE.search(e["text"]):
            fine = "DATE"
        if fine:
            taken.add(e["id"])
            out.append({"type": fine, "bbox": [float(v) for v in e["box"]], "value": e["text"],
                        "entity": e["id"],
                        "question": questions[0]["text"] if questions else None})
    for e in form:
        if e["id"] in taken or e["label"] == "question":
            continue
        fine = "PHONE" if PHONE_SHAPE.search(e["text"]) else None
        if fine:
            out.append({"type": fine, "bbox": [float(v) for v in e["box"]], "value": e["text"],
                        "entity": e["id"], "question": None})
    return out


def draft(repo: Path, stem: str) -> dict:
    commit = COMMITS["funsd"][1]
    ann_path = f"training_data/annotations/{stem}.json"
    img_path = f"training_data/images/{stem}.png"
    form = json.loads(read_source_file(repo, commit, ann_path, "funsd"))["form"]
    image = source_image("funsd", read_source_file(repo, commit, img_path, "funsd"), None, None)
    page_id = f"funsd-{stem}"
    return {"page_id": page_id, "source": "funsd", "source_path": img_path,
            "sha256": pixel_sha256(image), "width": image.width, "height": image.height,
            "page_type": "form", "split": assign_split(page_id), "checked": "",
            "annotations": propose(form)}


def entity_words(repo: Path, stem: str) -> list[str]:
    """Every FUNSD entity with its words and their boxes: what a checker composes boxes from."""
    form = json.loads(read_source_file(repo, COMMITS["funsd"][1],
                                       f"training_data/annotations/{stem}.json", "funsd"))["form"]
    lines = []
    for e in form:
        lines.append(f"{e['id']:3d} {e['label']:8s} {e['box']} {e['text']!r}")
        for w in e["words"]:
            lines.append(f"      {w['box']} {w['text']!r}")
    return lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draft", help="write draft specs (never over a checked one)")
    d.add_argument("--repo", required=True, help="clone or bare git dir of Doc-LD/funsd-bench")
    d.add_argument("--out", default="eval/data/real/spec/funsd")
    d.add_argument("stems", nargs="+")
    w = sub.add_parser("words", help="print a form's entities and word boxes")
    w.add_argument("--repo", required=True)
    w.add_argument("stem")
    args = ap.parse_args(argv)
    if args.cmd == "words":
        print("\n".join(entity_words(Path(args.repo), args.stem)))
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for stem in args.stems:
        path = out / f"funsd-{stem}.yaml"
        if path.exists() and (yaml.safe_load(path.read_text()) or {}).get("checked"):
            print(f"{path}: checked already, left alone")
            continue
        path.write_text(yaml.safe_dump(draft(Path(args.repo), stem), sort_keys=False, default_flow_style=None,
                                       allow_unicode=True, width=100))
        print(path)


if __name__ == "__main__":
    main()
