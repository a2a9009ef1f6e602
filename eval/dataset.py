"""Loading and validating a dataset: ``pages.jsonl`` (one page a line) beside its images.

Every malformed line is refused with an ``InputError`` naming the file and line; an image
path that leaves the dataset folder is refused; with ``check_images`` every image must
exist and have the size the line declares.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from pathlib import Path
from typing import Iterable

from redactor import taxonomy
from redactor.errors import InputError
from redactor_eval.jsonl import LineError, box_in_page, is_number, parse_box, read_records, require_str

PAGE_TYPES = ("invoice", "form", "email", "letter", "document", "other")

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class GoldBox:
    """One gold annotation: a pixel box, its fine type, and optionally its verbatim value."""
    bbox: Box
    type: str
    value: str | None = None

    @property
    def group(self) -> str:
        return taxonomy.group_of(self.type)

    @property
    def critical(self) -> bool:
        return taxonomy.is_critical(self.type)


@dataclass(frozen=True)
class GoldPage:
    """One page of a dataset with its gold annotations in file order."""
    page_id: str
    width: int
    height: int
    annotations: tuple[GoldBox, ...] = ()
    image: Path | None = None          # absolute path, None when the page has no image
    source: str | None = None
    page_type: str | None = None
    extra: dict = field(default_factory=dict, compare=False, repr=False)


def _parse_annotation(raw, index: int, width: int, height: int) -> GoldBox:
    where = f"annotation {index}"
    if not isinstance(raw, dict):
        raise LineError(f"{where}: expected an object, got {type(raw).__name__}")
    box = parse_box(raw.get("bbox"))
    if box is None:
        raise LineError(f"{where}: bbox must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1, "
                        f"got {raw.get('bbox')!r}")
    if not box_in_page(box, width, height):
        raise LineError(f"{where}: bbox {list(box)} lies outside the {width}x{height} page")
    fine = raw.get("type")
    if not isinstance(fine, str) or not taxonomy.is_known(fine):
        raise LineError(f"{where}: unknown type {fine!r} "
                        f"(known: {', '.join(taxonomy.fine_types())})")
    group = raw.get("group")
    if group is not None and group != taxonomy.group_of(fine):
        raise LineError(f"{where}: group {group!r} disagrees with type {fine} "
                        f"(which is {taxonomy.group_of(fine)!r})")
    value = raw.get("value")
    if value is not None and not isinstance(value, str):
        raise LineError(f"{where}: value must be a string, got {type(value).__name__}")
    return GoldBox(bbox=box, type=fine, value=value)


def _image_path(raw, base_dir: Path) -> Path:
    if not isinstance(raw, str) or not raw:
        raise LineError(f"'image' must be a non-empty path, got {raw!r}")
    # Judged on the path as written, not where symbolic links lead: a dataset whose images/
    # is a link to another disk is still the folder the user named; "..", an absolute path
    # or a drive elsewhere is not.
    root = Path(os.path.abspath(base_dir))
    path = Path(os.path.normpath(root / raw))
    if path != root and root not in path.parents:
        raise LineError(f"image path {raw!r} leaves the dataset folder {root}")
    return path


def page_from_json(record: dict, base_dir: str | Path | None = None) -> GoldPage:
    """Validate one line of ``pages.jsonl``; raises ``LineError`` with the reason.
    ``base_dir`` is the dataset folder (image paths are relative to it); without it the
    page's image is ignored."""
    page_id = require_str(record, "page_id")
    width, height = record.get("width"), record.get("height")
    for key, value in (("width", width), ("height", height)):
        if not (is_number(value) and float(value).is_integer() and value > 0):
            raise LineError(f"{key!r} must be a positive integer, got {value!r}")
    width, height = int(width), int(height)
    page_type = record.get("page_type")
    if page_type is not None and page_type not in PAGE_TYPES:
        raise LineError(f"page_type {page_type!r} is not one of {', '.join(PAGE_TYPES)}")
    source = record.get("source")
    if source is not None and not isinstance(source, str):
        raise LineError(f"'source' must be a string, got {source!r}")
    raw_annotations = record.get("annotations", [])
    if not isinstance(raw_annotations, list):
        raise LineError(f"'annotations' must be a list, got {type(raw_annotations).__name__}")
    annotations = tuple(_parse_annotation(a, i, width, height)
                        for i, a in enumerate(raw_annotations))
    image = None
    if base_dir is not None:
        image = _image_path(record.get("image"), Path(base_dir))
    known = {"page_id", "image", "width", "height", "source", "page_type", "annotations"}
    extra = {k: v for k, v in record.items() if k not in known}
    return GoldPage(page_id=page_id, width=width, height=height, annotations=annotations,
                    image=image, source=source, page_type=page_type, extra=extra)


def _check_image(page: GoldPage) -> None:
    from PIL import Image, UnidentifiedImageError

    if page.image is None or not page.image.is_file():
        raise LineError(f"image {page.image} not found")
    try:
        with Image.open(page.image) as img:
            size = img.size
    except (UnidentifiedImageError, OSError) as exc:
        raise LineError(f"image {page.image} cannot be read: {exc}") from None
    if size != (page.width, page.height):
        raise LineError(f"image {page.image.name} is {size[0]}x{size[1]}, "
                        f"the line says {page.width}x{page.height}")


def load_dataset(path: str | Path, check_images: bool = True) -> list[GoldPage]:
    """Read and validate ``pages.jsonl``; image paths are relative to its folder."""
    path = Path(path)
    pages: list[GoldPage] = []
    seen: dict[str, int] = {}
    for lineno, record in read_records(path):
        try:
            page = page_from_json(record, path.parent)
            if page.page_id in seen:
                raise LineError(f"page_id {page.page_id!r} repeats line {seen[page.page_id]}")
            if check_images:
                _check_image(page)
        except LineError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None
        seen[page.page_id] = lineno
        pages.append(page)
    if not pages:
        raise InputError(f"{path}: the dataset has no pages")
    return pages


def check_unique_ids(pages: Iterable[GoldPage]) -> None:
    seen: set[str] = set()
    for page in pages:
        if page.page_id in seen:
            raise InputError(f"page_id {page.page_id!r} occurs twice in the dataset")
        seen.add(page.page_id)


def select_split(pages: list[GoldPage], split: str | None) -> list[GoldPage]:
    """The pages of one split (the ``split`` field of a line: ``dev``, ``heldout``); None or
    ``all`` keeps every page. A dataset without splits, or a split with no page, is refused:
    a figure over nothing must not look like a figure."""
    if split in (None, "all"):
        return pages
    known = sorted({str(p.extra["split"]) for p in pages if "split" in p.extra})
    if not known:
        raise InputError(f"--split {split}: this dataset has no 'split' field on its pages")
    chosen = [p for p in pages if p.extra.get("split") == split]
    if not chosen:
        raise InputError(f"--split {split}: no page is in that split (known: {', '.join(known)})")
    return chosen
