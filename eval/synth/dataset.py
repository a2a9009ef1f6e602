"""Generates pages and writes a dataset in the contract's format: ``pages.jsonl`` beside
``images/``. Page i depends only on (seed, i, page type, options), so a dataset is
byte-identical for the same seed and size, whatever the number of worker processes."""

from __future__ import annotations

import io
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from faker import Faker
from PIL import Image

from redactor_eval.synth import degrade, intl
from redactor_eval.synth.layouts import document, email, faxmemo, form, invoice, letter, other, registration
from redactor_eval.synth.layouts.common import Page, make_style
from redactor_eval.synth.render import Canvas
from redactor_eval.synth.values import ValueMaker, pick
from redactor.errors import InputError, OutputError

# LeakageBench's page-type mix
PAGE_TYPE_WEIGHTS = {"invoice": 229, "form": 39, "email": 90, "letter": 62, "document": 47, "other": 33}
PREFIX = {"invoice": "inv", "form": "frm", "email": "eml", "letter": "let", "document": "doc", "other": "oth"}
LAYOUTS = {
    "invoice": invoice.draw,
    "form": form.draw,
    "email": email.draw,
    "letter": letter.draw,
    "document": document.draw,
    "other": other.draw,
}
# which source each page type imitates: (industry scan, digital print, legal filing) weights
SOURCES = {
    "invoice": (0.35, 0.65, 0.0),
    "form": (0.4, 0.6, 0.0),
    "email": (0.55, 0.45, 0.0),
    "letter": (0.4, 0.3, 0.3),
    "document": (0.45, 0.0, 0.55),
    "other": (0.7, 0.3, 0.0),
}
DEGRADE_BY_SOURCE = {"industry": 0.85, "filing": 0.4, "digital": 0.12}

# Page kinds outside the default mix, chosen with --types (alone or with the six above):
# kind -> (contract page_type, id prefix, weight among kinds, share degraded at --degrade 1,
#          old-scan profile for the degraded ones, (industry, digital, filing) weights)
EXTRA_KINDS = {
    # FUNSD-like memo / fax cover sheets of old corporate archives
    "faxmemo": ("other", "fax", 40, 0.9, True, (0.85, 0.15, 0.0)),
    # registry filings (agents' registration statements): boxed numbered fields
    "registration": ("form", "reg", 40, 0.75, True, (0.0, 0.0, 1.0)),
    # letters, e-mails and fax covers of organisations abroad (UK, CA, AU, IN, MY, SG, DE, FR)
    "intl": (None, "int", 20, None, False, None),
}
EXTRA_LAYOUTS = {"faxmemo": faxmemo.draw, "registration": registration.draw}
INTL_BASES = ("letter", "email", "other")
ALL_KINDS = tuple(PAGE_TYPE_WEIGHTS) + tuple(EXTRA_KINDS)
COMMON_DPIS = (150, 200, 240, 300)


@dataclass(frozen=True)
class SynthOptions:
    seed: int = 0
    dpi_range: tuple[int, int] = (150, 300)
    degrade_scale: float = 1.0  # multiplies the per-source share of scan-degraded pages
    max_angle: float = 2.0
    jpeg_degraded: bool = True  # store degraded pages as JPEG (as scanners do)
    page_types: tuple[str, ...] | None = None  # restrict to these types (mix kept among them)

    def validate(self) -> None:
        lo, hi = self.dpi_range
        if not (50 <= lo <= hi <= 600):
            raise InputError(f"--dpi-range {lo} {hi}: need 50 <= low <= high <= 600")
        if not 0 <= self.degrade_scale <= 10:
            raise InputError("--degrade must lie in [0, 10]")
        if not 0 <= self.max_angle <= 15:
            raise InputError("--max-angle must lie in [0, 15] degrees")
        for t in self.page_types or ():
            if t not in ALL_KINDS:
                raise InputError(f"unknown page type {t!r} (known: {', '.join(ALL_KINDS)})")


def page_type_plan(n: int, seed: int, types: tuple[str, ...] | None = None) -> list[str]:
    """``n`` page types in the target proportions (largest remainder), in seeded order."""
    weights = {t: w for t, w in PAGE_TYPE_WEIGHTS.items() if not types or t in types}
    weights.update({t: k[2] for t, k in EXTRA_KINDS.items() if types and t in types})
    total = sum(weights.values())
    exact = {t: n * w / total for t, w in weights.items()}
    counts = {t: int(e) for t, e in exact.items()}
    for t in sorted(weights, key=lambda t: (-(exact[t] - counts[t]), -weights[t]))[
        : n - sum(counts.values())
    ]:
        counts[t] += 1
    plan = [t for t in weights for _ in range(counts[t])]
    order = np.random.default_rng([seed, 0xC0FFEE]).permutation(len(plan))
    return [plan[i] for i in order]


def _dpi(rng: np.random.Generator, lo: int, hi: int) -> int:
    common = [d for d in COMMON_DPIS if lo <= d <= hi]
    return pick(rng, common) if common else int(rng.integers(lo, hi + 1))


_FAKER: Faker | None = None


def _faker(seed: int) -> Faker:
    global _FAKER
    if _FAKER is None:
        _FAKER = Faker("en_US")
    _FAKER.seed_instance(seed)
    return _FAKER


def generate_page(index: int, page_type: str, opts: SynthOptions) -> tuple[bytes, str, dict]:
    """Render page ``index``: returns (encoded image, file extension, pages.jsonl record
    without the image path)."""
    if page_type in EXTRA_KINDS:
        return _generate_extra(index, page_type, opts)
    rng = np.random.default_rng([opts.seed, index, list(PAGE_TYPE_WEIGHTS).index(page_type)])
    fake = _faker(int(rng.integers(0, 2**31)))
    source = pick(rng, ("industry", "digital", "filing"), p=SOURCES[page_type])
    dpi = _dpi(rng, *opts.dpi_range)
    style = make_style(rng, source)
    typewriter = style.body.family.endswith("mono") and source == "industry"
    ink_level = int(rng.integers(30, 75)) if typewriter else int(rng.integers(0, 30))
    canvas = Canvas(dpi, ink=(ink_level,) * 3)
    page = Page(canvas, ValueMaker(fake, rng), rng, style, margin=float(rng.uniform(48, 72)))
    LAYOUTS[page_type](page)
    image = canvas.image
    degraded = rng.random() < min(1.0, DEGRADE_BY_SOURCE[source] * opts.degrade_scale)
    if degraded:
        profile = degrade.random_profile(rng, source, opts.max_angle)
        image = degrade.apply(image, canvas.annotations, profile, dpi, rng)
        if opts.jpeg_degraded and profile.jpeg_quality:
            data, ext = _encode(image, "JPEG", profile.jpeg_quality), "jpg"
        else:
            data, ext = _encode(image, "PNG"), "png"
    else:
        arr = np.asarray(image)
        if (arr[..., 0] == arr[..., 1]).all() and (arr[..., 1] == arr[..., 2]).all():
            image = image.convert("L")
        data, ext = _encode(image, "PNG"), "png"
    record = _gold_record(f"{PREFIX[page_type]}-{index:04d}", canvas, page_type, dpi, source,
                          degraded)
    return data, ext, record


def _gold_record(page_id: str, canvas, page_type: str, dpi, source: str, degraded: bool,
                 on_page=lambda box: True, **extra) -> dict:
    """The page's ``pages.jsonl`` line: its gold boxes that have an area (and that
    ``on_page`` keeps), ``extra`` fields before the annotations."""
    anns = []
    for a in canvas.annotations:
        x0, y0, x1, y1 = (float(v) for v in a.bbox())
        if x1 <= x0 or y1 <= y0 or not on_page((x0, y0, x1, y1)):
            continue
        anns.append({"bbox": [x0, y0, x1, y1], "type": a.type, "value": a.value})
    return {"page_id": page_id, "width": canvas.width, "height": canvas.height,
            "source": "synthetic", "page_type": page_type, "dpi": dpi, "style": source,
            "degraded": degraded, **extra, "annotations": anns}


def _generate_extra(index: int, kind: str, opts: SynthOptions) -> tuple[bytes, str, dict]:
    """A page of one of EXTRA_KINDS; its record says which (``layout``), and ``country``
    when its organisations are not American."""
    page_type, prefix, _, share, old_scan, sources = EXTRA_KINDS[kind]
    rng = np.random.default_rng([opts.seed, index, ALL_KINDS.index(kind)])
    fake = _faker(int(rng.integers(0, 2**31)))
    country = None
    if kind == "intl":
        page_type = pick(rng, INTL_BASES, p=[0.5, 0.25, 0.25])
        sources = SOURCES[page_type]
        country = pick(rng, intl.COUNTRIES)
    source = pick(rng, ("industry", "digital", "filing"), p=sources)
    dpi = _dpi(rng, *opts.dpi_range)
    style = make_style(rng, source)
    typewriter = style.body.family.endswith("mono") and source == "industry"
    ink_level = int(rng.integers(30, 75)) if typewriter else int(rng.integers(0, 30))
    canvas = Canvas(dpi, ink=(ink_level,) * 3)
    v = intl.value_maker(fake, rng, country) if country else ValueMaker(fake, rng)
    page = Page(canvas, v, rng, style, margin=float(rng.uniform(48, 72)))
    (LAYOUTS[page_type] if kind == "intl" else EXTRA_LAYOUTS[kind])(page)
    image = canvas.image
    share = DEGRADE_BY_SOURCE[source] if share is None else share
    degraded = rng.random() < min(1.0, share * opts.degrade_scale)
    ext = "png"
    if degraded and old_scan:
        profile = degrade.old_scan_profile(rng, opts.max_angle)
        image = degrade.apply_old_scan(image, canvas.annotations, profile, dpi, rng)
        quality = profile.jpeg_quality
    elif degraded:
        profile = degrade.random_profile(rng, source, opts.max_angle)
        image = degrade.apply(image, canvas.annotations, profile, dpi, rng)
        quality = profile.jpeg_quality
    else:
        image = image.convert("L") if _is_grey(image) else image
        quality = None
    if degraded and opts.jpeg_degraded and quality:
        data, ext = _encode(image, "JPEG", quality), "jpg"
        final = np.asarray(Image.open(io.BytesIO(data)).convert("L"))
    else:
        data = _encode(image, "PNG")
        final = np.asarray(image.convert("L"))
    # a value whose ink the scan or fax lost completely is no longer on the page
    t = cv2.threshold(final, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]

    def inked(box) -> bool:
        x0, y0, x1, y1 = box
        return (final[int(y0) : int(np.ceil(y1)), int(x0) : int(np.ceil(x1))] <= t).sum() >= 5

    country = country or page.flags.get("country")
    extra = {"layout": kind, **({"country": country} if country else {})}
    record = _gold_record(f"{prefix}-{index:04d}", canvas, page_type, dpi, source, degraded,
                          on_page=inked, **extra)
    return data, ext, record


def _is_grey(image: Image.Image) -> bool:
    arr = np.asarray(image)
    return bool((arr[..., 0] == arr[..., 1]).all() and (arr[..., 1] == arr[..., 2]).all())


def _encode(image: Image.Image, fmt: str, quality: int = 75) -> bytes:
    buf = io.BytesIO()
    if fmt == "PNG":
        image.save(buf, format="PNG", compress_level=6, optimize=False)
    else:
        image.save(buf, format="JPEG", quality=quality, optimize=False, progressive=False, subsampling=0)
    return buf.getvalue()


def _job(args: tuple[int, str, SynthOptions]) -> tuple[int, bytes, str, dict]:
    index, page_type, opts = args
    data, ext, record = generate_page(index, page_type, opts)
    return index, data, ext, record


def write_dataset(out: Path, n: int, opts: SynthOptions, workers: int = 1, progress: bool = False) -> Path:
    """Write ``n`` pages to ``out``; returns the path of pages.jsonl. Nothing is left
    half-written: files go to a temporary folder renamed into place at the end."""
    opts.validate()
    if n < 1:
        raise InputError("--n must be at least 1")
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise OutputError(f"{out} exists and is not an empty folder; choose a new --out")
    tmp = out.with_name(out.name + ".partial")
    try:
        if tmp.exists():
            shutil.rmtree(tmp)
        (tmp / "images").mkdir(parents=True)
    except OSError as exc:
        raise OutputError(f"cannot create {tmp}: {exc.strerror}") from None
    plan = page_type_plan(n, opts.seed, opts.page_types)
    jobs = [(i, t, opts) for i, t in enumerate(plan)]
    records: list[dict | None] = [None] * n
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n, unit="page", desc="synth")
    try:
        if workers > 1:
            import multiprocessing as mp

            with mp.get_context("spawn" if os.name == "nt" else "fork").Pool(workers) as pool:
                for index, data, ext, record in pool.imap_unordered(_job, jobs, chunksize=2):
                    records[index] = _store(tmp, data, ext, record)
                    bar and bar.update()
        else:
            for job in jobs:
                index, data, ext, record = _job(job)
                records[index] = _store(tmp, data, ext, record)
                bar and bar.update()
        with open(tmp / "pages.jsonl", "w", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        if out.exists():
            out.rmdir()
        tmp.rename(out)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OutputError(f"cannot write the dataset to {out}: {exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # nothing half-written stays behind
        raise
    finally:
        if bar is not None:
            bar.close()
    return out / "pages.jsonl"


def _store(folder: Path, data: bytes, ext: str, record: dict) -> dict:
    name = f"images/{record['page_id']}.{ext}"
    (folder / name).write_bytes(data)
    # image right after page_id, as in the contract's example
    ordered = {"page_id": record["page_id"], "image": name}
    ordered.update({k: v for k, v in record.items() if k != "page_id"})
    return ordered
