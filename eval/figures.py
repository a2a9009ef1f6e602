"""The report's figures (matplotlib, Agg backend): PII per page histogram with CDF, the
60x60 heat map of where PII sits, failure causes, and overlays of leaking pages."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from eval.dataset import GoldPage  # noqa: E402
from eval.result import PageDetail  # noqa: E402

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


def _save(fig, path: Path) -> None:
    fig.savefig(path, dpi=110, bbox_inches="tight", facecolor="white")
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
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.4), gridspec_kw={"wspace": 0.35})
    for ax, grid, title in ((axes[0], grid_all, "all PII"), (axes[1], grid_crit, "critical PII")):
        im = ax.imshow(grid, cmap="YlOrRd", vmin=0, vmax=max(grid.max(), 1e-9),
                       extent=(0, HEATMAP_SIDE, HEATMAP_SIDE, 0), interpolation="nearest")
        ax.set_title(f"where {title} sits")
        ax.set_xlabel("x (page resized to 840 px)")
        ax.set_ylabel("y")
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="share of pages")
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


def page_overlay(detail: PageDetail, path: Path) -> None:
    """The page with gold (green), matched predictions (blue), unmatched predictions that
    touch a gold (orange dashed), other unmatched predictions (grey), OCR words (magenta
    dotted), and each leaked gold labelled with its type and failure cause."""
    pp = detail.prepared
    page = pp.page
    vx0, vy0, vx1, vy1 = _view(detail)
    fig, ax = plt.subplots(figsize=(9.0, min(max(9.0 * (vy1 - vy0) / (vx1 - vx0), 2.5), 16.0)))
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
    for g, cause in sorted(detail.causes.items()):
        gold = page.annotations[g]
        ax.text(gold.bbox[0], gold.bbox[1] - 2, f"{gold.type}: {cause}", fontsize=8,
                color="white", va="bottom", ha="left", clip_on=True,
                bbox=dict(boxstyle="square,pad=0.15", facecolor=LEAK_LABEL_COLOUR,
                          edgecolor="none", alpha=0.9))
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
    handles = [Line2D([], [], color=GOLD_COLOUR, lw=2, label="gold"),
               Line2D([], [], color=MATCHED_COLOUR, lw=2, label="matched prediction"),
               Line2D([], [], color=SUBTHRESHOLD_COLOUR, lw=2, ls="--",
                      label="sub-threshold prediction (unmatched, on a gold)"),
               Line2D([], [], color=OTHER_PRED_COLOUR, lw=1, ls="-.", label="other prediction"),
               Line2D([], [], color=WORD_COLOUR, lw=1, ls=":", label="OCR word"),
               Patch(facecolor=LEAK_LABEL_COLOUR, label="leaked gold: cause")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.005), ncol=3,
              fontsize=8, frameon=False)
    _save(fig, path)
