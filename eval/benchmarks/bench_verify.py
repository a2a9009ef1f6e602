"""Verification of redacted pages: false alarms, catch rate, second-pass fixes and time cost,
on the committed generated pages and the real dev pages, before (every candidate the re-read
reports fails the page: ``redactor.verify.candidate_findings``, the earlier check) and after
(``verify_page``'s judged findings, a second redaction pass, verify again).

Per page the default pipeline redacts through ``redact_document`` (what ``redactor redact
--verify`` runs), with OCR served from a content-keyed cache so reruns are quick. A gold
critical value is *readable* in an output page when the OCR words of that page, read again,
hold it inside its gold box (``eval.attribution.recoverable_flags``, the "crit readable in
OCR" of ``redactor bench``). Then, per set:

- leak pages: after the first pass a gold critical value is readable;
- false-alarm pages: the page would be quarantined (before: any candidate; after: the final
  verification fails) although it is no leak page; "touched" counts pages the second pass
  changed although they were no leak page (an extra box, not a quarantine);
- catch rate: among leak pages, the share verification flagged (failed or fixed);
- fixed: leak pages whose final output has no readable gold critical value;
- pages/s of ``redact_document`` without and with verification (no OCR cache) on a few pages.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from redactor.box_geometry import overlaps

ROOT = Path(__file__).resolve().parents[2]
SETS = (("generated", ROOT / "eval/data/challenge/pages.jsonl", None),
        ("real dev", ROOT / "eval/data/real/pages.jsonl", "dev"))


class CachedOcr:
    """The pipeline's OCR backend, answering from an ``OcrCache`` when it read the same
    pixels before."""

    def __init__(self, inner, cache):
        self.inner, self.cache = inner, cache

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def read(self, image):
        from redactor.ocr_cache import image_hash
        fingerprint, key = self.inner.fingerprint(), image_hash(image)
        hit = self.cache.get(fingerprint, key)
        if hit is not None:
            return hit[0]
        t0 = time.perf_counter()
        page = self.inner.read(image)
        self.cache.put(fingerprint, key, page, time.perf_counter() - t0)
        return page


@dataclass
class PageLog:
    readable_first: int = 0              # gold critical values readable after the first pass
    readable_final: int = 0              # ... in the page as written
    detectable: bool = False             # a re-read detector hit overlaps a readable one
    old_candidates: int = 0
    first_ok: bool = True
    final_ok: bool = True
    second_pass: bool = False
    dropped: dict = field(default_factory=dict)


class Recorder:
    """Stands in for the analyzer of ``redact_document``: analyses with the redactor, and
    on every verification call also judges the re-read against the gold."""

    def __init__(self, redactor, gold_by_id):
        self.redactor, self.gold = redactor, gold_by_id
        self.logs: dict[str, PageLog] = {}

    def analyze(self, image, page_id="page"):
        return self.redactor.analyze(image, page_id=page_id)

    def verify(self, redacted, result):
        from redactor_eval.attribution import recoverable_flags
        from redactor_eval.metrics import prepare_page
        from redactor.verify import candidate_findings, judge

        page = self.redactor.read(redacted)
        gold = self.gold[result.page_id]
        flags = recoverable_flags(prepare_page(gold, None), page.words)
        readable = [g for g, ok in zip(gold.annotations, flags) if ok and g.critical]
        verification = judge(self.redactor, page, result)
        log = self.logs.get(result.page_id)
        if log is None:    # the first pass's output
            candidates = candidate_findings(self.redactor, page, result)
            hits = [c["bbox"] for c in candidates if c["reason"] == "detected"]
            log = self.logs[result.page_id] = PageLog(
                readable_first=len(readable), old_candidates=len(candidates),
                first_ok=verification.ok, dropped=verification.dropped,
                detectable=any(overlaps(g.bbox, h) for g in readable for h in hits))
        else:              # the second pass's output
            log.second_pass = True
        log.readable_final, log.final_ok = len(readable), verification.ok
        return verification


def measure(redactor, gold_pages, out_dir: Path) -> dict:
    from redactor.document import redact_document

    recorder = Recorder(redactor, {p.page_id: p for p in gold_pages})
    for p in gold_pages:
        redact_document(redactor, p.image, out_dir, stem=p.page_id, analyzer=recorder)
    logs = list(recorder.logs.values())
    leak = [g for g in logs if g.readable_first]
    clean = [g for g in logs if not g.readable_first]
    dropped: dict = {}
    for g in logs:
        for k, v in g.dropped.items():
            dropped[k] = dropped.get(k, 0) + v
    return {
        "pages": len(logs), "leak_pages": len(leak),
        "before_flagged": sum(1 for g in logs if g.old_candidates),
        "before_false_alarm": sum(1 for g in clean if g.old_candidates),
        "before_caught": sum(1 for g in leak if g.old_candidates),
        "before_candidates": sum(g.old_candidates for g in logs),
        "after_quarantined": sum(1 for g in logs if not g.final_ok),
        "after_false_alarm": sum(1 for g in clean if not g.final_ok),
        "after_touched_clean": sum(1 for g in clean if g.second_pass),
        "after_caught": sum(1 for g in leak if not g.first_ok),
        "detectable": sum(1 for g in leak if g.detectable),
        "before_caught_detectable": sum(1 for g in leak if g.detectable and g.old_candidates),
        "after_caught_detectable": sum(1 for g in leak if g.detectable and not g.first_ok),
        "second_pass_pages": sum(1 for g in logs if g.second_pass),
        "second_pass_fixed": sum(1 for g in logs if g.second_pass and g.final_ok),
        "leak_fixed": sum(1 for g in leak if not g.readable_final),
        "dropped": dropped,
    }


def timing(config, images: list[Path], out_dir: Path) -> tuple[float, float]:
    """pages/s of redact_document without and with verification (real OCR, no cache)."""
    from redactor.config import load_config
    from redactor.document import redact_document
    from redactor.pipeline import Redactor

    rates = []
    for verify in (False, True):
        redactor = Redactor(load_config(None, {**config.to_dict(), "verify": verify,
                                               "on_verify_fail": "quarantine"}))
        redactor.analyze(_first_image(images))   # warm up (models load on first use)
        t0 = time.perf_counter()
        for i, path in enumerate(images):
            redact_document(redactor, path, out_dir / f"t{int(verify)}", stem=f"p{i}")
        rates.append(len(images) / (time.perf_counter() - t0))
    return rates[0], rates[1]


def _first_image(images):
    from PIL import Image
    with Image.open(images[0]) as im:
        return im.convert("RGB")


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100.0 * n / d:.0f} %)" if d else f"{n}/0"


def main() -> None:
    import os
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    from redactor_eval.dataset import load_dataset, select_split
    from redactor.config import load_config
    from redactor.ocr_cache import OcrCache
    from redactor.pipeline import Redactor

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cache", default=str(ROOT / "out/bench-verify-ocr-cache"),
                    help="OCR cache folder (content-keyed; reused between runs)")
    ap.add_argument("--limit", type=int, default=None, help="pages per set")
    ap.add_argument("--time-pages", type=int, default=6,
                    help="pages of the generated set timed without cache (0: skip)")
    args = ap.parse_args()

    config = load_config(None, {"verify": True, "on_verify_fail": "quarantine"})
    redactor = Redactor(config)
    redactor.ocr = CachedOcr(redactor.ocr, OcrCache(args.cache))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, pages_file, split in SETS:
            if not pages_file.exists():
                print(f"{name}: {pages_file} missing, skipped")
                continue
            try:
                pages = select_split(load_dataset(pages_file), split)
            except Exception as exc:   # real images are fetched separately (make real-data)
                print(f"{name}: cannot load ({exc}), skipped")
                continue
            pages = pages[: args.limit] if args.limit else pages
            t0 = time.perf_counter()
            rows.append((name, measure(redactor, pages, Path(tmp) / name.replace(" ", "-"))))
            print(f"{name}: {len(pages)} pages measured in {time.perf_counter() - t0:.0f} s")
        rate = None
        if args.time_pages:
            images = [p.image for p in load_dataset(SETS[0][1])[: args.time_pages]]
            rate = timing(config, images, Path(tmp))

    print()
    print("A page is a leak page when a gold critical value is readable in the OCR of its "
          "first-pass output.")
    print("Detectable: a critical hit of the re-read's detectors overlaps the readable value "
          "(the most verification with the pipeline's own detectors can see).")
    print(f"{'set':<10} {'':<7} {'pages':>5} {'leak pages':>10} {'false-alarm pages':>18} "
          f"{'catch rate':>13} {'catch (detectable)':>19} {'2nd pass pages (fixed)':>23} "
          f"{'clean pages touched':>20}")
    for name, m in rows:
        clean = m["pages"] - m["leak_pages"]
        print(f"{name:<10} {'before':<7} {m['pages']:>5} {m['leak_pages']:>10} "
              f"{_pct(m['before_false_alarm'], m['pages']):>18} "
              f"{_pct(m['before_caught'], m['leak_pages']):>13} "
              f"{_pct(m['before_caught_detectable'], m['detectable']):>19} {'-':>23} {'-':>20}")
        print(f"{'':<10} {'after':<7} {m['pages']:>5} {m['leak_pages']:>10} "
              f"{_pct(m['after_false_alarm'], m['pages']):>18} "
              f"{_pct(m['after_caught'], m['leak_pages']):>13} "
              f"{_pct(m['after_caught_detectable'], m['detectable']):>19} "
              f"{str(m['second_pass_pages']) + ' (' + str(m['second_pass_fixed']) + ')':>23} "
              f"{_pct(m['after_touched_clean'], clean):>20}")
    for name, m in rows:
        print(f"{name}: before {m['before_flagged']} pages flagged ({m['before_candidates']} "
              f"candidates); after {m['after_quarantined']} quarantined; leak pages with no "
              f"readable gold value in the written output: {m['leak_fixed']}/{m['leak_pages']}; "
              f"candidates dropped: {m['dropped']}")
    if rate:
        off, on = rate
        print(f"pages/s (redact_document, {args.time_pages} generated pages, real OCR): "
              f"verify off {off:.2f}, verify on {on:.2f} (x{off / on:.2f} time)")


if __name__ == "__main__":
    main()
