"""Feedback while a run goes: progress per page of one document, and one quarantine folder
name for `redact` and `batch`."""
from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main
from redactor.document import QUARANTINE_DIR, redact_document
from redactor.pipeline import Redactor


def _tiff(path, pages=3):
    font = ImageFont.truetype("DejaVuSans.ttf", 30)
    images = []
    for i in range(pages):
        image = Image.new("RGB", (900, 200), "white")
        ImageDraw.Draw(image).text((30, 60), f"Page {i + 1}: call 212-555-014{i}", font=font, fill="black")
        images.append(image)
    images[0].save(path, save_all=True, append_images=images[1:], dpi=(200, 200))
    return path


def test_redact_document_reports_each_page_as_it_finishes(tmp_path):
    ticks = []
    doc = redact_document(Redactor(visual="none", verify=False), _tiff(tmp_path / "doc.tif"),
                          tmp_path / "out", progress=ticks.append)
    assert ticks == [1, 1, 1] and len(doc.pages) == 3


def test_batch_and_redact_share_the_quarantine_folder_name(tmp_path, capsys):
    src = tmp_path / "src"
    (src / QUARANTINE_DIR).mkdir(parents=True)
    _tiff(src / QUARANTINE_DIR / "x.tif", pages=1)
    assert QUARANTINE_DIR == "quarantine"
    # a source folder of that name would mix with the outputs that failed verification
    assert main(["batch", str(src), "--out", str(tmp_path / "dst"), "--workers", "1"]) == 2
    assert "move it one level down" in capsys.readouterr().err
