"""predict and bench on a small rendered dataset: contract files, shared OCR cache, one table."""
import json

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import main

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
NAMES = ["John Smith", "Ana Pereira"]


def lines_for(k):
    name = NAMES[k]
    email = name.lower().replace(" ", ".") + "@example.com"
    phone = f"(415) 555-013{k}"
    return [(f"Contact: {name}", name, "PERSON"), (f"Email: {email}", email, "EMAIL"),
            (f"Phone: {phone}", phone, "PHONE")]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("ds")
    (root / "images").mkdir()
    font = ImageFont.truetype(FONT, 30)
    with open(root / "pages.jsonl", "w") as fh:
        for k in range(2):
            img = Image.new("RGB", (1300, 420), "white")
            d = ImageDraw.Draw(img)
            ann = []
            for i, (text, value, type_) in enumerate(lines_for(k)):
                y = 40 + i * 110
                d.text((50, y), text, font=font, fill="black")
                x = 50 + d.textlength(text[: text.index(value)], font=font)
                ann.append({"bbox": list(d.textbbox((x, y), value, font=font)), "type": type_,
                            "value": value})
            img.save(root / "images" / f"p{k}.png")
            fh.write(json.dumps({"page_id": f"p{k}", "image": f"images/p{k}.png", "width": 1300,
                                 "height": 420, "source": "synthetic", "page_type": "form",
                                 "annotations": ann}) + "\n")
    return root / "pages.jsonl"


def test_predict_writes_contract_files_and_reuses_cached_ocr(dataset, tmp_path):
    cache = tmp_path / "cache"
    preds = tmp_path / "a.jsonl"
    assert main(["predict", "--pages", str(dataset), "--out", str(preds), "--ocr-cache", str(cache)]) == 0
    lines = [json.loads(x) for x in preds.read_text().splitlines()]
    assert [x["page_id"] for x in lines] == ["p0", "p1"]
    assert all(x["error"] is None and x["predictions"] for x in lines)
    words = [json.loads(x) for x in (tmp_path / "a.ocr.jsonl").read_text().splitlines()]
    assert words[0]["engine"].startswith("tesseract") and words[0]["words"][0]["bbox"]
    # Tamper with the cached OCR: if the second run shows the tampered words, it ran no OCR.
    entries = sorted(cache.rglob("*.json"))
    assert len(entries) == 2
    for entry in entries:
        data = json.loads(entry.read_text())
        data["page"]["words"][0]["text"] = "ZZCACHED"
        entry.write_text(json.dumps(data))
    preds2 = tmp_path / "b.jsonl"
    assert main(["predict", "--pages", str(dataset), "--out", str(preds2), "--ocr-cache", str(cache),
                 "--detector", "presidio"]) == 0
    assert (tmp_path / "b.ocr.jsonl").read_text().count("ZZCACHED") == 2


def test_predict_records_failed_pages_and_goes_on(dataset, tmp_path):
    import shutil
    root = tmp_path / "ds"
    shutil.copytree(dataset.parent, root)
    # Header intact (the loader checks the size), pixel data cut: fails only when decoded.
    img = root / "images" / "p0.png"
    img.write_bytes(img.read_bytes()[:3000])
    preds = tmp_path / "p.jsonl"
    assert main(["predict", "--pages", str(root / "pages.jsonl"), "--out", str(preds)]) == 7
    lines = [json.loads(x) for x in preds.read_text().splitlines()]
    assert [x["page_id"] for x in lines] == ["p0", "p1"]
    assert "truncated" in lines[0]["error"] and lines[0]["predictions"] == []
    assert lines[1]["error"] is None and lines[1]["predictions"]


def test_bench_puts_systems_side_by_side(dataset, tmp_path):
    out = tmp_path / "bench"
    assert main(["bench", "--pages", str(dataset), "--system", "tesseract+presidio",
                 "--system", "peer-presidio-image", "--out", str(out)]) == 0
    report = json.loads((out / "bench.json").read_text())
    assert set(report["systems"]) == {"tesseract+presidio", "peer-presidio-image"}
    for m in report["systems"].values():
        for key in ("f1_loc", "f1_type", "docleak_all", "docleak_crit", "docleak_ink_crit",
                    "collateral", "valid", "missed_crit", "attribution"):
            assert key in m
        assert m["throughput"]["pages"] == 2 and m["throughput"]["pages_per_second"] > 0
        assert m["valid"] == 1.0
    ours = report["systems"]["tesseract+presidio"]
    assert ours["f1_loc"] > 0.5 and ours["attribution"]["mode"] == "ocr"
    assert report["systems"]["peer-presidio-image"]["attribution"]["mode"] == "ocr_free"
    md = (out / "bench.md").read_text()
    assert "| tesseract+presidio |" in md and "| peer-presidio-image |" in md
    # the OCR's readable share of critical values: from its recoverability, "–" without OCR
    rec = ours["ocr_recoverability"]
    readable = f"{1 - rec['share_not_in_ocr']:.3f}"
    lines = md.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("| system | F1_loc"))
    col = lines[at].split(" | ").index("crit readable in OCR")
    rows = {line.split(" | ")[0]: line.split(" | ") for line in lines[at + 2:at + 4]}
    assert rows["| tesseract+presidio"][col] == readable
    assert rows["| peer-presidio-image"][col] == "–"


def test_bench_system_specs(tmp_path):
    from redactor_eval.bench import parse_system
    from redactor.errors import InputError
    default = parse_system("default")
    assert default.is_default and default.predict_args() == []     # default options, not just names
    plain = parse_system("tesseract+presidio+rules")
    assert plain.predict_args() == ["--ocr", "tesseract", "--detector", "presidio", "--detector", "rules"]
    cfg = tmp_path / "sys.toml"
    cfg.write_text('detectors = ["rules"]\n')
    named = parse_system(f"rules-only={cfg}")
    assert named.label == "rules-only" and named.predict_args() == ["--config", str(cfg)]
    assert parse_system("peer-presidio-image").ocr_free == "peer-presidio-image"
    for bad in ("tesseract", "tesseract+nope", "nope+presidio"):
        with pytest.raises(InputError):
            parse_system(bad)


def test_pool_workers_read_with_one_opencv_thread():
    """Pages run in parallel, one worker per core: OpenCV's own thread pool in a worker
    would only take time from the others; a run in one process keeps it. The parent has
    used OpenCV's pool before the workers are forked (setting it in a forked worker then
    hangs), so the check runs in its own interpreter, under a time limit."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    code = textwrap.dedent("""
        import cv2, numpy as np
        from redactor import predict
        from redactor.config import RedactorConfig

        def threads(_page_id, _path):
            return cv2.getNumThreads()

        cv2.GaussianBlur(np.zeros((3000, 3000), np.uint8), (5, 5), 0)   # the pool runs
        before = cv2.getNumThreads()
        predict.predict_page = threads     # the workers' task reports their setting
        config = RedactorConfig(detectors=["rules"])
        pooled = list(predict.predict_pages(config, [("a", "x"), ("b", "y")], workers=2))
        alone = list(predict.predict_pages(config, [("a", "x")], workers=1))
        print(before, pooled, alone, cv2.getNumThreads())
    """)
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    before, rest = proc.stdout.split(" ", 1)
    if int(before) == 1:
        pytest.skip("one core: OpenCV runs one thread anyway")
    assert rest.split() == ["[1,", "1]", f"[{before}]", before]


def test_pool_worker_setup_error_is_one_line_exit_2(dataset, tmp_path, capsys):
    """A bad detector option with several workers: the workers cannot build the pipeline;
    the user gets the reason in one line and exit 2, not a broken pool, and no file."""
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[detector_options.rules]\ndisable = ["nosuch"]\n')
    out = tmp_path / "preds.jsonl"
    code = main(["predict", "--pages", str(dataset), "--out", str(out),
                 "--workers", "2", "--config", str(cfg)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [err.strip().splitlines()[-1]]
    assert "unknown rule family 'nosuch'" in err and "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob("*.jsonl*"))
