"""Runs the pipeline's page work in a child process, so a plugin that hangs or crashes (a
native library segfault, an endless loop, memory blow-up) costs its page, not the run.

Every step that runs plugins on a page goes through it: analysis (OCR + detectors, or
reading and detecting apart, as ``predict`` does to cache OCR) and the verification read of
the output. The child keeps its loaded pipeline between pages; after a timeout or a crash
it is killed and a fresh one is started for the next page.
"""
from __future__ import annotations

import multiprocessing as mp
import traceback

from redactor.config import RedactorConfig
from redactor.errors import PluginFailed, RedactorError

# What the child may be asked to run: the Redactor's page methods, and verification.
_CALLS = ("analyze", "read", "analyze_ocr", "verify")


def _call(redactor, method: str, args: tuple):
    if method == "verify":
        from redactor.verify import verify_page
        return verify_page(redactor, *args)
    return getattr(redactor, method)(*args)


def _die_with_parent() -> None:
    """On Linux the child is killed when its parent dies: a child stuck in a hanging plugin
    never reads the closed pipe that would tell it to stop."""
    import signal
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _child(conn, config: RedactorConfig) -> None:
    import os

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    _die_with_parent()
    from redactor.pipeline import Redactor

    try:
        redactor = Redactor(config)
        conn.send(("ready", None))
    except BaseException as exc:  # report why the pipeline could not load, then stop
        conn.send(("error", exc if isinstance(exc, RedactorError) else
                   PluginFailed(f"{type(exc).__name__}: {exc}")))
        return
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        method, args = msg
        try:
            conn.send(("ok", _call(redactor, method, args)))
        except RedactorError as exc:
            conn.send(("error", exc))
        except Exception as exc:
            conn.send(("error", PluginFailed(f"{type(exc).__name__}: {exc}\n"
                                             f"{traceback.format_exc(limit=3)}".strip())))


class IsolatedAnalyzer:
    """``analyze``, ``read``, ``analyze_ocr`` like the ``Redactor``'s, and ``verify`` like
    ``verify_page``, in a child process with a time limit on each call."""

    def __init__(self, config: RedactorConfig, timeout: float, start_timeout: float = 600.0):
        self.config = config
        self.timeout = float(timeout)
        self.start_timeout = start_timeout
        self._ctx = mp.get_context("spawn")   # no inherited threads or locks from the parent
        self._proc = None
        self._conn = None

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_child, args=(child, self.config), daemon=True)
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent
        kind, payload = self._receive(self.start_timeout, "loading the pipeline")
        if kind == "error":
            self.close()
            raise payload

    def _receive(self, timeout: float, what: str):
        if not self._conn.poll(timeout):
            self._kill()
            raise PluginFailed(f"timed out after {timeout:g} s while {what}; the worker was stopped")
        try:
            return self._conn.recv()
        except (EOFError, ConnectionResetError):
            code = self._proc.exitcode if self._proc else None
            self._kill()
            raise PluginFailed(f"the worker died while {what} (exit code {code})") from None

    def analyze(self, image, page_id: str = "page"):
        return self._run("analyze", (image, page_id), f"analysing page {page_id}")

    def read(self, image, page_id: str = "page"):
        return self._run("read", (image,), f"reading page {page_id}")

    def analyze_ocr(self, page, image=None, page_id: str = "page"):
        return self._run("analyze_ocr", (page, image, page_id), f"analysing page {page_id}")

    def verify(self, redacted, result):
        """``verify_page`` of the child's pipeline on ``redacted``."""
        return self._run("verify", (redacted, result), f"verifying page {result.page_id}")

    def _run(self, method: str, args: tuple, what: str):
        assert method in _CALLS
        if self._proc is None or not self._proc.is_alive():
            self._start()
        try:
            self._conn.send((method, args))
        except (BrokenPipeError, OSError):
            self._kill()
            raise PluginFailed("the worker died before the page was sent") from None
        kind, payload = self._receive(self.timeout, what)
        if kind == "error":
            raise payload
        return payload

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(5)
        if self._conn is not None:
            self._conn.close()
        self._proc = self._conn = None

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            try:
                self._conn.send(None)
                self._proc.join(5)
            except (BrokenPipeError, OSError):
                pass
        self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
