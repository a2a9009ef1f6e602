"""Flags several commands share, spelled and defaulted once so they mean the same thing
everywhere."""
from __future__ import annotations

import os


def default_workers() -> int:
    """One worker per CPU this process may use (a container's CPU limit included)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # not on Linux
        return max(1, os.cpu_count() or 1)


def add_workers_option(p, what: str = "worker processes") -> None:
    p.add_argument("--workers", type=int, metavar="N", default=default_workers(),
                   help=f"{what}; each holds its own OCR engine and models, so lower it when "
                        f"memory is short (default: one per CPU, {default_workers()} here)")


def check_workers(workers: int) -> None:
    from redactor.errors import InputError

    if workers < 1:
        raise InputError(f"--workers must be at least 1, not {workers}")


def add_burn_options(p) -> None:
    """How boxes are burned: the same in redact, batch and apply."""
    p.add_argument("--pad", type=float, help="grow every box by this many pixels")
    p.add_argument("--fill", help="box colour, a name or #rrggbb")
