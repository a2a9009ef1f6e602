"""A built plugin is ready to read: what it loads or compiles once (Tesseract's model,
Presidio's patterns, the rules' word lists) is loaded when it is built, not on the first
page, so that page costs what any page costs and its --page-timeout is not spent loading.
Fresh interpreters where the state is process-wide, a fresh thread for Tesseract's
per-thread engines."""
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from PIL import Image

from redactor_plugins import _tesseract_lib
from redactor_plugins.tesseract_ocr import TesseractOcr

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "eval" / "data" / "sample" / "images" / "inv-0000.png"


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_tesseract_loads_its_model_when_built_not_when_reading():
    lib = _tesseract_lib.load_library()
    assert lib is not None, "libtesseract5 is installed by make"
    real_init = lib.lib.TessBaseAPIInit3
    loads = []

    def counting_init(*args):
        loads.append(threading.current_thread().name)
        return real_init(*args)

    page = Image.open(SAMPLE)
    phases = {}
    # engines are per thread: a new thread starts with none loaded
    def build_then_read():
        ocr = TesseractOcr()
        phases["built"] = len(loads)
        phases["words"] = len(ocr.read(page).words)
        phases["read"] = len(loads)

    lib.lib.TessBaseAPIInit3 = counting_init
    try:
        worker = threading.Thread(target=build_then_read, name="fresh")
        worker.start()
        worker.join()
    finally:
        lib.lib.TessBaseAPIInit3 = real_init
    assert phases["built"] == 1          # the model was loaded by the constructor ...
    assert phases["read"] == 1           # ... and reading loaded nothing more
    assert phases["words"] > 50


def test_presidio_compiles_its_patterns_when_built():
    out = _run("""
        import regex
        from redactor_plugins.presidio_detector import PresidioDetector
        from redactor.model import OcrPage, WordBox
        detector = PresidioDetector()
        compiled = []
        real = regex.compile
        regex.compile = lambda *a, **k: compiled.append(a[0]) or real(*a, **k)
        words = [WordBox(t, (10.0 + 60 * i, 10.0, 60.0 + 60 * i, 30.0), 95.0, 1, 1)
                 for i, t in enumerate("Call Ann Lee at 415-555-0132 or ann@lee.org".split())]
        spans = detector.detect(OcrPage(600, 40, tuple(words), "test", "1"))
        print(len(compiled), sorted({s.type for s in spans}))
    """)
    compiled, types = out.split(" ", 1)
    assert int(compiled) == 0, out
    assert "PHONE" in types and "EMAIL" in types, out


def test_rules_load_their_word_lists_when_built():
    out = _run("""
        import sys
        from redactor_plugins.rules import address_patterns, places
        from redactor_plugins.rules_detector import RulesDetector
        print("wordfreq" in sys.modules, end=" ")
        RulesDetector()
        print("wordfreq" in sys.modules, address_patterns.compile_address_regexes.cache_info().currsize,
              places.compile_place_regex.cache_info().currsize)
    """)
    assert out.split() == ["False", "True", "1", "1"], out
