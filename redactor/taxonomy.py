"""The fine types and risk groups of the contract, read once from mappings/taxonomy.yaml."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import yaml

from redactor.errors import InputError
from redactor.paths import mapping_file


@lru_cache(maxsize=1)
def _load() -> tuple[dict[str, str], tuple[str, ...], frozenset[str]]:
    data = yaml.safe_load(mapping_file("taxonomy.yaml").read_text())
    type_to_group: dict[str, str] = {}
    for group, types in data["groups"].items():
        for t in types:
            type_to_group[t] = group
    critical = frozenset(t for t, g in type_to_group.items() if g in data["critical_groups"])
    return type_to_group, tuple(data["groups"]), critical


def fine_types() -> tuple[str, ...]:
    return tuple(_load()[0])


def groups() -> tuple[str, ...]:
    return _load()[1]


def group_of(fine_type: str) -> str:
    try:
        return _load()[0][fine_type]
    except KeyError:
        raise InputError(f"unknown type {fine_type!r} (known: {', '.join(fine_types())})") from None


def is_known(fine_type: str) -> bool:
    return fine_type in _load()[0]


def is_critical(fine_type: str) -> bool:
    return fine_type in _load()[2]


def critical_types() -> frozenset[str]:
    return _load()[2]


def types_in_group(group: str) -> tuple[str, ...]:
    return tuple(t for t, g in _load()[0].items() if g == group)


def parse_types(names: Iterable[str]) -> frozenset[str]:
    """Validate user-given type names; group names (``direct``, ``critical``) expand."""
    out: set[str] = set()
    for raw in names:
        for name in str(raw).split(","):
            name = name.strip()
            if not name:
                continue
            upper = name.upper()
            if name.lower() == "critical":
                out |= critical_types()
            elif name.lower() in groups():
                out |= set(types_in_group(name.lower()))
            elif is_known(upper):
                out.add(upper)
            else:
                raise InputError(f"unknown type {name!r} (known: {', '.join(fine_types())}, "
                                 f"or a group: {', '.join(groups())}, critical)")
    return frozenset(out)
