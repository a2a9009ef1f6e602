"""Tesseract read in-process through libtesseract's C API (ctypes), for the tesseract plugin.

Running the ``tesseract`` binary costs a process start and a model load (about 0.2 s) on
every call, as much as reading a page's re-read crops. The library the binary is built on
(Debian's libtesseract5, which tesseract-ocr depends on) does the same recognition with the
model loaded once per thread; its TSV output is the one the binary writes, so words, boxes
and confidences are the same (tests/plugins/test_tesseract_ocr.py compares them)."""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import threading
import time

import numpy as np

_TSV_COLUMNS = ("level", "page_num", "block_num", "par_num", "line_num", "word_num",
                "left", "top", "width", "height", "conf", "text")


class TesseractTimeout(RuntimeError):
    """Recognition ran past its deadline and was cancelled."""


class TesseractLibrary:
    """libtesseract loaded once; one initialised TessBaseAPI per thread and language."""

    def __init__(self, path: str | None = None):
        name = path or ctypes.util.find_library("tesseract") or "libtesseract.so.5"
        self.lib = ctypes.CDLL(name)   # OSError when missing: the caller falls back to the CLI
        lib = self.lib
        vp, cp, ci = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        lib.TessVersion.restype = cp
        lib.TessBaseAPICreate.restype = vp
        lib.TessBaseAPIDelete.argtypes = [vp]
        lib.TessBaseAPIEnd.argtypes = [vp]
        lib.TessBaseAPIInit3.argtypes = [vp, cp, cp]
        lib.TessBaseAPIInit3.restype = ci
        lib.TessBaseAPISetPageSegMode.argtypes = [vp, ci]
        lib.TessBaseAPISetVariable.argtypes = [vp, cp, cp]
        lib.TessBaseAPISetVariable.restype = ctypes.c_bool
        lib.TessBaseAPISetImage.argtypes = [vp, ctypes.c_char_p, ci, ci, ci, ci]
        lib.TessBaseAPIRecognize.argtypes = [vp, vp]
        lib.TessBaseAPIRecognize.restype = ci
        # char*, not c_char_p: the text must be handed back to TessDeleteText
        lib.TessBaseAPIGetTsvText.argtypes = [vp, ci]
        lib.TessBaseAPIGetTsvText.restype = vp
        lib.TessDeleteText.argtypes = [vp]
        lib.TessBaseAPIClear.argtypes = [vp]
        lib.TessMonitorCreate.restype = vp
        lib.TessMonitorDelete.argtypes = [vp]
        lib.TessMonitorSetDeadlineMSecs.argtypes = [vp, ci]
        self.version = lib.TessVersion().decode("ascii", "replace")
        self._local = threading.local()
        self._all: list[tuple[int, int]] = []
        self._all_lock = threading.Lock()
        atexit.register(self._end_all)

    def load_engine(self, lang: str) -> None:
        """Load ``lang``'s model for this thread now (the first read would load it)."""
        self._api(lang)

    def _api(self, lang: str) -> int:
        # keyed by process too: a worker forked from a process that had read must not share
        # the parent's engine state
        apis = self._local.__dict__.setdefault("apis", {})
        key = (os.getpid(), lang)
        api = apis.get(key)
        if api is None:
            api = self.lib.TessBaseAPICreate()
            # the binary's notes ("Detected 12 diacritics") went to its own stderr, which
            # pytesseract dropped; in-process they would reach ours
            self.lib.TessBaseAPISetVariable(api, b"debug_file", os.devnull.encode())
            if self.lib.TessBaseAPIInit3(api, None, lang.encode()) != 0:
                self.lib.TessBaseAPIDelete(api)
                raise RuntimeError(f"libtesseract could not load language {lang!r}")
            apis[key] = api
            with self._all_lock:
                self._all.append((os.getpid(), api))
        return api

    def _end_all(self) -> None:
        """Free this process's engines at exit (the library warns of leaked models else)."""
        with self._all_lock:
            mine = [api for pid, api in self._all if pid == os.getpid()]
            self._all = []
        for api in mine:
            self.lib.TessBaseAPIEnd(api)
            self.lib.TessBaseAPIDelete(api)

    def image_to_data(self, gray: np.ndarray, lang: str, psm: int, dpi: int,
                      variables: dict[str, str], timeout: float) -> dict:
        """Words of an 8-bit grayscale image as pytesseract's ``image_to_data`` dict
        (numbers as int, conf of non-word rows -1)."""
        img = np.ascontiguousarray(gray, dtype=np.uint8)
        h, w = img.shape[:2]
        api = self._api(lang)
        lib = self.lib
        lib.TessBaseAPISetPageSegMode(api, int(psm))
        # what the binary's --dpi and -c flags set; set on every call, as they persist
        settings = {"user_defined_dpi": str(int(dpi)), "tessedit_do_invert": "1",
                    "textord_tabfind_find_tables": "1", **variables}
        for key, value in settings.items():
            if not lib.TessBaseAPISetVariable(api, key.encode(), str(value).encode()):
                raise RuntimeError(f"libtesseract does not know the variable {key!r}")
        lib.TessBaseAPISetImage(api, img.tobytes(), w, h, 1, w)
        monitor = lib.TessMonitorCreate()
        try:
            ms = max(1, int(timeout * 1000))
            lib.TessMonitorSetDeadlineMSecs(monitor, ms)
            t0 = time.monotonic()
            status = lib.TessBaseAPIRecognize(api, monitor)
            if time.monotonic() - t0 >= timeout:
                raise TesseractTimeout(f"recognition took over {timeout:g} s")
            if status != 0:
                raise RuntimeError("libtesseract could not recognise the image")
            ptr = lib.TessBaseAPIGetTsvText(api, 0)
            try:
                tsv = ctypes.string_at(ptr).decode("utf-8", "replace") if ptr else ""
            finally:
                if ptr:
                    lib.TessDeleteText(ptr)
        finally:
            lib.TessMonitorDelete(monitor)
            lib.TessBaseAPIClear(api)
        return _tsv_to_dict(tsv)


def _tsv_to_dict(tsv: str) -> dict:
    out: dict[str, list] = {c: [] for c in _TSV_COLUMNS}
    for row in tsv.split("\n"):
        if not row:
            continue
        cells = row.split("\t", len(_TSV_COLUMNS) - 1)
        if len(cells) < len(_TSV_COLUMNS) - 1:
            continue
        cells += [""] * (len(_TSV_COLUMNS) - len(cells))
        for c, v in zip(_TSV_COLUMNS[:-1], cells):
            out[c].append(int(float(v)))
        out["text"].append(cells[-1])
    return out


_LOADED: dict[str, TesseractLibrary | None] = {}
_LOAD_LOCK = threading.Lock()


def load_library(path: str | None = None) -> TesseractLibrary | None:
    """The library, loaded once per process; None when it cannot be loaded."""
    key = path or ""
    with _LOAD_LOCK:
        if key not in _LOADED:
            try:
                _LOADED[key] = TesseractLibrary(path)
            except (OSError, AttributeError):
                _LOADED[key] = None
        return _LOADED[key]
