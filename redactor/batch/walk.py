"""Finds the inputs of a batch run (images and PDFs under a folder, recursively) and names
their outputs in a mirrored tree: ``SRC/a/b/x.png`` -> ``DST/a/b/x.redacted.png`` and
``DST/a/b/x.boxes.jsonl``.

Hidden files and folders (a leading dot) are skipped: they hold temporary files, the
manifest and version-control data, never pages. Folder symlinks are not followed (a link
loop would never end); file symlinks are inputs like any other file.
"""
from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from redactor.errors import InputError

INPUT_SUFFIXES = frozenset({
    ".png", ".jpg", ".jpeg", ".jpe", ".jfif", ".tif", ".tiff", ".webp", ".bmp", ".gif",
    ".pbm", ".pgm", ".ppm", ".pnm", ".jp2", ".j2k", ".pdf",
})


@dataclass(frozen=True)
class InputFile:
    rel: str          # path relative to SRC, '/'-separated: the manifest key
    path: Path        # where to read it
    stem: str         # output base name within its mirrored folder
    size: int
    mtime_ns: int

    @property
    def rel_dir(self) -> PurePosixPath:
        return PurePosixPath(self.rel).parent


def is_input_name(name: str) -> bool:
    return not name.startswith(".") and Path(name).suffix.lower() in INPUT_SUFFIXES


def check_folders(src: Path, dst: Path) -> None:
    """SRC must be a folder; DST may sit inside SRC (it is then skipped by the walk) but
    must not be SRC itself or contain it, or outputs would be read back as inputs."""
    if not src.exists():
        raise InputError(f"{src}: no such folder")
    if not src.is_dir():
        raise InputError(f"{src} is not a folder; use `redactor redact` for single files")
    s, d = src.resolve(), dst.resolve()
    if s == d or s.is_relative_to(d):
        raise InputError(f"--out {dst} must not be {src} or a folder that contains it "
                         f"(outputs would be read back as inputs)")
    from redactor.document import QUARANTINE_DIR
    if (src / QUARANTINE_DIR).is_dir():
        # its mirrored outputs would land among the pages that failed verification
        raise InputError(f"{src / QUARANTINE_DIR}: a folder named {QUARANTINE_DIR!r} at the top of "
                         f"SRC_DIR would mix with DST_DIR/{QUARANTINE_DIR}/ (pages that failed "
                         f"verification); move it one level down")


def _stems(names: list[str]) -> dict[str, str]:
    """Output stem per file name of one folder: the name without its suffix, or the whole
    name when two inputs of the folder share a stem (x.png and x.pdf)."""
    counts = Counter(Path(n).stem for n in names)
    return {n: (Path(n).stem if counts[Path(n).stem] == 1 else n) for n in names}


def find_inputs(src: Path, dst: Path | None = None) -> tuple[list[InputFile], int]:
    """Every input under ``src`` in a stable order, and how many other files were ignored."""
    src = Path(src)
    skip = dst.resolve() if dst is not None else None
    found: list[InputFile] = []
    ignored = 0
    for folder, dirs, files in os.walk(src, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(".") and (skip is None or (here / d).resolve() != skip))
        names = []
        for name in sorted(files):
            if is_input_name(name) and (here / name).is_file():
                names.append(name)
            else:
                ignored += 1
        stems = _stems(names)
        for name in names:
            path = here / name
            try:
                st = path.stat()
            except OSError:
                ignored += 1   # vanished or unreadable between listing and stat
                continue
            rel = path.relative_to(src).as_posix()
            found.append(InputFile(rel, path, stems[name], st.st_size, st.st_mtime_ns))
    return found, ignored


def output_path(dst: Path, item_rel: str, filename: str) -> Path:
    """Where an output file of the input ``item_rel`` goes in the mirrored tree."""
    return Path(dst).joinpath(*PurePosixPath(item_rel).parent.parts, filename)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def estimate_pages(path: Path) -> int:
    """Page count for the progress bar, cheaply (PDF page tree, TIFF frames); 1 when the
    file cannot tell, the real count arrives with the result."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".pdf":
            import pypdfium2 as pdfium
            pdf = pdfium.PdfDocument(str(path))
            try:
                return max(1, len(pdf))
            finally:
                pdf.close()
        if suffix in (".tif", ".tiff", ".gif", ".webp"):
            from PIL import Image
            with Image.open(path) as img:
                return max(1, getattr(img, "n_frames", 1))
    except Exception:   # a corrupt file fails properly in its worker; here it is one page
        return 1
    return 1
