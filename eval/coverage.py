"""Type coverage of a system and the dataset restricted to the types it can emit.

A system that cannot emit ADDRESS leaks every address by construction; restricted leakage
(the paper's Table 8) scores it only on the gold it could have found, and type coverage
(Table 4) says how much of the gold that is.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from redactor import taxonomy
from redactor_eval.dataset import GoldPage


def type_coverage(pages: Iterable[GoldPage], emits: frozenset[str]) -> dict[str, dict]:
    """Per risk group (and ``critical``, ``all``): the share of the group's fine types the
    system emits, and the share of the group's gold annotations of an emitted type."""
    pages = list(pages)
    scopes = {g: set(taxonomy.types_in_group(g)) for g in taxonomy.groups()}
    scopes["critical"] = set(taxonomy.critical_types())
    scopes["all"] = set(taxonomy.fine_types())
    out = {}
    for name, types in scopes.items():
        golds = [a for p in pages for a in p.annotations if a.type in types]
        supported = sum(a.type in emits for a in golds)
        out[name] = {"types": len(types & emits) / len(types),
                     "annotations": len(golds),
                     "annotations_supported": supported,
                     "annotation_share": supported / len(golds) if golds else None}
    return out


def restrict(pages: Iterable[GoldPage], emits: frozenset[str]) -> list[GoldPage]:
    """The same pages with only the gold annotations of emitted types."""
    return [replace(p, annotations=tuple(a for a in p.annotations if a.type in emits))
            for p in pages]
