"""Handwritten-looking ink: filled-in form fields (a script or block font with per-letter
jitter and an elastic warp) and signatures (drawn pen trajectories with loops, pen lifts
and pressure). Both return 0-255 coverage masks; the canvas composites them in pen colour."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from redactor_eval.synth.fonts import load

HAND_FONTS = (
    ("chancery", "regular", 1.25),
    ("bookman", "italic", 1.0),
    ("dejavu-sans", "regular", 0.95),
    ("free-sans", "italic", 1.0),
    ("palatino", "italic", 1.1),
)
PEN_COLORS = ((25, 40, 120), (20, 20, 30), (30, 50, 150), (40, 40, 60))


def _elastic(mask: np.ndarray, rng: np.random.Generator, alpha: float, sigma: float) -> np.ndarray:
    h, w = mask.shape
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(mask, xs + dx, ys + dy, interpolation=cv2.INTER_LINEAR, borderValue=0)


def handwritten_text(
    text: str,
    pixel_size: int,
    rng: np.random.Generator,
    style: int | None = None,
    caps: bool | None = None,
    broad_pen: bool | None = None,
) -> tuple[np.ndarray, int, str]:
    """Coverage mask of ``text`` written by hand. Returns (mask, baseline row in the mask,
    the text as written: block-capital writers turn it upper-case)."""
    family, fstyle, factor = HAND_FONTS[int(rng.integers(len(HAND_FONTS))) if style is None else style]
    if caps if caps is not None else (family in ("dejavu-sans", "free-sans") and rng.random() < 0.6):
        text = text.upper()  # block capitals, as forms ask
    size = max(6, int(pixel_size * factor))
    font = load(family, fstyle, size)
    pad = size
    width = int(font.getlength(text) * 1.25) + 2 * pad
    height = int(size * 2.4) + pad
    canvas = np.zeros((height, width), np.uint8)
    baseline = int(size * 1.4)
    x = float(pad)
    slope = rng.uniform(-0.04, 0.04)
    for ch in text:
        s = max(6, int(size * rng.uniform(0.88, 1.1)))
        f = load(family, fstyle, s)
        adv = f.getlength(ch)
        if ch.strip():
            # each letter on its own tile, turned a little: no two letters sit alike
            tile = Image.new("L", (int(adv) + 2 * s, 3 * s), 0)
            ImageDraw.Draw(tile).text((s, 2 * s), ch, font=f, fill=255, anchor="ls")
            tile = tile.rotate(float(rng.normal(0, 4)), resample=Image.BILINEAR, center=(s + adv / 2, 2 * s))
            t = np.asarray(tile)
            y = baseline + slope * (x - pad) + rng.normal(0, size * 0.035)
            ox, oy = int(round(x - s)), int(round(y - 2 * s))
            y0, x0 = max(0, oy), max(0, ox)
            y1, x1 = min(height, oy + t.shape[0]), min(width, ox + t.shape[1])
            if y1 > y0 and x1 > x0:
                region = canvas[y0:y1, x0:x1]
                np.maximum(region, t[y0 - oy : y1 - oy, x0 - ox : x1 - ox], out=region)
        x += adv * rng.uniform(0.93, 1.15)
    mask = _elastic(canvas, rng, alpha=size * 0.1, sigma=size * 0.3)
    if broad_pen if broad_pen is not None else rng.random() < 0.5:
        mask = cv2.dilate(mask, np.ones((2, 2), np.uint8))
    return mask, baseline, text


# cursive letter shapes as pen keypoints (dx, dy) in x-height units from the pen's position
# at the start of the letter; the last point is where the next letter starts
LETTERS = (
    ((0.1, 1.0), (0.45, 1.0), (0.5, 0.0), (0.6, 0.0)),  # n
    ((0.05, 0.9), (0.1, 0.05), (0.3, 0.0), (0.4, 0.9), (0.45, 0.1), (0.55, 0.1)),  # u
    ((0.35, 0.7), (0.2, 0.95), (0.05, 0.5), (0.3, 0.0), (0.5, 0.2)),  # e
    ((0.3, 1.6), (0.35, 2.3), (0.15, 2.0), (0.25, 0.0), (0.4, 0.2)),  # l
    ((0.3, 0.9), (0.0, 0.5), (0.15, 0.0), (0.38, 0.6), (0.3, 0.9), (0.5, 0.7)),  # o
    ((0.3, 0.9), (0.35, -1.1), (0.05, -1.2), (0.3, -0.3), (0.5, 0.2)),  # g
    ((0.2, 0.9), (0.25, 0.0), (0.45, 0.9), (0.5, 0.0), (0.7, 0.9), (0.75, 0.0), (0.85, 0.1)),  # m
    ((0.25, 1.0), (0.3, 0.1), (0.45, 0.0)),  # i
)
CAPITALS = (
    ((0.3, 2.8), (0.55, 3.0), (0.35, 2.2), (0.1, 1.0), (0.6, 1.4), (0.8, 0.4), (0.9, 0.3)),
    ((0.1, 2.6), (0.0, 0.0), (0.2, 2.6), (0.8, 2.2), (0.3, 1.3), (0.9, 0.6), (0.3, 0.0), (0.8, 0.2)),
    ((-0.1, 2.4), (0.5, 2.9), (0.6, 2.2), (0.1, 0.6), (0.5, 0.0), (0.9, 0.4)),
)


def _smooth(points: np.ndarray, rounds: int = 4) -> np.ndarray:
    """Chaikin corner cutting: keypoints become a smooth pen path."""
    for _ in range(rounds):
        q = 0.75 * points[:-1] + 0.25 * points[1:]
        r = 0.25 * points[:-1] + 0.75 * points[1:]
        points = np.concatenate([points[:1], np.stack([q, r], 1).reshape(-1, 2), points[-1:]])
    return points


def _word_path(rng: np.random.Generator, x0: float, n_letters: int) -> tuple[np.ndarray, float]:
    pts = [(x0, 0.0)]
    x = x0
    cap = CAPITALS[int(rng.integers(len(CAPITALS)))]
    for dx, dy in cap:
        pts.append((x + dx * rng.uniform(0.9, 1.1), dy * rng.uniform(0.85, 1.1)))
    x += cap[-1][0]
    for i in range(n_letters):
        shape = LETTERS[int(rng.integers(len(LETTERS)))]
        sloppy = 1.0 - 0.5 * i / max(1, n_letters)  # letters flatten toward the end of a name
        w = rng.uniform(0.8, 1.2)
        for dx, dy in shape:
            pts.append((x + dx * w, dy * sloppy * rng.uniform(0.8, 1.2) + rng.normal(0, 0.05)))
        x += shape[-1][0] * w
    return np.array(pts), x


def signature(pixel_height: int, pixel_width: int, rng: np.random.Generator) -> np.ndarray:
    """Coverage mask of a cursive signature about ``pixel_width`` x ``pixel_height``:
    a capital and a few letter-like strokes per word, slanted, with pen lifts between
    words, pressure-varying width and sometimes a flourish."""
    ss = 2  # draw at twice the size, then downsample for smooth edges
    W, H = pixel_width * ss, pixel_height * ss
    canvas = np.zeros((H, W), np.uint8)
    strokes = []
    x = 0.0
    for word in range(2 if rng.random() < 0.85 else 1):
        n_letters = int(rng.integers(1, 3)) if word == 0 and rng.random() < 0.4 else int(rng.integers(3, 7))
        path, x = _word_path(rng, x, n_letters)
        strokes.append(path)
        x += rng.uniform(0.3, 0.8)
    if rng.random() < 0.5:  # underline flourish
        strokes.append(
            np.array([(x - 0.2, 0.3), (x * 0.6, -0.5), (0.1, -0.45)]) + rng.normal(0, 0.05, (3, 2))
        )
    allp = np.concatenate(strokes)
    slant = rng.uniform(0.15, 0.45)
    lo_x = (allp[:, 0] + slant * allp[:, 1]).min()
    hi_x = (allp[:, 0] + slant * allp[:, 1]).max()
    lo_y, hi_y = allp[:, 1].min(), allp[:, 1].max()
    sx = (W * 0.94) / max(1e-6, hi_x - lo_x)
    sy = (H * 0.9) / max(1e-6, hi_y - lo_y)
    s = min(sx, sy * 1.6)
    pen = max(1, int(round(H * rng.uniform(0.025, 0.045))))
    for path in strokes:
        smooth = _smooth(path)
        px = (smooth[:, 0] + slant * smooth[:, 1] - lo_x) * s + W * 0.03
        py = H * 0.95 - (smooth[:, 1] - lo_y) * min(sy, s)
        n = len(px)
        pressure = 0.55 + 0.45 * np.sin(np.linspace(0.2, np.pi - 0.2, n))
        for i in range(n - 1):
            cv2.line(
                canvas,
                (int(px[i]), int(py[i])),
                (int(px[i + 1]), int(py[i + 1])),
                255,
                max(1, int(round(pen * pressure[i]))),
                cv2.LINE_AA,
            )
    canvas = _elastic(canvas, rng, alpha=H * 0.01, sigma=H * 0.1)
    return cv2.resize(canvas, (pixel_width, pixel_height), interpolation=cv2.INTER_AREA)


def pen_color(rng: np.random.Generator) -> tuple[int, int, int]:
    return PEN_COLORS[int(rng.integers(len(PEN_COLORS)))]
