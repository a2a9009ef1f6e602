"""The page canvas: draws text, rules, boxes and ink masks with Pillow at a page's dpi and
records, for every personal value, the exact pixels of its ink (so gold boxes are tight
around what is printed, and can follow the page through rotation)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from redactor_eval.synth.fonts import Font, load

# A mask pixel counts as ink from this coverage on (0-255): the faint anti-aliased fringe
# below it is not something a reader sees as part of a glyph.
INK_THRESHOLD = 96
LETTER_IN = (8.5, 11.0)


@dataclass
class InkPiece:
    """Ink pixels of one drawn item: a boolean mask whose top-left pixel is (x, y)."""

    mask: np.ndarray
    x: int
    y: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        h, w = self.mask.shape
        return self.x, self.y, self.x + w, self.y + h


@dataclass
class Annotation:
    """A gold value: its fine type, verbatim text (``\\n`` between lines) and ink pieces."""

    type: str
    value: str
    pieces: list[InkPiece]
    # set by a geometric transform of the page (rotation); otherwise derived from pieces
    transformed_box: tuple[float, float, float, float] | None = None

    def bbox(self) -> tuple[float, float, float, float]:
        if self.transformed_box is not None:
            return self.transformed_box
        boxes = [p.box for p in self.pieces]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


@dataclass
class Run:
    """Where a text run landed, in points: left, right (advance) and the baseline."""

    x0: float
    x1: float
    baseline: float
    piece: InkPiece | None


def tight_piece(coverage: np.ndarray, x: int, y: int, width: int, height: int) -> InkPiece | None:
    """Crop a coverage mask placed at (x, y) to its ink, clipped to the page."""
    ink = coverage >= INK_THRESHOLD
    # clip to the page first
    x0c, y0c = max(0, -x), max(0, -y)
    x1c = min(ink.shape[1], width - x)
    y1c = min(ink.shape[0], height - y)
    if x1c <= x0c or y1c <= y0c:
        return None
    ink = ink[y0c:y1c, x0c:x1c]
    rows = np.flatnonzero(ink.any(axis=1))
    cols = np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return None
    crop = ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    return InkPiece(crop.copy(), x + x0c + int(cols[0]), y + y0c + int(rows[0]))


class Canvas:
    """A letter-size page at a given dpi. Layout code speaks points (1/72 in)."""

    def __init__(
        self,
        dpi: int,
        paper: tuple[int, int, int] = (255, 255, 255),
        ink: tuple[int, int, int] = (20, 20, 20),
        size_in: tuple[float, float] = LETTER_IN,
    ):
        self.dpi = dpi
        self.scale = dpi / 72.0
        self.width = round(size_in[0] * dpi)
        self.height = round(size_in[1] * dpi)
        self.width_pt = size_in[0] * 72.0
        self.height_pt = size_in[1] * 72.0
        self.image = Image.new("RGB", (self.width, self.height), paper)
        self.draw = ImageDraw.Draw(self.image)
        self.ink = ink
        self.annotations: list[Annotation] = []

    # -- units -------------------------------------------------------------------------
    def px(self, pt: float) -> int:
        return int(round(pt * self.scale))

    def pil_font(self, font: Font):
        return load(font.family, font.style, int(round(font.size * self.scale)))

    def measure(self, text: str, font: Font) -> float:
        """Advance width of ``text`` in points."""
        return self.pil_font(font).getlength(text) / self.scale

    def fit(self, text: str, font: Font, max_width: float, min_size: float = 5.0) -> Font:
        """The font shrunk (if needed) so that ``text`` fits ``max_width`` points."""
        while font.size > min_size and self.measure(text, font) > max_width:
            font = font.with_(size=font.size * 0.92)
        return font

    # -- drawing -----------------------------------------------------------------------
    def paste_mask(
        self, coverage: np.ndarray, x: int, y: int, color: tuple[int, int, int] | None = None
    ) -> InkPiece | None:
        """Composite a 0-255 coverage mask in ``color`` with its top-left at pixel (x, y)."""
        mask = Image.fromarray(coverage.astype(np.uint8), "L")
        self.image.paste(color or self.ink, (x, y), mask)
        return tight_piece(coverage, x, y, self.width, self.height)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: Font,
        *,
        color=None,
        kind: str | None = None,
        value: str | None = None,
        align: str = "left",
    ) -> Run:
        """Draw ``text`` with its baseline at ``y`` points; annotate it when ``kind`` is given."""
        f = self.pil_font(font)
        adv = f.getlength(text) / self.scale
        if align == "right":
            x -= adv
        elif align == "center":
            x -= adv / 2
        if not text.strip():
            return Run(x, x + adv, y, None)
        left, top, right, bottom = f.getbbox(text, anchor="ls")
        w, h = right - left + 4, bottom - top + 4
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).text((2 - left, 2 - top), text, font=f, fill=255, anchor="ls")
        px, py = self.px(x) + left - 2, self.px(y) + top - 2
        piece = self.paste_mask(np.asarray(mask), px, py, color)
        if kind and piece is not None:
            self.annotate(kind, text if value is None else value, [piece])
        return Run(x, x + adv, y, piece)

    def annotate(self, kind: str, value: str, pieces: list[InkPiece | None]) -> Annotation | None:
        pieces = [p for p in pieces if p is not None]
        if not pieces:
            return None
        ann = Annotation(kind, value, pieces)
        self.annotations.append(ann)
        return ann

    def lines(
        self,
        x: float,
        y: float,
        lines: list[str],
        font: Font,
        leading: float,
        *,
        kind: str | None = None,
        color=None,
        align: str = "left",
    ) -> float:
        """Draw stacked lines; with ``kind`` they form ONE annotation (value joined by \\n).
        Returns the baseline after the last line."""
        pieces = []
        for line in lines:
            pieces.append(self.text(x, y, line, font, color=color, align=align).piece)
            y += leading
        if kind:
            self.annotate(kind, "\n".join(lines), pieces)
        return y

    def label_value(
        self,
        x: float,
        y: float,
        label: str,
        value: str,
        kind: str | None,
        label_font: Font,
        value_font: Font | None = None,
        gap: float = 4.0,
        value_x: float | None = None,
        color=None,
    ) -> Run:
        """``Label: value`` on one line, the value annotated; ``value_x`` aligns a column."""
        run = self.text(x, y, label, label_font)
        vx = value_x if value_x is not None else run.x1 + gap
        return self.text(vx, y, value, value_font or label_font, kind=kind, color=color)

    def hline(self, x0: float, x1: float, y: float, width: float = 0.6, color=None) -> None:
        w = max(1, self.px(width))
        self.draw.rectangle(
            [self.px(x0), self.px(y), self.px(x1), self.px(y) + w - 1], fill=color or self.ink
        )

    def vline(self, x: float, y0: float, y1: float, width: float = 0.6, color=None) -> None:
        w = max(1, self.px(width))
        self.draw.rectangle(
            [self.px(x), self.px(y0), self.px(x) + w - 1, self.px(y1)], fill=color or self.ink
        )

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, width: float = 0.6, color=None, fill=None
    ) -> None:
        self.draw.rectangle(
            [self.px(x0), self.px(y0), self.px(x1), self.px(y1)],
            outline=color or self.ink,
            width=max(1, self.px(width)) if width else 0,
            fill=fill,
        )

    def fill(self, x0: float, y0: float, x1: float, y1: float, color) -> None:
        self.draw.rectangle([self.px(x0), self.px(y0), self.px(x1), self.px(y1)], fill=color)

    # -- running text ------------------------------------------------------------------
    def flow(
        self,
        x: float,
        y: float,
        width: float,
        segments: list[tuple[str, str | None]],
        font: Font,
        leading: float,
        indent: float = 0.0,
    ) -> float:
        """Wrap a paragraph made of plain text and typed values into ``width`` points.
        Values never break across lines. Returns the baseline after the paragraph."""
        atoms = _atoms(segments)
        space = self.measure(" ", font)
        line: list[list[tuple[str, str | None]]] = []
        line_w = indent
        first = True
        for atom, spaced in atoms:
            w = sum(self.measure(t, font) for t, _ in atom)
            extra = space if (line and spaced) else 0.0
            if line and line_w + extra + w > width:
                self._draw_line(x + (indent if first else 0.0), y, line, font, space)
                first = False
                y += leading
                line, line_w = [], 0.0
                extra = 0.0
            line.append([(t, k) for t, k in atom] if not (line and spaced) else [(" ", None)] + atom)
            line_w += extra + w
        if line:
            self._draw_line(x + (indent if first else 0.0), y, line, font, space)
            y += leading
        return y

    def _draw_line(self, x: float, y: float, line, font: Font, space: float) -> None:
        # merge plain runs so a line is a few draw calls, typed values drawn on their own
        runs: list[tuple[str, str | None]] = []
        for atom in line:
            for t, k in atom:
                if runs and k is None and runs[-1][1] is None:
                    runs[-1] = (runs[-1][0] + t, None)
                else:
                    runs.append((t, k))
        for t, k in runs:
            r = self.text(x, y, t, font, kind=k)
            x = r.x1


def _atoms(segments: list[tuple[str, str | None]]) -> list[tuple[list[tuple[str, str | None]], bool]]:
    """Split segments into unbreakable atoms (a word, or a value with punctuation glued to
    it); each atom records whether a space precedes it."""
    tokens: list[tuple[str, str | None, bool]] = []
    pending_space = False
    for text, kind in segments:
        if kind:
            tokens.append((text, kind, pending_space or not tokens))
            pending_space = False
            continue
        for m in re.finditer(r"(\s*)(\S+)|(\s+)$", text):
            if m.group(3) is not None:
                pending_space = True
                continue
            lead = bool(m.group(1))
            tokens.append((m.group(2), None, lead or pending_space or not tokens))
            pending_space = False
        if text and text[-1].isspace():
            pending_space = True
    atoms: list[tuple[list[tuple[str, str | None]], bool]] = []
    for t, k, spaced in tokens:
        if atoms and not spaced:
            atoms[-1][0].append((t, k))
        else:
            atoms.append(([(t, k)], spaced))
    return atoms
