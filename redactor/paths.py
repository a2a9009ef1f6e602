"""Where the project's data files (mappings, bundled samples) live."""
from __future__ import annotations

import sys
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def mappings_dir() -> Path:
    """The ``mappings/`` folder: beside the package in a checkout or editable install,
    under ``<prefix>/share/redactor/mappings`` in a wheel install."""
    for candidate in (_REPO_ROOT / "mappings", Path(sys.prefix) / "share" / "redactor" / "mappings"):
        if (candidate / "taxonomy.yaml").is_file():
            return candidate
    raise FileNotFoundError("redactor's mappings/ folder was not found (broken installation)")


def mapping_file(name: str) -> Path:
    return mappings_dir() / name
