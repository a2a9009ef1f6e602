"""Human-readable output of an evaluation: the console table, and a report folder with
report.md and its PNG figures (written to a scratch folder first, so a failure leaves
nothing half-written). The report shows pages with their personal data, so its files are
readable by their owner only (0600) and the folders it creates are 0700."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from redactor.errors import OutputError
from redactor_eval.result import TAU_KEYS, EvalResult, PageDetail

HEADLINE_ROWS = (("f1_loc", "F1_loc"), ("f1_loc_gold_pages", "F1_loc (pages with gold)"),
                 ("f1_type", "F1_type"), ("docleak_all", "DocLeak_all"),
                 ("docleak_crit", "DocLeak_crit"), ("valid", "Valid"))
WORST_PAGES = 6


def _num(value, pct: bool = False) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f} %" if pct else f"{value:.4f}"


def format_table(result: EvalResult) -> str:
    """The console table: headline at each tau, per-group leakage, attribution."""
    c = result.counts
    lines = [f"system: {result.system or '(unnamed)'}   main tau: {result.tau:g}   "
             f"pages: {c['pages']} (with gold {c['pages_with_gold']}, with critical "
             f"{c['pages_with_critical']}, errors {c['error_pages']}, missing {c['missing_pages']})",
             f"predictions: {c['predictions']} ({c['invalid_predictions']} invalid)", ""]
    taus = list(TAU_KEYS)
    columns = {k: result.per_tau[k].to_json() for k in taus}
    if f"{result.tau:g}" not in taus:
        taus.append(f"{result.tau:g}")
        columns[taus[-1]] = result.headline.to_json()
    lines.append(f"{'metric':<26}" + "".join(f"{'tau=' + t:>12}" for t in taus))
    for key, label in HEADLINE_ROWS:
        lines.append(f"{label:<26}" + "".join(f"{_num(columns[t][key]):>12}" for t in taus))
    lines += ["", f"page leakage per group (tau={result.tau:g}):"]
    for group, g in result.per_group.items():
        lines.append(f"  {group:<12} {_num(g['docleak']):>8}  ({g['leaking']} of {g['pages']} pages)")
    mc = result.missed_crit
    lines += ["", f"missed critical on {mc['leaking_pages']} leaking pages: mean {_num(mc['mean'])}, "
                  f"median {_num(mc['median'])}, P90 {_num(mc['p90'])}, "
                  f"share of the page's critical {_num(mc['share'], pct=True)}"]
    a = result.attribution
    lines.append(f"failure attribution ({a['mode'].replace('_', '-')}, "
                 f"{a['missed_critical']} missed critical):")
    for cause, n in a["counts"].items():
        lines.append(f"  {cause:<18} {n:>6}  {_num(a['shares'][cause], pct=True):>8}")
    if "split" in a:
        lines.append("  split: " + ", ".join(f"{k} {v}" for k, v in a["split"].items()))
    if result.ocr_recoverability:
        r = result.ocr_recoverability
        lines.append(f"OCR recoverability: {r['not_in_ocr']} of {r['critical_with_value']} critical "
                     f"values not in the OCR text ({_num(r['share_not_in_ocr'], pct=True)})")
    if result.ink:
        i = result.ink
        lines += ["", f"ink: DocLeak_ink_all {_num(i['docleak_ink_all'])}, DocLeak_ink_crit "
                      f"{_num(i['docleak_ink_crit'])}, ink recall (critical) "
                      f"{_num(i['ink_recall_crit'])}, collateral {_num(i['collateral'])}"]
    if result.coverage:
        r = result.coverage["restricted"]
        cov = result.coverage["type_coverage"]
        lines += ["", "type coverage (share of gold annotations of an emitted type): " +
                  ", ".join(f"{g} {_num(v['annotation_share'], pct=True)}" for g, v in cov.items()),
                  f"restricted to emitted types: DocLeak_all {_num(r['docleak_all'])}, "
                  f"DocLeak_crit {_num(r['docleak_crit'])}"]
    return "\n".join(lines)


def worst_pages(result: EvalResult, n: int = WORST_PAGES) -> list[PageDetail]:
    """Leaking pages, most missed critical identifiers first, then most missed overall."""
    leaking = [d for d in result.pages if d.missed]
    leaking.sort(key=lambda d: (-len(d.missed_critical), -len(d.missed), d.page_id))
    return leaking[:n]


def _safe_name(page_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in page_id)[:80]


def _markdown(result: EvalResult, figures: dict[str, str], worst: list[PageDetail]) -> str:
    c = result.counts
    out = [f"# Leakage report: {result.system or 'unnamed system'}", "",
           f"{c['pages']} pages ({c['pages_with_gold']} with gold, {c['pages_with_critical']} with "
           f"critical identifiers), {c['gold']} gold boxes, {c['predictions']} predictions "
           f"({c['invalid_predictions']} invalid), {c['error_pages']} invalid pages "
           f"({c['missing_pages']} missing from the prediction file). Main tau {result.tau:g}.", "",
           "## Headline", "", "| metric | " + " | ".join(f"tau {t}" for t in TAU_KEYS) + " |",
           "|---|" + "---:|" * len(TAU_KEYS)]
    for key, label in HEADLINE_ROWS:
        cells = [_num(getattr(result.per_tau[t], key)) for t in TAU_KEYS]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += ["", "A page leaks when one of its gold identifiers stays unmatched (typed matching); "
            "DocLeak is the share of leaking pages.", "",
            f"## Leakage per risk group (tau {result.tau:g})", "",
            "| group | pages | leaking | DocLeak |", "|---|---:|---:|---:|"]
    for group, g in result.per_group.items():
        out.append(f"| {group} | {g['pages']} | {g['leaking']} | {_num(g['docleak'])} |")
    mc = result.missed_crit
    out += ["", "## Missed critical identifiers on leaking pages", "",
            "| leaking pages | mean | median | P90 | share of the page's critical |",
            "|---:|---:|---:|---:|---:|",
            f"| {mc['leaking_pages']} | {_num(mc['mean'])} | {_num(mc['median'])} | "
            f"{_num(mc['p90'])} | {_num(mc['share'], pct=True)} |", ""]
    a = result.attribution
    out += [f"## Why critical identifiers leaked ({a['mode'].replace('_', '-')})", "",
            f"![failure causes]({figures['attribution']})", "",
            "| cause | count | share |", "|---|---:|---:|"]
    out += [f"| {k} | {v} | {_num(a['shares'][k], pct=True)} |" for k, v in a["counts"].items()]
    if "split" in a:
        out += ["", "Without OCR words: " + ", ".join(f"{k} {v}" for k, v in a["split"].items()) + "."]
    if result.ocr_recoverability:
        r = result.ocr_recoverability
        out += ["", f"OCR recoverability: {r['not_in_ocr']} of {r['critical_with_value']} critical "
                    f"values are not in the OCR text inside their box "
                    f"({_num(r['share_not_in_ocr'], pct=True)}); {r['missed_and_not_in_ocr']} of "
                    f"them leaked."]
    if result.ink:
        i = result.ink
        out += ["", "## What a reader can still see (ink)", "",
                "| DocLeak_ink_all | DocLeak_ink_crit | ink recall (critical) | collateral |",
                "|---:|---:|---:|---:|",
                f"| {_num(i['docleak_ink_all'])} | {_num(i['docleak_ink_crit'])} | "
                f"{_num(i['ink_recall_crit'])} | {_num(i['collateral'])} |"]
    if result.coverage:
        cov = result.coverage["type_coverage"]
        r = result.coverage["restricted"]
        out += ["", "## Type coverage and restricted leakage", "",
                "| scope | types emitted | gold annotations of an emitted type |", "|---|---:|---:|"]
        out += [f"| {g} | {_num(v['types'], pct=True)} | {_num(v['annotation_share'], pct=True)} |"
                for g, v in cov.items()]
        out += ["", f"Gold restricted to emitted types: DocLeak_all {_num(r['docleak_all'])}, "
                    f"DocLeak_crit {_num(r['docleak_crit'])}."]
    out += ["", "## The dataset", "", f"![PII per page]({figures['pii_per_page']})", "",
            f"![PII heat map]({figures['pii_heatmap']})", "", "## Worst pages", ""]
    if not worst:
        out.append("No page leaks.")
    else:
        out += ["| page | gold | critical | leaked | leaked critical | causes | error |",
                "|---|---:|---:|---:|---:|---|---|"]
        for d in worst:
            causes = ", ".join(f"{k} {v}" for k, v in _cause_counts(d).items())
            out.append(f"| {d.page_id} | {d.prepared.n_gold} | {int(d.prepared.gold_critical.sum())} "
                       f"| {len(d.missed)} | {len(d.missed_critical)} | {causes} | "
                       f"{d.prepared.error or ''} |")
        out += ["", "Gold green, matched predictions blue, sub-threshold predictions orange dashed, "
                    "OCR words magenta dotted; every leaked gold is labelled with its type and "
                    "cause (where labels would overlap, a #n tag or no label, and a line in the "
                    "figure's legend).", ""]
        for d in worst:
            out += [f"### {d.page_id}", "", f"![{d.page_id}]({figures['page:' + d.page_id]})", ""]
    return "\n".join(out) + "\n"


def _cause_counts(d: PageDetail) -> dict[str, int]:
    out: dict[str, int] = {}
    for cause in d.causes.values():
        out[cause] = out.get(cause, 0) + 1
    return out


def _make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and its missing parents 0700 (``mkdir -p`` would make the parents
    world-readable); folders that already exist keep their mode: they are the user's."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)


def write_report(result: EvalResult, folder: Path) -> Path:
    """Write report.md and figures into ``folder``; returns the path of report.md."""
    from redactor_eval import figures as fig

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"report folder {folder} is a file")
    try:
        _make_private_dirs(folder)
        scratch = Path(tempfile.mkdtemp(prefix=".report-", dir=folder))
    except OSError as exc:
        raise OutputError(f"cannot write the report into {folder}: {exc.strerror or exc}") from None
    try:
        pages = [d.prepared.page for d in result.pages]
        names = {"pii_per_page": "pii_per_page.png", "pii_heatmap": "pii_heatmap.png",
                 "attribution": "attribution.png"}
        fig.pii_per_page(pages, scratch / names["pii_per_page"])
        fig.pii_heatmap(pages, scratch / names["pii_heatmap"])
        fig.attribution_bars(result.attribution, scratch / names["attribution"])
        worst = worst_pages(result)
        for rank, d in enumerate(worst, start=1):
            name = f"page_{rank:02d}_{_safe_name(d.page_id)}.png"
            fig.page_overlay(d, scratch / name)
            names["page:" + d.page_id] = name
        with fig.private_file(scratch / "report.md") as fh:
            fh.write(_markdown(result, names, worst).encode("utf-8"))
        for item in scratch.iterdir():
            os.replace(item, folder / item.name)
    except OSError as exc:
        raise OutputError(f"cannot write the report into {folder}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return folder / "report.md"
