"""The default pipeline beside plain Tesseract + Presidio and the peer
(presidio-image-redactor), in one `redactor bench` run per dataset: first the real pages
(eval/data/real, dev split; the held-back split only with --split heldout, for final
figures), then the committed generated pages. The table users compare tools by."""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ["default", "tesseract+presidio", "peer-presidio-image"]
REAL = ROOT / "eval/data/real/pages.jsonl"
GENERATED = ROOT / "eval/data/challenge/pages.jsonl"


def real_images_missing(pages: Path) -> int:
    import json
    base = pages.parent
    return sum(not (base / json.loads(line)["image"]).is_file()
               for line in pages.read_text(encoding="utf-8").splitlines() if line.strip())


def bench(pages: Path, out: Path, workers: int, split: str | None,
          systems: list[str] = SYSTEMS) -> None:
    """One `redactor bench` run of ``systems`` on ``pages`` (one split of them)."""
    cmd = [sys.executable, "-m", "redactor", "bench", "--pages", str(pages), "--out", str(out),
           "--workers", str(workers)]
    if split:
        cmd += ["--split", split]
    for s in systems:
        cmd += ["--system", s]
    subprocess.run(cmd, check=True)


def gap_markdown(real: dict, generated: dict) -> str:
    """The same systems on real and on generated pages: how much the generated pages
    flatter each one (positive gap = leaks more on real pages)."""
    lines = ["| system | DocLeak_crit@0.5 real / generated | DocLeak_ink_crit real / generated "
             "| F1_loc@0.5 real / generated |", "|---|---:|---:|---:|"]
    for label, r in real["systems"].items():
        g = generated["systems"].get(label)
        if g is None:
            continue
        def pair(key_fn):
            a, b = key_fn(r), key_fn(g)
            return "–" if a is None or b is None else f"{a:.3f} / {b:.3f} ({a - b:+.3f})"
        lines.append(f"| {label} | {pair(lambda m: m['per_tau']['0.5']['docleak_crit'])} | "
                     f"{pair(lambda m: m.get('docleak_ink_crit'))} | "
                     f"{pair(lambda m: m['per_tau']['0.5']['f1_loc'])} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--real", default=str(REAL), help="the real pages (default: %(default)s)")
    ap.add_argument("--split", default="dev", help="split of the real pages (default: dev)")
    ap.add_argument("--generated", default=str(GENERATED),
                    help="the generated pages (default: %(default)s)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="keep the bench folders here (default: a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        real = Path(args.real)
        missing = real_images_missing(real)
        if missing:
            print(f"real pages: {missing} image(s) of {real.parent} are not there; rebuild them "
                  f"with `make real-data FUNSD=<clone of Doc-LD/funsd-bench> VRDU=<clone of "
                  f"google-research-datasets/vrdu>` (eval/data/real/PROVENANCE.md)")
        else:
            print(f"== real pages ({args.split})")
            bench(real, out / "real", args.workers, args.split)
        print("== generated pages (committed challenge set)")
        bench(Path(args.generated), out / "generated", args.workers, None)
        if not missing:
            import json
            gap = gap_markdown(json.loads((out / "real/bench.json").read_text()),
                               json.loads((out / "generated/bench.json").read_text()))
            (out / "gap.md").write_text(gap)
            print("== real vs generated pages\n" + gap)


if __name__ == "__main__":
    main()
