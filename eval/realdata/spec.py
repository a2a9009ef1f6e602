"""Page specs: one YAML file per real page, the human-readable source of the gold.

A spec names where the page comes from (repository path, PDF page and render dpi, the
image's SHA-256), its size, its split (``dev`` pages are looked at while improving the
pipeline, ``heldout`` pages only for final figures), who checked it on an overlay, and its
annotations in the contract's types, each with a pixel box and, where legible, the value.
``derive_pages`` turns the specs into ``pages.jsonl`` records; nothing else writes gold.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from redactor import taxonomy
from redactor.errors import InputError

SOURCES = ("funsd", "vrdu")
SPLITS = ("dev", "heldout")
PAGE_TYPES = ("invoice", "form", "email", "letter", "document", "other")
REQUIRED = ("page_id", "source", "source_path", "sha256", "width", "height", "page_type",
            "split", "checked", "annotations")


@dataclass(frozen=True)
class PageSpec:
    page_id: str
    source: str
    source_path: str
    sha256: str
    width: int
    height: int
    page_type: str
    split: str
    checked: str
    annotations: tuple[dict, ...]
    pdf_page: int | None = None        # 1-based page of a PDF source
    dpi: int | None = None             # render resolution of a PDF source
    notes: str | None = None

    @property
    def image(self) -> str:
        return f"images/{self.page_id}.png"


def _fail(path: Path, msg: str) -> InputError:
    return InputError(f"{path}: {msg}")


def _annotation(path: Path, i: int, raw, width: int, height: int) -> dict:
    if not isinstance(raw, dict):
        raise _fail(path, f"annotation {i}: expected a mapping")
    fine = raw.get("type")
    if not isinstance(fine, str) or not taxonomy.is_known(fine):
        raise _fail(path, f"annotation {i}: unknown type {fine!r}")
    box = raw.get("bbox")
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)):
        raise _fail(path, f"annotation {i}: bbox must be [x0, y0, x1, y1], got {box!r}")
    x0, y0, x1, y1 = (float(v) for v in box)
    if not (0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height):
        raise _fail(path, f"annotation {i}: bbox {box} is empty or outside the {width}x{height} page")
    value = raw.get("value")
    if value is not None and not isinstance(value, str):
        raise _fail(path, f"annotation {i}: value must be text or null")
    out = {"bbox": [x0, y0, x1, y1], "type": fine}
    if value is not None:
        out["value"] = value
    return out


def load_spec(path: str | Path, require_checked: bool = True) -> PageSpec:
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise _fail(path, f"cannot be read: {exc}") from None
    if not isinstance(raw, dict):
        raise _fail(path, "expected a mapping at the top")
    missing = [k for k in REQUIRED if k not in raw]
    if missing:
        raise _fail(path, f"missing {', '.join(missing)}")
    if raw["source"] not in SOURCES:
        raise _fail(path, f"source {raw['source']!r} is not one of {', '.join(SOURCES)}")
    if raw["split"] not in SPLITS:
        raise _fail(path, f"split {raw['split']!r} is not one of {', '.join(SPLITS)}")
    if raw["page_type"] not in PAGE_TYPES:
        raise _fail(path, f"page_type {raw['page_type']!r} is not one of {', '.join(PAGE_TYPES)}")
    if path.stem != raw["page_id"]:
        raise _fail(path, f"file name and page_id {raw['page_id']!r} differ")
    if require_checked and not raw["checked"]:
        raise _fail(path, "not checked on an overlay yet ('checked' is empty)")
    width, height = int(raw["width"]), int(raw["height"])
    anns = raw["annotations"] or []
    if not isinstance(anns, list):
        raise _fail(path, "annotations must be a list")
    return PageSpec(
        page_id=raw["page_id"], source=raw["source"], source_path=str(raw["source_path"]),
        sha256=str(raw["sha256"]), width=width, height=height, page_type=raw["page_type"],
        split=raw["split"], checked=str(raw["checked"]),
        annotations=tuple(_annotation(path, i, a, width, height) for i, a in enumerate(anns)),
        pdf_page=raw.get("pdf_page"), dpi=raw.get("dpi"), notes=raw.get("notes"))


def assign_split(page_id: str) -> str:
    """A third of the pages, chosen by a hash of the id (not by look), is held back."""
    return "heldout" if int(hashlib.sha256(page_id.encode()).hexdigest(), 16) % 3 == 0 else "dev"


def spec_files(spec_dir: str | Path) -> list[Path]:
    return sorted(Path(spec_dir).glob("*/*.yaml"))


def load_specs(spec_dir: str | Path, require_checked: bool = True) -> list[PageSpec]:
    specs = [load_spec(p, require_checked) for p in spec_files(spec_dir)]
    seen: set[str] = set()
    for s in specs:
        if s.page_id in seen:
            raise InputError(f"{spec_dir}: page_id {s.page_id!r} occurs twice")
        seen.add(s.page_id)
    return specs


def page_record(spec: PageSpec) -> dict:
    """The ``pages.jsonl`` line of one spec (the contract's fields plus where it is from)."""
    return {"page_id": spec.page_id, "image": spec.image, "width": spec.width,
            "height": spec.height, "source": f"real:{spec.source}", "page_type": spec.page_type,
            "split": spec.split, "annotations": list(spec.annotations)}


def derive_pages(spec_dir: str | Path) -> list[dict]:
    return [page_record(s) for s in load_specs(spec_dir)]
