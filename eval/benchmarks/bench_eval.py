"""How long the evaluator takes to score 10,000 synthetic pages with 25 gold boxes and 30
predictions each (no ink measures: those are bound by image decoding).

Run: ``python -m redactor_eval.benchmarks.bench_eval [--pages N]``; prints the seconds taken.
"""
from __future__ import annotations

import argparse
import random
import time

from redactor import taxonomy
from redactor_eval.api import evaluate
from redactor_eval.dataset import GoldBox, GoldPage
from redactor_eval.predictions import PagePrediction, Prediction

WIDTH, HEIGHT = 1700, 2200


def synthetic_set(n_pages: int, n_gold: int = 25, n_pred: int = 30, seed: int = 0):
    """Gold boxes on a page, and predictions that are jittered copies of most of them
    (some retyped), plus spurious boxes; a few pages are errors."""
    rng = random.Random(seed)
    types = taxonomy.fine_types()
    pages, preds = [], []
    for i in range(n_pages):
        golds = []
        for _ in range(n_gold):
            x0, y0 = rng.uniform(0, WIDTH - 400), rng.uniform(0, HEIGHT - 60)
            golds.append(GoldBox((x0, y0, x0 + rng.uniform(40, 400), y0 + rng.uniform(15, 60)),
                                 rng.choice(types)))
        boxes = []
        for g in golds[: n_gold - 3]:
            x0, y0, x1, y1 = g.bbox
            j = lambda: rng.uniform(-4, 4)  # noqa: E731
            box = (max(0.0, x0 + j()), max(0.0, y0 + j()), min(WIDTH, x1 + j()), min(HEIGHT, y1 + j()))
            fine = g.type if rng.random() < 0.9 else rng.choice(types)
            boxes.append(Prediction(box, fine, score=rng.random()))
        while len(boxes) < n_pred:
            x0, y0 = rng.uniform(0, WIDTH - 300), rng.uniform(0, HEIGHT - 40)
            boxes.append(Prediction((x0, y0, x0 + 300, y0 + 40), rng.choice(types)))
        rng.shuffle(boxes)
        pid = f"p{i:05d}"
        pages.append(GoldPage(pid, WIDTH, HEIGHT, tuple(golds)))
        preds.append(PagePrediction(pid, tuple(boxes), error="timeout" if i % 97 == 0 else None))
    return pages, preds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    args = parser.parse_args(argv)
    pages, preds = synthetic_set(args.pages)
    start = time.perf_counter()
    result = evaluate(pages, preds, tau=0.75)
    seconds = time.perf_counter() - start
    print(f"bench_eval: scored {args.pages} pages x 25 gold x 30 predictions "
          f"(taus 0.5/0.75/0.95, typed and untyped, attribution) in {seconds:.2f} s "
          f"({1e3 * seconds / args.pages:.3f} ms/page); "
          f"F1_loc={result.f1_loc:.4f} DocLeak_all={result.docleak_all:.4f}")


if __name__ == "__main__":
    main()
