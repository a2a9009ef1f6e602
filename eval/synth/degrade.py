"""Scan and fax degradations of a rendered page (grey conversion, low contrast, skew within
a few degrees, blur, noise and specks, fax-style low resolution with dithering) that move
the gold boxes with the page: a rotated value's box is the box of its rotated ink."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from redactor_eval.synth.render import Annotation


@dataclass(frozen=True)
class ScanProfile:
    """How one page was "scanned"; every field is drawn per page from the page's rng."""

    angle: float  # degrees, counter-clockwise
    blur: float  # Gaussian sigma in pixels at 300 dpi
    noise: float  # Gaussian noise sigma (grey levels)
    paper: int  # grey level of the paper
    ink: int  # grey level of full ink
    specks: float  # density of dust specks
    fax: bool  # fax transmission: low vertical resolution, bilevel with dithering
    jpeg_quality: int | None


def random_profile(rng: np.random.Generator, source: str, max_angle: float = 2.0) -> ScanProfile:
    fax = source == "industry" and rng.random() < 0.3
    return ScanProfile(
        angle=float(rng.uniform(-max_angle, max_angle)) if rng.random() < 0.85 else 0.0,
        blur=float(rng.uniform(0.3, 1.1)),
        noise=float(rng.uniform(1.0, 7.0)),
        paper=int(rng.integers(212, 252)),
        ink=int(rng.integers(10, 70)),
        specks=float(rng.uniform(0.0, 3e-5)),
        fax=fax,
        jpeg_quality=None if fax else int(rng.integers(45, 86)),
    )


def rotate_annotations(annotations: list[Annotation], matrix: np.ndarray, width: int, height: int) -> None:
    """Move every annotation's box with the page: the box of its ink pixels, mapped
    through ``matrix`` (OpenCV's 2x3 pixel-index transform), clipped to the page."""
    for ann in annotations:
        pts = []
        for p in ann.pieces:
            ys, xs = np.nonzero(p.mask)
            pts.append(np.stack([xs + p.x, ys + p.y], 1).astype(np.float64))
        if not pts:
            continue
        xy = np.concatenate(pts)
        mapped = xy @ matrix[:, :2].T + matrix[:, 2]
        # a pixel index u covers [u, u + 1) in edge coordinates
        x0 = max(0.0, math.floor(mapped[:, 0].min()))
        y0 = max(0.0, math.floor(mapped[:, 1].min()))
        x1 = min(float(width), math.ceil(mapped[:, 0].max() + 1))
        y1 = min(float(height), math.ceil(mapped[:, 1].max() + 1))
        ann.transformed_box = (x0, y0, x1, y1)


def rotate_page(gray: np.ndarray, annotations: list[Annotation], angle: float, fill: int) -> np.ndarray:
    h, w = gray.shape
    matrix = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0)
    out = cv2.warpAffine(
        gray, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=fill
    )
    rotate_annotations(annotations, matrix, w, h)
    return out


def apply(
    image: Image.Image,
    annotations: list[Annotation],
    profile: ScanProfile,
    dpi: int,
    rng: np.random.Generator,
) -> Image.Image:
    """The page as it comes out of a scanner or fax machine (greyscale)."""
    gray = np.asarray(image.convert("L"), dtype=np.float32)
    # ink and paper levels: scans are never black on white
    gray = profile.ink + (gray / 255.0) * (profile.paper - profile.ink)
    # uneven illumination across the sheet
    h, w = gray.shape
    ramp = np.linspace(0, 1, w, dtype=np.float32)[None, :] * rng.uniform(-10, 10)
    gray = gray + ramp
    sigma = profile.blur * dpi / 300.0
    if sigma > 0.2:
        gray = cv2.GaussianBlur(gray, (0, 0), sigma)
    if profile.fax:
        # fax "standard" mode: ~200 x 100 lines per inch, bilevel, dithered greys
        small = cv2.resize(
            gray, (max(1, int(w * 200 / dpi)), max(1, int(h * 100 / dpi))), interpolation=cv2.INTER_AREA
        )
        # the machine's threshold makes the paper white; only mid-tones get dithered
        small = np.where(small > profile.paper - 30, 255, small)
        small = np.clip(
            (small - profile.ink) * 255.0 / max(1, profile.paper - 30 - profile.ink), 0, 255
        ).astype(np.uint8)
        bilevel = np.asarray(Image.fromarray(small).convert("1"), dtype=np.uint8) * 255
        gray = cv2.resize(bilevel, (w, h), interpolation=cv2.INTER_NEAREST).astype(np.float32)
    if profile.noise > 0 and not profile.fax:
        gray = gray + rng.normal(0, profile.noise, gray.shape).astype(np.float32)
    if profile.specks > 0:
        n = int(profile.specks * w * h)
        ys = rng.integers(0, h, n)
        xs = rng.integers(0, w, n)
        r = max(1, dpi // 150)
        for x, y in zip(xs, ys):
            cv2.circle(
                gray,
                (int(x), int(y)),
                int(rng.integers(0, r + 1)),
                float(profile.ink + rng.uniform(40, 140)),
                -1,
            )
    gray = np.clip(gray, 0, 255).astype(np.uint8)
    if profile.angle:
        gray = rotate_page(gray, annotations, profile.angle, fill=int(profile.paper))
    return Image.fromarray(gray, "L")


# -- old archive scans (FUNSD-like tobacco-industry pages, mid-century registry filings) -----
@dataclass(frozen=True)
class OldScanProfile:
    """A page that went through an old, low-resolution scanner or a fax machine."""

    angle: float  # degrees, counter-clockwise
    effective_dpi: int  # the resolution the page really has (then resampled to page size)
    blur: float  # Gaussian sigma in pixels at the effective resolution
    paper: int
    ink: int
    mode: str  # "grey" (low-res greyscale, JPEG) or "fax" (bilevel with dropouts)
    threshold: float  # fax: grey level (0-255, at the low resolution) below which a pixel prints black
    dropout: float  # fax: share of black pixels lost (broken strokes)
    streaks: int  # fax: number of lost / noisy scan lines
    specks: float
    jpeg_quality: int | None


def old_scan_profile(rng: np.random.Generator, max_angle: float = 2.0) -> OldScanProfile:
    fax = rng.random() < 0.5
    return OldScanProfile(
        angle=float(rng.uniform(-max_angle, max_angle)) if rng.random() < 0.8 else 0.0,
        effective_dpi=int(rng.integers(72, 101)),
        blur=float(rng.uniform(0.2, 0.7)),
        paper=int(rng.integers(200, 246)),
        ink=int(rng.integers(10, 80)),
        mode="fax" if fax else "grey",
        threshold=float(rng.uniform(165, 215)),
        dropout=float(rng.uniform(0.0, 0.08)) if fax else 0.0,
        streaks=int(rng.integers(0, 7)) if fax else 0,
        specks=float(rng.uniform(0.0, 2e-5)),
        jpeg_quality=None if fax else int(rng.integers(40, 80)),
    )


def apply_old_scan(
    image: Image.Image,
    annotations: list[Annotation],
    profile: OldScanProfile,
    dpi: int,
    rng: np.random.Generator,
) -> Image.Image:
    """Down to ``effective_dpi`` and back up to the page's size (detail lost for good), then
    either greyscale with low contrast or a fax's bilevel with dropped pixels and scan
    lines. The page keeps its size, so boxes stay where the ink was drawn (at most one
    low-resolution pixel of the resampled ink may spill over them)."""
    gray = np.asarray(image.convert("L"), dtype=np.float32)
    h, w = gray.shape
    f = min(1.0, profile.effective_dpi / dpi)
    sw, sh = max(1, int(round(w * f))), max(1, int(round(h * f)))
    small = cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_AREA)
    if profile.blur > 0.2:
        small = cv2.GaussianBlur(small, (0, 0), profile.blur)
    if profile.mode == "fax":
        # the machine thresholds: light strokes vanish, dark ones print solid black
        bil = np.where(small <= profile.threshold, 0, 255).astype(np.uint8)
        if profile.dropout > 0:
            black = bil == 0
            lost = rng.random(bil.shape) < profile.dropout
            bil[black & lost] = 255
        for _ in range(profile.streaks):
            row = int(rng.integers(0, sh))
            x0 = int(rng.integers(0, sw // 2))
            x1 = int(rng.integers(x0 + 1, sw + 1))
            if rng.random() < 0.7:
                bil[row, x0:x1] = 255  # a lost scan line
            else:  # line noise: a run of random black pixels
                bil[row, x0:x1] = np.where(rng.random(x1 - x0) < 0.3, 0, bil[row, x0:x1])
        big = cv2.resize(bil, (w, h), interpolation=cv2.INTER_NEAREST).astype(np.float32)
        gray = profile.ink + (big / 255.0) * (255 - profile.ink)
    else:
        small = profile.ink + (small / 255.0) * (profile.paper - profile.ink)
        small = small + rng.normal(0, 3.0, small.shape).astype(np.float32)
        gray = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if profile.specks > 0:
        n = int(profile.specks * w * h)
        for x, y in zip(rng.integers(0, w, n), rng.integers(0, h, n)):
            cv2.circle(
                gray, (int(x), int(y)), int(rng.integers(1, max(2, dpi // 100) + 1)), float(profile.ink), -1
            )
    gray = np.clip(gray, 0, 255).astype(np.uint8)
    if profile.angle:
        fill = 255 if profile.mode == "fax" else int(profile.paper)
        gray = rotate_page(gray, annotations, profile.angle, fill=fill)
    return Image.fromarray(gray, "L")
