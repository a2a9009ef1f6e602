"""Where the project's data files live: the label maps and rule tables (``mappings/``,
installed as the ``redactor_mappings`` package's data)."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def mappings_dir() -> Path:
    """The mappings folder, from a checkout, an editable install or a wheel alike."""
    try:
        folder = Path(str(resources.files("redactor_mappings")))
    except ModuleNotFoundError:
        folder = Path(__file__).resolve().parent.parent / "mappings"   # a bare checkout
    if not (folder / "taxonomy.yaml").is_file():
        raise FileNotFoundError(f"redactor's mappings were not found in {folder} (broken installation)")
    return folder


def mapping_file(name: str) -> Path:
    return mappings_dir() / name
