"""One-line summaries of a redacted document for the terminal: what was hidden, counted per
type, and what verification still found readable, by type and box (never the value: the
terminal and CI logs are not the place for it)."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from redactor.model import PageResult


def type_counts(pages: Iterable[PageResult]) -> str:
    """``"7 box(es): PERSON 3, PHONE 2, EMAIL 1, DATE 1"`` (most frequent first)."""
    counts = Counter(r.type for p in pages for r in p.redactions)
    total = sum(counts.values())
    if not total:
        return "0 boxes"
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return f"{total} box(es): " + ", ".join(f"{t} {n}" for t, n in ordered)


def readable_findings(pages: Iterable[PageResult], limit: int = 3) -> str:
    """``"page 2: PHONE at [x0, y0, x1, y1] (detected); ..."`` for pages that failed
    verification."""
    items = []
    for page in pages:
        verification = page.verification or {}
        if verification.get("ok", True):
            continue
        for finding in verification.get("findings") or []:
            box = finding.get("bbox")
            where = f" at [{', '.join(f'{v:.0f}' for v in box)}]" if box else ""
            items.append(f"page {page.page_id}: {finding.get('type', '?')}{where} "
                         f"({finding.get('reason', 'readable')})")
    if not items:
        return "verification failed"
    more = f"; and {len(items) - limit} more" if len(items) > limit else ""
    return "still readable: " + "; ".join(items[:limit]) + more
