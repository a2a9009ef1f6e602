"""Typewritten values: a monospaced (Courier-like) font struck one key at a time, so every
character sits a little above or below the line, a little left or right, and with its own
ink density (uneven key pressure, a worn ribbon). The value is one mask, so its gold box is
the tight box of all its characters' ink."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from redactor_eval.synth.fonts import MONO, Font
from redactor_eval.synth.render import Canvas, Run

# Courier clones that look typed; DejaVu Sans Mono looks like a terminal, not a typewriter
TYPEWRITER_FAMILIES = tuple(f for f in MONO if f != "dejavu-mono")


def typewriter_font(rng: np.random.Generator, size: float | None = None) -> Font:
    fam = TYPEWRITER_FAMILIES[int(rng.integers(len(TYPEWRITER_FAMILIES)))]
    return Font(fam, float(rng.uniform(9.5, 11.5)) if size is None else size)


def typewrite(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    font: Font,
    rng: np.random.Generator,
    *,
    kind: str | None = None,
    value: str | None = None,
    jitter: float = 0.35,
    fade: tuple[float, float] = (0.7, 1.0),
    color=None,
) -> Run:
    """Type ``text`` with its baseline near ``y`` points; annotate it when ``kind`` is given."""
    f = canvas.pil_font(font)
    adv = f.getlength(text) / canvas.scale
    if not text.strip():
        return Run(x, x + adv, y, None)
    pitch = f.getlength("M")  # fixed pitch in pixels
    asc, desc = f.getmetrics()
    pad = int(asc * 0.3) + 4
    W = int(pitch * len(text) + 2 * pad)
    H = int(asc + desc + 2 * pad)
    acc = np.zeros((H, W), dtype=np.float32)
    j = jitter * canvas.scale
    for i, ch in enumerate(text):
        if ch == " ":
            continue
        glyph = Image.new("L", (W, H), 0)
        dx, dy = rng.uniform(-j, j) * 0.6, rng.uniform(-j, j)
        ImageDraw.Draw(glyph).text((pad + i * pitch + dx, pad + asc + dy), ch, font=f, fill=255, anchor="ls")
        g = np.asarray(glyph, dtype=np.float32) * rng.uniform(*fade)
        acc = np.maximum(acc, g)
    px, py = canvas.px(x) - pad, canvas.px(y) - pad - asc
    piece = canvas.paste_mask(acc.astype(np.uint8), px, py, color)
    if kind and piece is not None:
        canvas.annotate(kind, text if value is None else value, [piece])
    return Run(x, x + adv, y, piece)


def typewrite_lines(
    canvas: Canvas,
    x: float,
    y: float,
    lines: list[str],
    font: Font,
    rng: np.random.Generator,
    leading: float,
    kind: str | None = None,
) -> float:
    """Stacked typed lines forming ONE annotation (value joined by ``\\n``)."""
    pieces = []
    for line in lines:
        pieces.append(typewrite(canvas, x, y, line, font, rng).piece)
        y += leading
    if kind:
        canvas.annotate(kind, "\n".join(lines), pieces)
    return y
