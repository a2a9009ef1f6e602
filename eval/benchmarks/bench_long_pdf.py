"""Peak memory of `redactor redact` on long PDFs: the same small page repeated N times (a
93 KB file can hold 10,000 pages), redacted with the default pipeline; peak resident memory
of the run for several N. Pages stream through one at a time, so the peak must not grow
with N (before, every page was decoded first: about 5 GB after 20 s for 9,999 pages).

    python -m redactor_eval.benchmarks.bench_long_pdf [--pages 100,1000] [--keep DIR]

Prints one line per N: seconds, pages/s, peak MB, output size. A page is a quarter-letter
card at 200 dpi with a name, an e-mail and a phone number, so every page is OCR'd and
redacted for real.
"""
from __future__ import annotations

import argparse
import io
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def card_pdf(path: Path, pages: int) -> None:
    """``pages`` pages that all draw one shared image (the file stays small)."""
    import img2pdf
    import pikepdf
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("L", (850, 550), 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 26)
    for i, line in enumerate(["Account holder: Margaret Holloway",
                              "Email: m.holloway@example.org", "Phone: (415) 555-0142"]):
        d.text((40, 60 + 90 * i), line, font=font, fill=0)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    one = img2pdf.convert([buf.getvalue()], layout_fun=img2pdf.get_fixed_dpi_layout_fun((200, 200)))
    with pikepdf.open(io.BytesIO(one)) as src:
        pdf = pikepdf.new()
        for _ in range(pages):
            pdf.pages.append(src.pages[0])
        pdf.save(path)


def run(n: int, work: Path) -> dict:
    src = work / f"cards-{n}.pdf"
    card_pdf(src, n)
    out = work / f"out-{n}"
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([sys.executable, "-m", "redactor", "redact", str(src), "--out", str(out),
                           "--overwrite"], capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if done.returncode != 0:
        raise SystemExit(f"redact failed on {n} pages: {done.stderr.strip()}")
    if peak <= before:
        # ru_maxrss of children is the largest so far; a smaller run after a larger one
        # cannot be told apart, hence runs go from small to large
        peak = before
    target = out / f"cards-{n}.redacted.pdf"
    return {"pages": n, "seconds": seconds, "peak_mb": peak / 1024.0,
            "input_kb": src.stat().st_size / 1024.0, "output_mb": target.stat().st_size / 1e6}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default="50,500", help="comma-separated page counts, small to large")
    ap.add_argument("--keep", metavar="DIR", help="work here and keep the files")
    args = ap.parse_args(argv)
    counts = sorted(int(x) for x in args.pages.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        rows = [run(n, work) for n in counts]
    print(f"{'pages':>6} {'input KB':>9} {'seconds':>8} {'pages/s':>8} {'peak MB':>8} {'output MB':>9}")
    for r in rows:
        print(f"{r['pages']:>6} {r['input_kb']:>9.0f} {r['seconds']:>8.1f} {r['pages'] / r['seconds']:>8.2f} "
              f"{r['peak_mb']:>8.0f} {r['output_mb']:>9.1f}")
    growth = rows[-1]["peak_mb"] / rows[0]["peak_mb"] if rows[0]["peak_mb"] else float("nan")
    print(f"peak memory x{growth:.2f} from {rows[0]['pages']} to {rows[-1]['pages']} pages "
          f"(bounded: about x1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
