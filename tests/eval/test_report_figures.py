"""The report's figures as a reader sees them: leak labels on a crowded page never overlap
(a label with no room is shortened to a tag or moved to the legend), the two heat-map panels
share one colour scale, and every file and folder the report writes is its owner's only."""
from __future__ import annotations

import itertools
import os
import stat
from pathlib import Path

import pytest
from PIL import Image

from redactor.box_geometry import overlaps
from redactor_eval import figures
from redactor_eval.api import evaluate
from redactor_eval.dataset import GoldBox, GoldPage
from redactor_eval.predictions import PagePrediction, Prediction
from redactor_eval.report import write_report

TYPES = ["PERSON", "PHONE", "EMAIL", "DATE", "ADDRESS", "ID_NUMBER"]


@pytest.fixture()
def captured(monkeypatch):
    """The figures a drawing function made, kept open instead of saved."""
    figs = []
    monkeypatch.setattr(figures, "_save", lambda fig, path: figs.append(fig))
    yield figs
    for fig in figs:
        figures.plt.close(fig)


def crowded_page(tmp_path: Path) -> GoldPage:
    """24 small gold boxes in a tight grid: rows 4 px apart, far less than a label's height."""
    Image.new("RGB", (1400, 600), "white").save(tmp_path / "p.png")
    boxes = []
    for r in range(6):
        for c in range(4):
            x, y = 100 + c * 130, 100 + r * 14
            boxes.append(GoldBox((x, y, x + 110, y + 10), TYPES[(r * 4 + c) % len(TYPES)]))
    return GoldPage("crowded", 1400, 600, tuple(boxes), image=tmp_path / "p.png")


def test_leak_labels_on_a_crowded_page_do_not_overlap(tmp_path, captured):
    page = crowded_page(tmp_path)
    detail = evaluate([page], [PagePrediction("crowded", ())]).pages[0]
    assert len(detail.causes) == 24
    figures.page_overlay(detail, tmp_path / "o.png")
    (fig,) = captured
    fig.canvas.draw()
    ax = fig.axes[0]
    boxes = [t.get_bbox_patch().get_window_extent() for t in ax.texts]
    clashes = [(a.get_text(), b.get_text()) for (a, ra), (b, rb) in
               itertools.combinations(zip(ax.texts, boxes), 2) if ra.overlaps(rb)]
    assert not clashes
    axes_box = ax.get_window_extent()
    assert all(axes_box.x0 <= r.x0 and r.x1 <= axes_box.x1 and axes_box.y0 <= r.y0
               and r.y1 <= axes_box.y1 for r in boxes)
    # every leaked gold is accounted for: its full label on the page, or a line in the legend
    on_page = [t.get_text() for t in ax.texts]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    for g, cause in detail.causes.items():
        full = f"{page.annotations[g].type}: {cause}"
        assert full in on_page or any(full in line for line in legend), full
    full_on_page = [t for t in on_page if ": " in t]
    assert 10 <= len(full_on_page) < 24 and len(legend) > 6    # crowded: some fell back


def test_label_placement_falls_back_to_short_text_then_to_none():
    # three boxes stacked without a gap in a frame barely wider than they are (display
    # pixels, y up): the top label goes above its box; the middle one, with a box above and
    # below, inside its own box's top; the bottom one's long text fits nowhere, its short
    # tag does; a label wider than the frame gets no spot
    anchors = [(10, 40, 60, 50), (10, 30, 60, 40), (10, 20, 60, 30), (10, 20, 60, 30)]
    sizes = [[(40, 8)], [(40, 8)], [(200, 8), (12, 8)], [(500, 8)]]
    bounds = (0, 20, 70, 62)
    spots = figures.place_labels(anchors, sizes, bounds, gap=1)
    assert spots[0] == (0, (10, 51, 50, 59))
    assert spots[1] == (0, (11, 31, 51, 39))
    assert spots[2][0] == 1 and spots[3] is None
    rects = [s[1] for s in spots if s]
    assert not any(overlaps(a, b) for a, b in itertools.combinations(rects, 2))
    assert all(bounds[0] <= r[0] and r[2] <= bounds[2] and bounds[1] <= r[1] and r[3] <= bounds[3]
               for r in rects)


def test_heatmap_panels_share_one_colour_scale(captured, tmp_path):
    # the DATE block is on both pages (share 1.0); the only critical box, PHONE, on one
    pages = [GoldPage("a", 840, 840, (GoldBox((0, 0, 28, 14), "PHONE"),
                                      GoldBox((420, 420, 500, 440), "DATE"))),
             GoldPage("b", 840, 840, (GoldBox((420, 420, 500, 440), "DATE"),))]
    figures.pii_heatmap(pages, tmp_path / "h.png")
    (fig,) = captured
    images = [im for ax in fig.axes for im in ax.images]
    assert len(images) == 2
    norms = [(im.norm.vmin, im.norm.vmax) for im in images]
    assert norms[0] == norms[1] == (0.0, 1.0)
    colorbars = [ax for ax in fig.axes if ax.get_ylabel() == "share of pages"]
    assert len(colorbars) == 1


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_report_files_are_owner_only(tmp_path):
    Image.new("RGB", (300, 120), "white").save(tmp_path / "p.png")
    page = GoldPage("p", 300, 120, (GoldBox((20, 20, 140, 50), "PHONE", "555 0100"),
                                    GoldBox((20, 70, 140, 100), "PERSON", "Ann Lee")),
                    image=tmp_path / "p.png")
    result = evaluate([page], [PagePrediction("p", (Prediction((20, 20, 140, 50), "PHONE"),))])
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    old = os.umask(0o022)          # the usual umask, which makes new files world-readable
    try:
        report = write_report(result, shared / "runs" / "report")
    finally:
        os.umask(old)
    files = sorted(report.parent.iterdir())
    assert {f.name for f in files} >= {"report.md", "pii_heatmap.png", "page_01_p.png"}
    assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
    assert _mode(shared / "runs") == 0o700 and _mode(shared / "runs" / "report") == 0o700
    assert _mode(shared) == 0o755                      # a folder the report did not create


def test_private_file_leaves_nothing_when_writing_fails(tmp_path):
    with pytest.raises(RuntimeError):
        with figures.private_file(tmp_path / "x.png") as fh:
            fh.write(b"half")
            raise RuntimeError("disk full")
    assert list(tmp_path.iterdir()) == []
