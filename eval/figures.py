"""The report's figures (matplotlib, Agg backend): PII per page histogram with CDF, the
60x60 heat map of where PII sits, failure causes, and overlays of leaking pages.

Every figure is written readable by its owner only (0600): overlays show pages with their
personal data, and a report folder is often shared."""
from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from redactor.box_geometry import overlaps  # noqa: E402
from redactor_eval.dataset import GoldPage  # noqa: E402
from redactor_eval.result import PageDetail  # noqa: E402

# Figure 2 of the paper: pages resized to 840x840 and cut into 14x14-pixel blocks.
HEATMAP_SIDE = 840
HEATMAP_BLOCK = 14
HEATMAP_CELLS = HEATMAP_SIDE // HEATMAP_BLOCK    # 60

GOLD_COLOUR = "#1a9850"
MATCHED_COLOUR = "#2166ac"
SUBTHRESHOLD_COLOUR = "#f46d43"
WORD_COLOUR = "#c51b7d"
OTHER_PRED_COLOUR = "#7f7f7f"
LEAK_LABEL_COLOUR = "#b2182b"
LABEL_FONT = 8              # points
LABEL_PAD = 0.15            # the label's box round its text, in font sizes (matplotlib's pad)
LABEL_GAP = 3.0             # display pixels from a label to its (3 px wide) box or another label


@contextlib.contextmanager
def private_file(path: Path):
    """A binary file object on a temporary file beside ``path``, renamed onto ``path`` when
    the block succeeds. mkstemp creates it 0600, so the content is never readable by
    others, not even while it is written, and the rename keeps that mode."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".fig-", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _save(fig, path: Path) -> None:
    try:
        with private_file(path) as fh:
            fig.savefig(fh, format=Path(path).suffix.lstrip(".") or "png", dpi=110,
                        bbox_inches="tight", facecolor="white")
    finally:
        plt.close(fig)


def pii_per_page(pages: Sequence[GoldPage], path: Path) -> None:
    """Histogram of gold identifiers per page (all and critical), with the CDF of all."""
    counts = np.array([len(p.annotations) for p in pages])
    crit = np.array([sum(a.critical for a in p.annotations) for p in pages])
    top = int(max(counts.max(initial=0), 1))
    xs = np.arange(0, top + 1)
    n_all = np.bincount(counts, minlength=top + 1)[: top + 1]
    n_crit = np.bincount(crit, minlength=top + 1)[: top + 1]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(xs - 0.2, n_all, width=0.4, color="#4393c3", label="all PII")
    ax.bar(xs + 0.2, n_crit, width=0.4, color="#d6604d", label="critical PII")
    ax.set_xlabel("PII instances on the page")
    ax.set_ylabel("pages")
    ax.xaxis.get_major_locator().set_params(integer=True)
    cdf_ax = ax.twinx()
    cdf = np.cumsum(n_all) / max(len(counts), 1)
    cdf_ax.step(np.append(xs, top + 0.5), np.append(cdf, 1.0), where="post", color="black",
                linewidth=1.6, label="CDF (all PII)")
    cdf_ax.set_ylim(0, 1.02)
    cdf_ax.set_ylabel("share of pages with at most x PII")
    handles = ax.get_legend_handles_labels()[0] + cdf_ax.get_legend_handles_labels()[0]
    ax.legend(handles=handles, loc="upper left")
    ax.set_title(f"PII per page ({len(pages)} pages, median {np.median(counts):g}, "
                 f"mean {counts.mean():.1f})")
    _save(fig, path)


def heatmap_grids(pages: Sequence[GoldPage]) -> tuple[np.ndarray, np.ndarray]:
    """(all, critical) 60x60 grids: share of pages with a gold box touching each block,
    each page resized to 840x840."""
    grid_all = np.zeros((HEATMAP_CELLS, HEATMAP_CELLS))
    grid_crit = np.zeros_like(grid_all)
    for page in pages:
        seen_all = np.zeros_like(grid_all, dtype=bool)
        seen_crit = np.zeros_like(seen_all)
        sx, sy = HEATMAP_SIDE / page.width, HEATMAP_SIDE / page.height
        for a in page.annotations:
            x0, y0, x1, y1 = a.bbox
            c0 = min(int(math.floor(x0 * sx / HEATMAP_BLOCK)), HEATMAP_CELLS - 1)
            r0 = min(int(math.floor(y0 * sy / HEATMAP_BLOCK)), HEATMAP_CELLS - 1)
            c1 = max(min(int(math.ceil(x1 * sx / HEATMAP_BLOCK)), HEATMAP_CELLS), c0 + 1)
            r1 = max(min(int(math.ceil(y1 * sy / HEATMAP_BLOCK)), HEATMAP_CELLS), r0 + 1)
            seen_all[r0:r1, c0:c1] = True
            if a.critical:
                seen_crit[r0:r1, c0:c1] = True
        grid_all += seen_all
        grid_crit += seen_crit
    n = max(len(pages), 1)
    return grid_all / n, grid_crit / n


def pii_heatmap(pages: Sequence[GoldPage], path: Path) -> None:
    grid_all, grid_crit = heatmap_grids(pages)
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.4), gridspec_kw={"wspace": 0.2})
    # One norm and one colorbar for both panels: with a scale each, the same colour would
    # mean a different share on the left and on the right.
    norm = Normalize(vmin=0.0, vmax=max(grid_all.max(), grid_crit.max(), 1e-9))
    for ax, grid, title in ((axes[0], grid_all, "all PII"), (axes[1], grid_crit, "critical PII")):
        im = ax.imshow(grid, cmap="YlOrRd", norm=norm, extent=(0, HEATMAP_SIDE, HEATMAP_SIDE, 0),
                       interpolation="nearest")
        ax.set_title(f"where {title} sits")
        ax.set_xlabel("x (page resized to 840 px)")
        ax.set_ylabel("y")
    fig.colorbar(im, ax=list(axes), fraction=0.046, pad=0.04, label="share of pages")
    fig.suptitle(f"PII location over {len(pages)} pages (60x60 blocks of 14x14 px)")
    _save(fig, path)


def attribution_bars(attribution: dict, path: Path) -> None:
    counts = attribution["counts"]
    names = list(counts)
    values = [counts[n] for n in names]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    bars = ax.barh(names[::-1], values[::-1], color="#d6604d")
    total = attribution["missed_critical"]
    for bar, v in zip(bars, values[::-1]):
        share = f" ({100 * v / total:.0f} %)" if total else ""
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {v}{share}",
                va="center", fontsize=10)
    ax.set_xlabel("missed critical identifiers")
    ax.set_xlim(0, max(values + [1]) * 1.25)
    mode = "with the OCR words" if attribution["mode"] == "ocr" else "OCR-free: no OCR words"
    ax.set_title(f"Why {total} critical identifiers leaked ({mode})")
    _save(fig, path)


def _page_image(page: GoldPage):
    from PIL import Image

    if page.image is not None and page.image.is_file():
        with Image.open(page.image) as img:
            return np.asarray(img.convert("RGB"))
    return np.full((page.height, page.width, 3), 255, dtype=np.uint8)


def _rect(ax, box, colour, style="-", width=1.5):
    x0, y0, x1, y1 = box
    ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=colour,
                           linestyle=style, linewidth=width))


def _view(detail: PageDetail, margin: float = 0.04) -> tuple[float, float, float, float]:
    """The part of the page worth showing: everything drawn plus a margin, so that small
    boxes on a large page stay legible; the whole page when nothing is drawn."""
    pp = detail.prepared
    page = pp.page
    boxes = [a.bbox for a in page.annotations]
    boxes += [p.bbox for p, ok in zip(pp.predictions, pp.pred_valid) if ok]
    boxes += [w.bbox for w in detail.words or ()]
    if not boxes:
        return 0.0, 0.0, float(page.width), float(page.height)
    arr = np.array(boxes, dtype=float)
    pad = margin * max(page.width, page.height)
    x0 = max(0.0, arr[:, 0].min() - pad)
    y0 = max(0.0, arr[:, 1].min() - pad)
    x1 = min(float(page.width), arr[:, 2].max() + pad)
    y1 = min(float(page.height), arr[:, 3].max() + pad)
    return x0, y0, x1, y1


def _candidates(anchor, w: float, h: float, gap: float):
    """Spots for a w x h label round its anchor box, best first (display pixels, y up):
    above and below its left edge, then its right edge, inside its top, beside it."""
    x0, y0, x1, y1 = anchor
    mid = (y0 + y1 - h) / 2
    for lx, ly in ((x0, y1 + gap), (x0, y0 - gap - h), (x1 - w, y1 + gap), (x1 - w, y0 - gap - h),
                   (x0 + gap, y1 - gap - h), (x1 + gap, mid), (x0 - gap - w, mid)):
        yield lx, ly, lx + w, ly + h


def _place_one(anchor, sizes, bounds, placed, others, gap):
    bx0, by0, bx1, by1 = bounds
    for k, (w, h) in enumerate(sizes):
        # First a spot that hides no other box, then one that only avoids the other labels.
        for avoid in (placed + others, placed):
            for x0, y0, x1, y1 in _candidates(anchor, w, h, gap):
                shift = min(max(x0, bx0), bx1 - w) - x0     # slide sideways into the axes
                rect = (x0 + shift, y0, x1 + shift, y1)
                if rect[0] < bx0 or rect[1] < by0 or rect[3] > by1:
                    continue
                grown = (rect[0] - gap, rect[1] - gap, rect[2] + gap, rect[3] + gap)
                if not any(overlaps(grown, r) for r in avoid):
                    return k, rect
    return None


def place_labels(anchors, sizes, bounds, gap: float = LABEL_GAP):
    """Greedy label placement, in the order given: each label takes the first spot of
    ``_candidates`` that lies inside ``bounds`` and keeps ``gap`` from every label placed
    before it, preferring a spot that covers no other anchor. ``sizes[i]`` lists the (w, h)
    of the label's texts, longest first: a crowded spot falls back to the shorter text.
    Returns per anchor (text index, rectangle), or None when no text fits anywhere (the
    caller leaves that label to the legend)."""
    placed: list[tuple] = []
    out = []
    for i, anchor in enumerate(anchors):
        others = [tuple(a) for j, a in enumerate(anchors) if j != i]
        spot = _place_one(tuple(anchor), sizes[i], tuple(bounds), placed, others, gap)
        if spot is not None:
            placed.append(spot[1])
        out.append(spot)
    return out


def _label_style() -> dict:
    return dict(fontsize=LABEL_FONT, color="white", va="bottom", ha="left", clip_on=True,
                bbox=dict(boxstyle=f"square,pad={LABEL_PAD}", facecolor=LEAK_LABEL_COLOUR,
                          edgecolor="none", alpha=0.9))


def _leak_labels(ax, detail: PageDetail) -> list[str]:
    """Label each leaked gold with its type and cause where the label overlaps no other:
    the full text, else a short ``#n`` tag, else nothing. Returns the legend lines of the
    golds whose full text is not on the page."""
    page = detail.prepared.page
    fig = ax.figure
    ax.apply_aspect()                # the axes' final box: positions below are in pixels
    renderer = fig.canvas.get_renderer()
    pad = LABEL_PAD * renderer.points_to_pixels(LABEL_FONT)

    def size(text: str) -> tuple[float, float]:
        probe = ax.text(0, 0, text, fontsize=LABEL_FONT)
        ext = probe.get_window_extent(renderer)
        probe.remove()
        return ext.width + 2 * pad, ext.height + 2 * pad

    items = sorted(detail.causes.items())
    texts = [(f"{page.annotations[g].type}: {cause}", f"#{n}") for n, (g, cause) in
             enumerate(items, start=1)]
    anchors = []
    for g, _ in items:
        (x0, y0), (x1, y1) = ax.transData.transform(np.reshape(page.annotations[g].bbox, (2, 2)))
        anchors.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    spots = place_labels(anchors, [[size(t) for t in pair] for pair in texts], ax.bbox.extents)
    to_data = ax.transData.inverted()
    legend = []
    for (g, _), (full, tag), spot in zip(items, texts, spots):
        if spot is not None:
            x, y = to_data.transform((spot[1][0] + pad, spot[1][1] + pad))
            ax.text(x, y, (full, tag)[spot[0]], **_label_style())
        if spot is None or spot[0]:
            x0, y0 = page.annotations[g].bbox[:2]
            legend.append(f"{tag} {full}" if spot else f"{full} at x {x0:.0f}, y {y0:.0f} (no room)")
    return legend


def _overlay_boxes(ax, detail: PageDetail) -> None:
    pp = detail.prepared
    page = pp.page
    ax.imshow(_page_image(page), extent=(0, page.width, page.height, 0), alpha=0.55)
    for w in detail.words or ():
        _rect(ax, w.bbox, WORD_COLOUR, ":", 0.8)
    # gold first and wide, predictions on top and thin: a prediction hugging its gold box
    # stays visible
    for g, gold in enumerate(page.annotations):
        x0, y0, x1, y1 = gold.bbox
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=GOLD_COLOUR, alpha=0.15,
                               edgecolor="none"))
        _rect(ax, gold.bbox, GOLD_COLOUR, "-", 3.2 if g in detail.causes else 2.4)
    matched = set(int(p) for p in detail.matches.typed if p >= 0)
    touches_gold = (pp.inter > 0).any(axis=0) if pp.n_gold else np.zeros(pp.n_pred, dtype=bool)
    for i, pred in enumerate(pp.predictions):
        if not pp.pred_valid[i]:
            continue
        if i in matched:
            _rect(ax, pred.bbox, MATCHED_COLOUR, "-", 1.3)
        elif touches_gold[i]:
            _rect(ax, pred.bbox, SUBTHRESHOLD_COLOUR, "--", 1.6)
        else:
            _rect(ax, pred.bbox, OTHER_PRED_COLOUR, "-.", 1.0)


def _overlay_legend(ax, unlabelled: list[str]) -> None:
    handles = [Line2D([], [], color=GOLD_COLOUR, lw=2, label="gold"),
               Line2D([], [], color=MATCHED_COLOUR, lw=2, label="matched prediction"),
               Line2D([], [], color=SUBTHRESHOLD_COLOUR, lw=2, ls="--",
                      label="sub-threshold prediction (unmatched, on a gold)"),
               Line2D([], [], color=OTHER_PRED_COLOUR, lw=1, ls="-.", label="other prediction"),
               Line2D([], [], color=WORD_COLOUR, lw=1, ls=":", label="OCR word"),
               Patch(facecolor=LEAK_LABEL_COLOUR, label="leaked gold: cause")]
    # the leaked golds whose label did not fit on the page, as entries without a symbol
    handles += [Line2D([], [], linestyle="none", label=text) for text in unlabelled]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.005), ncol=3,
              fontsize=8, frameon=False)


def page_overlay(detail: PageDetail, path: Path) -> None:
    """The page with gold (green), matched predictions (blue), unmatched predictions that
    touch a gold (orange dashed), other unmatched predictions (grey), OCR words (magenta
    dotted), and each leaked gold labelled with its type and failure cause; labels never
    overlap each other, and one that finds no room is shortened or moved to the legend."""
    pp = detail.prepared
    page = pp.page
    vx0, vy0, vx1, vy1 = _view(detail)
    fig, ax = plt.subplots(figsize=(9.0, min(max(9.0 * (vy1 - vy0) / (vx1 - vx0), 2.5), 16.0)))
    _overlay_boxes(ax, detail)
    ax.set_xlim(vx0, vx1)
    ax.set_ylim(vy1, vy0)
    ax.set_xticks([])
    ax.set_yticks([])
    n_crit = len(detail.missed_critical)
    status = f"invalid page: {pp.error}" if pp.error else f"{len(detail.missed)} of {pp.n_gold} gold leaked"
    cropped = (vx1 - vx0, vy1 - vy0) != (page.width, page.height)
    ax.set_title(f"{page.page_id}: {status} ({n_crit} critical)"
                 + (f"  [x {vx0:.0f}-{vx1:.0f}, y {vy0:.0f}-{vy1:.0f}]" if cropped else ""),
                 fontsize=11)
    # labels last: they are placed in pixels, which need the final limits
    _overlay_legend(ax, _leak_labels(ax, detail))
    _save(fig, path)
