"""Reading the public source repositories the real pages come from, at a pinned commit,
from a clone or a bare git directory, and turning a source file into the page image."""
from __future__ import annotations

import hashlib
import io
import subprocess
from pathlib import Path

from PIL import Image

from redactor.errors import InputError

# The commits the specs were written against (PROVENANCE.md says more).
COMMITS = {
    "funsd": ("Doc-LD/funsd-bench", "388964efaccfb2acfe7f170dad5746852ab62e97"),
    "vrdu": ("google-research-datasets/vrdu", "04a4df7ac5cc694e51c48115c03fe428f0e240cc"),
}
# Paths no spec may name: kept for independent evaluation (FUNSD's test split, VRDU's
# ad-buy forms); reading them here would leak them into our tuning.
RESERVED_PREFIXES = {"funsd": ("testing_data/",), "vrdu": ("ad-buy-form/",)}


def check_not_reserved(source: str, path: str) -> None:
    for prefix in RESERVED_PREFIXES.get(source, ()):
        if path.startswith(prefix):
            raise InputError(f"{source}:{path} is reserved for independent evaluation")


def git_dir(repo: str | Path) -> Path:
    repo = Path(repo)
    if (repo / ".git").exists():
        return repo / ".git"
    if (repo / "HEAD").is_file() and (repo / "objects").is_dir():
        return repo
    raise InputError(f"{repo}: not a git clone or bare git directory")


def read_source_file(repo: str | Path, commit: str, path: str, source: str) -> bytes:
    check_not_reserved(source, path)
    proc = subprocess.run(["git", "--git-dir", str(git_dir(repo)), "show", f"{commit}:{path}"],
                          capture_output=True)
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"{repo}: cannot read {path} at {commit[:10]}: {msg[-1] if msg else ''}")
    return proc.stdout


def pixel_sha256(image: Image.Image) -> str:
    """Hash of the decoded pixels (mode, size, bytes): stable across PNG encoders."""
    h = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode())
    h.update(image.tobytes())
    return h.hexdigest()


def render_pdf_page(data: bytes, page: int, dpi: int) -> Image.Image:
    """One page of a PDF at ``dpi``, in grey (the FARA filings are black-and-white scans)."""
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(data)
    try:
        if not 1 <= page <= len(pdf):
            raise InputError(f"the PDF has {len(pdf)} pages, not page {page}")
        bitmap = pdf[page - 1].render(scale=dpi / 72, grayscale=True)
        return bitmap.to_pil().convert("L")
    finally:
        pdf.close()


def source_image(source: str, data: bytes, pdf_page: int | None, dpi: int | None) -> Image.Image:
    if source == "vrdu":
        return render_pdf_page(data, pdf_page or 1, dpi or 150)
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.copy()
