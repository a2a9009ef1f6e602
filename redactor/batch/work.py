"""The per-document function every batch worker runs, whatever the executor.

A worker gets an input's bytes (read by itself from a path, or shipped by the parent when
the workers do not share the file system, as on a Ray cluster), redacts them with its
loaded pipeline through ``redact_document`` into a private temporary folder, and sends the
output files back as bytes. Workers never write the output tree or the manifest: the
parent alone does, so a worker that dies leaves nothing behind.
"""
from __future__ import annotations

import hashlib
import json
import os
import resource
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from redactor import errors
from redactor.config import RedactorConfig

# Outcome statuses sent back by a worker; 'crashed' is made by the executors.
OK, FAILED, QUARANTINED, CRASHED = "ok", "failed", "quarantined", "crashed"


@dataclass(frozen=True)
class Task:
    rel: str                    # manifest key
    name: str                   # file name (error messages, PDF detection by suffix)
    stem: str                   # output base name
    path: str | None = None     # read here by the worker ...
    data: bytes | None = None   # ... or these bytes, shipped by the parent


@dataclass
class Outcome:
    rel: str
    status: str
    error: str | None = None
    error_type: str | None = None
    sha256: str | None = None
    pages: int = 0
    redactions: int = 0
    types: dict[str, int] = field(default_factory=dict)   # boxes per type, for the summary
    verification: str = "not run"
    outputs: list[tuple[str, bytes]] = field(default_factory=list)   # (file name, bytes), in write order
    # with status QUARANTINED: outputs that failed verification, for the quarantine folder
    seconds: float = 0.0
    worker: str | None = None
    cpu_seconds: float = 0.0         # CPU time of the worker and its OCR subprocesses on it
    max_rss_mb: float = 0.0          # the worker process's peak resident memory
    audit: list[dict] = field(default_factory=list)   # full page records, for the audit file only


def config_fingerprint(config: RedactorConfig) -> str:
    """Changes whenever outputs could: any option or the redactor version."""
    from redactor import __version__

    blob = json.dumps({"version": __version__, "config": config.to_dict()}, sort_keys=True,
                      default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def use_scratch_dir(scratch: str | None) -> None:
    """Temporary files of this worker (its outputs before they are sent back, the page
    images pytesseract hands to Tesseract, which are unredacted) go to a folder of its own
    under ``scratch``, which the parent removes; a killed worker cannot leave them in /tmp."""
    if scratch is None:
        return
    mine = Path(scratch, str(os.getpid()))
    mine.mkdir(parents=True, exist_ok=True)
    tempfile.tempdir = str(mine)
    os.environ["TMPDIR"] = str(mine)


def single_threaded_opencv() -> None:
    """OpenCV's thread pool off in a page worker: the run is parallel over pages, one worker
    per core, so the pool's threads only take time from the other workers (two workers on
    two cores: about 2 % more pages/s; the same words and boxes). For spawned workers only:
    in a forked one whose parent had started the pool, OpenCV waits for ever for threads
    that were not forked with it (``redactor.predict`` sets it before forking instead)."""
    import cv2

    cv2.setNumThreads(1)


def prepare_worker_process(scratch: str | None = None) -> None:
    """Process-wide settings of a worker: one Tesseract thread (parallelism is over pages;
    its OpenMP threads only fight each other) and one OpenCV thread, Ctrl-C left to the
    parent, which stops the run in order, death with the parent on Linux, so a killed run
    leaves no orphan, and temporary files in the run's scratch folder."""
    import signal

    os.environ["OMP_THREAD_LIMIT"] = "1"
    single_threaded_opencv()
    use_scratch_dir(scratch)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass   # not Linux: the worker still exits when its pipe to the parent closes


def load_redactor(config: RedactorConfig):
    from redactor.pipeline import Redactor

    return Redactor(config)


def load_analyzer(config: RedactorConfig):
    """With ``page_timeout``: the worker's killable child that runs the plugins on each page
    (``redactor.isolation``), so a hanging or crashing plugin costs its input, not the
    worker; else None (the worker's own pipeline runs them)."""
    if not config.page_timeout:
        return None
    from redactor.isolation import IsolatedAnalyzer

    return IsolatedAnalyzer(config, config.page_timeout)


def verification_summary(pages) -> str:
    """'not run', or JSON: passed/failed, pages checked, and the first failing finding."""
    checked = [p for p in pages if p.verification is not None]
    if not checked:
        return "not run"
    failed = [p for p in checked if not p.verification.get("ok", False)]
    summary = {"result": "failed" if failed else "passed", "pages": len(checked),
               "failed_pages": [p.page_id for p in failed]}
    if failed and failed[0].verification.get("findings"):
        # where and what kind, not the value: the manifest is not meant to hold personal data
        summary["first_finding"] = {k: v for k, v in failed[0].verification["findings"][0].items()
                                    if k != "value"}
    return json.dumps(summary, sort_keys=True, default=str)


def _quarantine_reason(pages) -> str:
    from redactor.summary import readable_findings

    failed = [p for p in pages if p.verification is not None and not p.verification.get("ok", False)]
    return (f"{len(failed)} page(s) failed verification, {readable_findings(pages)}; outputs "
            f"kept in the quarantine folder")


def _cpu_seconds() -> float:
    """CPU time so far of this process and of its finished subprocesses (Tesseract)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def redact_task(redactor, task: Task, worker: str | None = None, analyzer=None) -> Outcome:
    """Redact one input; every failure becomes an Outcome, never an exception. ``analyzer``:
    see ``load_analyzer``."""
    from redactor.document import redact_document

    start, cpu_start = time.perf_counter(), _cpu_seconds()
    out = Outcome(task.rel, FAILED, worker=worker)
    try:
        with tempfile.TemporaryDirectory(prefix="redactor-batch-") as tmp:
            if task.data is not None:
                # Shipped bytes (no shared file system): the pipeline reads files, so the
                # input lives in this private folder for the time of the run.
                out.sha256 = hashlib.sha256(task.data).hexdigest()
                src = Path(tmp, "in", task.name)
                src.parent.mkdir()
                src.write_bytes(task.data)
                doc = redact_document(redactor, src, Path(tmp, "out"), task.stem, analyzer)
            else:
                src = Path(task.path)
                before = _stat(src, task.name)
                out.sha256 = _sha256_file(src, task.name)
                doc = redact_document(redactor, src, Path(tmp, "out"), task.stem, analyzer)
                if _stat(src, task.name) != before:
                    raise errors.InputError(f"{task.name}: changed while it was being redacted; "
                                            f"run the batch again")
            # Boxes first, as redact_document writes them: no redacted page exists on disk
            # without the record of what was hidden.
            out.outputs = [(doc.boxes.name, doc.boxes.read_bytes()),
                           (doc.output.name, doc.output.read_bytes())]
        out.pages = len(doc.pages)
        out.audit = doc.records
        out.redactions = doc.n_redactions
        out.types = dict(Counter(r.type for p in doc.pages for r in p.redactions))
        out.verification = verification_summary(doc.pages)
        out.status = OK
        if doc.quarantined:
            out.status, out.error = QUARANTINED, _quarantine_reason(doc.pages)
            out.error_type = "VerificationFailed"
    except errors.RedactorError as exc:
        out.error, out.error_type = str(exc), type(exc).__name__
    except MemoryError:
        out.error, out.error_type = "out of memory", "ResourceExhausted"
    except Exception as exc:   # a bug must cost one input, not the archive
        out.error = f"internal error: {type(exc).__name__}: {exc}"
        out.error_type = type(exc).__name__
    out.seconds = time.perf_counter() - start
    out.cpu_seconds = _cpu_seconds() - cpu_start
    # ru_maxrss is in KiB on Linux. (Not the subprocesses': a forked child's peak counts
    # the parent's memory at fork time.)
    out.max_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return out


def _stat(path: Path, name: str) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError as exc:
        raise errors.InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return st.st_size, st.st_mtime_ns


def _sha256_file(path: Path, name: str) -> str:
    from redactor.batch.walk import file_sha256

    try:
        return file_sha256(path)
    except OSError as exc:
        raise errors.InputError(f"{name}: cannot read: {exc.strerror or exc}") from None


def error_class(name: str | None) -> type[errors.RedactorError]:
    cls = getattr(errors, name or "", None)
    if isinstance(cls, type) and issubclass(cls, errors.RedactorError):
        return cls
    return errors.RedactorError
