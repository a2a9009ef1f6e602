"""Runs a pipeline over a dataset's pages and yields one prediction line (and one OCR-words
line) per page, in the contract's formats. A failed page is recorded with ``error`` set,
never lost. Pages run in worker processes, each with its own loaded pipeline."""
from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from redactor.config import RedactorConfig
from redactor.errors import RedactorError
from redactor.imageio import read_pages


@dataclass
class PagePrediction:
    prediction: dict          # contract prediction line
    ocr: dict | None          # contract OCR-words line (None for OCR-free systems or errors)
    seconds: float            # OCR (measured or as cached) + detection


# One pipeline per worker process, built by the initializer.
_worker_state: dict = {}


def _init_worker(config: RedactorConfig, cache_dir: str | None) -> None:
    from redactor.ocr_cache import OcrCache
    from redactor.pipeline import Redactor

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        _worker_state["redactor"] = Redactor(config)
    except RedactorError:
        if multiprocessing.parent_process() is None:
            raise
        # in a pool worker: leave quietly; the parent breaks off and names the reason once
        os._exit(3)
    _worker_state["cache"] = OcrCache(cache_dir) if cache_dir else None
    # With a page timeout the plugins run in a killable child (redactor.isolation); the
    # worker's own pipeline then only names the system and its OCR engine.
    _worker_state["isolated"] = None
    if config.page_timeout:
        from redactor.isolation import IsolatedAnalyzer
        _worker_state["isolated"] = IsolatedAnalyzer(config, config.page_timeout)


def predict_page(page_id: str, image_path: str) -> PagePrediction:
    from redactor.ocr_cache import image_hash

    redactor = _worker_state["redactor"]
    runner = _worker_state["isolated"] or redactor
    cache = _worker_state["cache"]
    system = redactor.system_name
    t0 = time.perf_counter()
    try:
        pages = list(read_pages(image_path, max_pixels=redactor.config.max_pixels))
        if len(pages) != 1:
            raise RedactorError(f"{image_path}: expected one page, found {len(pages)}")
        image = pages[0].image
        if redactor.ocr_free is not None:
            result = runner.analyze(image, page_id=page_id)
            return PagePrediction(result.prediction_json(system), None, time.perf_counter() - t0)
        ocr_seconds = None
        ocr_page = None
        if cache is not None:
            key = image_hash(image)
            hit = cache.get(redactor.ocr.fingerprint(), key)
            if hit:
                ocr_page, ocr_seconds = hit
        if ocr_page is None:
            t_ocr = time.perf_counter()
            ocr_page = runner.read(image)
            ocr_seconds = time.perf_counter() - t_ocr
            if cache is not None:
                cache.put(redactor.ocr.fingerprint(), key, ocr_page, ocr_seconds)
        t_det = time.perf_counter()
        result = runner.analyze_ocr(ocr_page, image, page_id=page_id)
        seconds = ocr_seconds + (time.perf_counter() - t_det)
        return PagePrediction(result.prediction_json(system), ocr_page.to_json(page_id), seconds)
    except RedactorError as exc:
        error = str(exc)
    except Exception as exc:   # a crash on one page is that page's error, not the run's
        error = f"{type(exc).__name__}: {exc}"
    return PagePrediction({"page_id": page_id, "system": system, "predictions": [], "error": error},
                          None, time.perf_counter() - t0)


@contextmanager
def _one_opencv_thread() -> Iterator[None]:
    """One OpenCV thread in the page workers while they run: pages run in parallel, one
    worker per core, so OpenCV's own pool would only take time from the other workers (two
    workers on two cores: about 2 % more pages/s; the same words and boxes). Set here,
    before the workers are forked, and inherited: a forked worker cannot set it itself
    (OpenCV would wait for ever for the pool threads that were not forked with it)."""
    import cv2

    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(before)


def predict_pages(config: RedactorConfig, pages: Sequence[tuple[str, str]], workers: int = 1,
                  cache_dir: str | Path | None = None) -> Iterator[PagePrediction]:
    """Yield predictions in the order of ``pages`` ((page_id, image path) pairs)."""
    cache = str(cache_dir) if cache_dir else None
    if workers <= 1:
        _init_worker(config, cache)
        try:
            for page_id, path in pages:
                yield predict_page(page_id, path)
        finally:
            if _worker_state.get("isolated") is not None:
                _worker_state["isolated"].close()
        return
    with _one_opencv_thread(), ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                                                   initargs=(config, cache)) as pool:
        futures = [pool.submit(predict_page, pid, path) for pid, path in pages]
        for fut in futures:
            try:
                result = fut.result()
            except BrokenProcessPool:
                _raise_setup_error(config)
                raise
            yield result


def _raise_setup_error(config: RedactorConfig) -> None:
    """A worker that cannot build the pipeline (a bad detector option, a missing model)
    breaks the pool, which only says that it broke: build it here once to raise the
    reason itself, as a one-line error with its exit code."""
    from redactor.pipeline import Redactor

    Redactor(config)
