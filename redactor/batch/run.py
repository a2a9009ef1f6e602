"""A batch run: plan what to do from the folder tree and the manifest, hand inputs to an
executor, write each result's outputs into the mirrored tree and record it.

Planning, per input: new, pending or failed -> do; done and unchanged (same size and mtime,
or same sha256 when those moved; same configuration; outputs present) -> skip; done but
changed -> redo; ``running`` -> a previous run was killed holding it: recovered if its
outputs were completely written (their hashes match the recorded write intent), else redone;
quarantined -> left alone unless it changed or ``retry_quarantined``.

Order of effects for one input, so that a kill at any moment is safe: mark it ``running``
(committed) -> worker redacts in memory/temp -> parent records the outputs' hashes -> writes
each output atomically (temporary name, fsync, rename) -> marks it ``done``. Outputs of an
input being redone are removed first: the output tree only holds outputs of done rows.
"""
from __future__ import annotations

import contextlib
import hashlib
import shutil
import signal
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

from redactor.audit import AuditLog
from redactor.batch.executors import make_executor
from redactor.batch.manifest import Manifest, Row
from redactor.batch.walk import InputFile, check_folders, estimate_pages, file_sha256, \
    find_inputs, output_path
from redactor.batch.work import CRASHED, FAILED, OK, QUARANTINED, Outcome, Task, config_fingerprint
from redactor.config import RedactorConfig
from redactor.document import QUARANTINE_DIR
from redactor.errors import InputError, OutputError, one_line
from redactor.render import atomic_output, sweep_partial_outputs

DEFAULT_MANIFEST_NAME = ".redactor-manifest.sqlite"
# An input whose worker died this many times in one run is quarantined: it is probably what
# kills workers (a decoder crash, memory), and retrying it forever would stall the archive.
MAX_CRASHES = 2
# Outputs that failed verification (--verify --on-verify-fail=quarantine) go to this tree,
# mirrored like the rest; hidden, so no input folder can have the same name.
# Workers' temporary files (unredacted page images among them), removed by the parent.
SCRATCH_DIR = ".redactor-tmp"
@dataclass
class BatchOptions:
    src: Path
    dst: Path
    manifest: Path | None = None
    workers: int | None = None
    executor: str = "local"
    ray_address: str | None = None
    retry_quarantined: bool = False
    rehash: bool = False
    progress: bool | None = None     # None: a bar only on a terminal
    audit: Path | None = None        # full records (hidden values) appended here; redactor.audit
    overwrite: bool = False          # replace files in DST_DIR this batch did not write

    @property
    def manifest_path(self) -> Path:
        return Path(self.manifest) if self.manifest else Path(self.dst) / DEFAULT_MANIFEST_NAME


@dataclass
class BatchSummary:
    inputs: int = 0
    ignored: int = 0
    done: int = 0
    failed: int = 0
    skipped: int = 0
    quarantined: int = 0
    recovered: int = 0
    retried_crashes: int = 0
    pages: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    failures: list[tuple[str, str]] = field(default_factory=list)
    worker_memory: dict[str, float] = field(default_factory=dict)   # worker -> peak RSS, MB
    worker_cpu_seconds: float = 0.0     # CPU spent on inputs by workers and their OCR
    types: Counter = field(default_factory=Counter)   # boxes burned per type, this run

    @property
    def ok(self) -> bool:
        return not (self.failed or self.quarantined or self.interrupted)

    def as_counts(self) -> dict[str, int]:
        return {"done": self.done, "failed": self.failed, "skipped": self.skipped,
                "quarantined": self.quarantined}


@dataclass
class _Todo:
    item: InputFile
    pages_estimate: int


def _outputs_intact(dst: Path, rel: str, outputs: dict[str, str], check_hash: bool) -> bool:
    if not outputs:
        return False
    for out_rel, digest in outputs.items():
        path = Path(dst) / out_rel
        if not path.is_file():
            return False
        if check_hash and file_sha256(path) != digest:
            return False
    return True


def _remove_outputs(dst: Path, outputs: dict[str, str]) -> None:
    for out_rel in outputs:
        (Path(dst) / out_rel).unlink(missing_ok=True)


class _Planner:
    def __init__(self, manifest: Manifest, dst: Path, fingerprint: str, opts: BatchOptions):
        self.m, self.dst, self.fp, self.opts = manifest, dst, fingerprint, opts

    def content_changed(self, item: InputFile, row: Row) -> bool:
        if (not self.opts.rehash and row.sha256
                and (item.size, item.mtime_ns) == (row.size, row.mtime_ns)):
            return False
        try:
            digest = file_sha256(item.path)
        except OSError:
            return True   # let the worker report why it cannot be read
        if digest != row.sha256:
            return True
        if (item.size, item.mtime_ns) != (row.size, row.mtime_ns):
            self.m.update_stat(item.rel, item.size, item.mtime_ns)   # touched, not changed
        return False

    def decide(self, item: InputFile, row: Row | None) -> str:
        """'do', 'skip', 'skip-quarantined' or 'recover'."""
        if row is None or row.status in ("pending", "failed"):
            return "do"
        names_ok = all(Path(o).name.startswith(item.stem + ".") for o in row.outputs)
        if row.status == "running":
            # Only outputs meant to become 'done' are recovered; a quarantine write is redone.
            if (row.config == self.fp
                    and not any(o.startswith(QUARANTINE_DIR + "/") for o in row.outputs)
                    and names_ok and row.sha256 is not None
                    and not self.content_changed(item, row)
                    and _outputs_intact(self.dst, item.rel, row.outputs, check_hash=True)):
                return "recover"
            return "do"
        if row.config != self.fp or self.content_changed(item, row):
            return "do"
        if row.status == "quarantined":
            return "do" if self.opts.retry_quarantined else "skip-quarantined"
        if not names_ok or not _outputs_intact(self.dst, item.rel, row.outputs, check_hash=False):
            return "do"
        return "skip"


def plan(manifest: Manifest, items: list[InputFile], dst: Path, fingerprint: str,
         opts: BatchOptions, summary: BatchSummary) -> list[_Todo]:
    known = manifest.rows()
    manifest.add_pending([(i.rel, i.size, i.mtime_ns) for i in items if i.rel not in known])
    planner = _Planner(manifest, dst, fingerprint, opts)
    todo: list[_Todo] = []
    for item in items:
        row = known.get(item.rel)
        decision = planner.decide(item, row)
        if decision == "skip":
            summary.skipped += 1
        elif decision == "skip-quarantined":
            summary.quarantined += 1
            summary.failures.append((item.rel, f"quarantined earlier: {row.error}"))
        elif decision == "recover":
            manifest.mark_recovered(item.rel)
            summary.recovered += 1
            summary.done += 1
        else:
            if row is not None and row.outputs:
                _remove_outputs(dst, row.outputs)   # stale: of older content or settings
            todo.append(_Todo(item, estimate_pages(item.path)))
    return todo


class _Progress:
    """A live bar over pages (rate in pages/s, ETA) with done/failed counts beside it."""

    def __init__(self, total_pages: int, enabled: bool | None):
        from tqdm import tqdm

        # rate_noinv: pages/s even when a page takes more than a second (tqdm would flip to s/page)
        self.bar = tqdm(total=total_pages, unit="page", desc="redacting", file=sys.stderr,
                        disable=(None if enabled is None else not enabled), dynamic_ncols=True,
                        smoothing=0.05,
                        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} pages "
                                   "[{elapsed}<{remaining}, {rate_noinv_fmt}{postfix}]")
        self.counts = Counter()

    def finished(self, outcome_pages: int, estimate: int, status: str) -> None:
        if status == OK:
            if outcome_pages != estimate:
                self.bar.total += outcome_pages - estimate
            self.bar.update(outcome_pages)
        else:
            self.bar.total = max(self.bar.n, self.bar.total - estimate)
        self.counts["done" if status == OK else status] += 1
        self.bar.set_postfix_str(", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())),
                                 refresh=True)

    def say(self, line: str) -> None:
        self.bar.write(one_line(line), file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class _Run:
    def __init__(self, manifest: Manifest, executor, dst: Path, fingerprint: str,
                 summary: BatchSummary, progress: _Progress, audit: AuditLog | None = None,
                 overwrite: bool = False):
        self.m, self.ex, self.dst, self.fp = manifest, executor, dst, fingerprint
        self.summary, self.progress, self.audit = summary, progress, audit
        self.overwrite = overwrite
        self.crashes: Counter[str] = Counter()
        self.todo_by_rel: dict[str, _Todo] = {}
        self.released: list[str] = []   # handed back unfinished because of an interrupt

    def dispatch(self, todo: _Todo) -> bool:
        item = todo.item
        data = None
        if self.ex.ships_bytes:
            try:
                data = item.path.read_bytes()
            except OSError as exc:
                self.m.mark_running(item.rel, self.fp, None)
                self.todo_by_rel[item.rel] = todo
                self.record(Outcome(item.rel, "failed", error_type="InputError",
                                    error=f"{item.path.name}: cannot read: {exc.strerror or exc}"))
                return False
        worker = self.ex.idle_worker()
        task = Task(item.rel, item.path.name, item.stem,
                    path=None if data is not None else str(item.path), data=data)
        self.m.mark_running(item.rel, self.fp, worker)
        self.todo_by_rel[item.rel] = todo
        self.ex.submit(task, worker)
        return True

    def record(self, o: Outcome) -> _Todo | None:
        """Write and record one outcome; returns the input when it must be retried."""
        todo = self.todo_by_rel.pop(o.rel, None)
        if o.worker and o.max_rss_mb:
            self.summary.worker_memory[o.worker] = o.max_rss_mb
        self.summary.worker_cpu_seconds += o.cpu_seconds
        estimate = todo.pages_estimate if todo else 1
        item = todo.item if todo else None
        clash = self._clash(o)
        if clash:
            # The batch's own earlier outputs were removed when the input was planned, so
            # these files are someone else's: never replaced without --overwrite.
            o.status, o.outputs = FAILED, []
            o.error, o.error_type = (f"{clash} already exists in {self.dst} and was not written "
                                     f"by this batch; --overwrite replaces it"), "OutputError"
        if o.status == OK:
            self._write(o, item)
            self.summary.done += 1
            self.summary.pages += o.pages
        elif o.status == CRASHED:
            self.crashes[o.rel] += 1
            if self.crashes[o.rel] < MAX_CRASHES and todo is not None:
                self.m.count_crash(o.rel)
                self.summary.retried_crashes += 1
                self.progress.say(f"redactor: warning: {o.rel}: {o.error}; retrying it")
                return todo
            self.m.mark_failed(o.rel, f"{o.error} ({self.crashes[o.rel]} times in this run)",
                               status=QUARANTINED, crashed=True)
            self.summary.quarantined += 1
            self.summary.failures.append((o.rel, o.error or "worker died"))
            self.progress.say(f"redactor: error: {o.rel}: quarantined: {o.error}")
        else:
            status = QUARANTINED if o.status == QUARANTINED else "failed"
            kept = self._write(o, item, quarantine=True) if o.outputs else None
            self.m.mark_failed(o.rel, o.error or "unknown error", status=status, sha256=o.sha256,
                               pages=o.pages or None, verification=o.verification,
                               worker_seconds=o.seconds, outputs=kept)
            if status == QUARANTINED:
                self.summary.quarantined += 1
            else:
                self.summary.failed += 1
            error = _without_name(o.error or "unknown error", item)
            self.summary.failures.append((o.rel, error))
            self.progress.say(f"redactor: error: {o.rel}: {error}")
            if o.error_type == "OutputError" and not clash:
                # The worker's disk is full: every input after this one would fail the same
                # way, so the run stops, as when the parent's own write fails.
                raise OutputError(f"{o.rel}: {error}")
        self.progress.finished(o.pages, estimate, o.status)
        return None

    def _clash(self, o: Outcome) -> str | None:
        """The first output of ``o`` whose name an existing file holds, unless --overwrite."""
        if self.overwrite or not o.outputs:
            return None
        root = self.dst / QUARANTINE_DIR if o.status == QUARANTINED else self.dst
        for name, _ in o.outputs:
            target = output_path(root, o.rel, name)
            if target.exists():
                return target.relative_to(self.dst).as_posix()
        return None

    def _write(self, o: Outcome, item: InputFile, quarantine: bool = False) -> dict[str, str]:
        root = self.dst / QUARANTINE_DIR if quarantine else self.dst
        targets = [(output_path(root, o.rel, name), data) for name, data in o.outputs]
        intent = {t.relative_to(self.dst).as_posix(): _sha256(data) for t, data in targets}
        self.m.record_write_intent(o.rel, intent, sha256=o.sha256, size=item.size,
                                   mtime_ns=item.mtime_ns)
        try:
            for target, data in targets:
                with atomic_output(target) as tmp:
                    tmp.write_bytes(data)
        except OutputError as exc:
            _remove_outputs(self.dst, intent)
            self.m.mark_failed(o.rel, str(exc), sha256=o.sha256)
            raise
        if self.audit is not None and o.audit:
            self.audit.write(o.audit)
        if not quarantine:
            self.summary.types.update(o.types)
            self.m.mark_done(o.rel, pages=o.pages, redactions=o.redactions,
                             verification=o.verification, worker_seconds=o.seconds)
        return intent

    def drive(self, todo: list[_Todo]) -> None:
        queue = deque(todo)
        while queue or self.ex.busy():
            # A Ctrl-C is held until the end of the round (at most the 0.5 s wait plus the
            # writes), so it never lands halfway through handing out an input or writing and
            # recording a result: after it, every 'running' row is one a worker held. (A
            # SIGKILL can land anywhere; the manifest's write intent covers that.)
            with _interrupts_deferred() as interrupted:
                while queue and self.ex.idle_worker() is not None and not interrupted:
                    self.dispatch(queue.popleft())
                for outcome in self.ex.collect(timeout=0.5):
                    if interrupted and outcome.status != OK:
                        # A terminal's Ctrl-C also hits Tesseract: not the input's fault.
                        self.released.append(outcome.rel)
                        continue
                    retry = self.record(outcome)
                    if retry is not None:
                        queue.appendleft(retry)


@contextlib.contextmanager
def _interrupts_deferred():
    """Hold SIGINT/SIGTERM for the duration and deliver them after (to the usual handlers);
    yields the list of signals held so far."""
    caught: list[int] = []
    try:
        old = {s: signal.signal(s, lambda signum, frame: caught.append(signum))
               for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:   # not the main thread: signals do not reach this code anyway
        yield caught
        return
    try:
        yield caught
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        for s in dict.fromkeys(caught):
            signal.raise_signal(s)


def _without_name(error: str, item: InputFile | None) -> str:
    """Errors start with the file name; the report line already names the input."""
    if item is not None and error.startswith(item.path.name + ": "):
        return error[len(item.path.name) + 2:]
    return error


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_plugins(config: RedactorConfig) -> None:
    """Fail before starting workers when a selected plugin is unknown or cannot run here
    (cheap: no model is loaded). Workers on a Ray cluster may differ, so they check there."""
    from redactor.pipeline import check_available

    check_available(config)


def run_batch(config: RedactorConfig, opts: BatchOptions) -> BatchSummary:
    """Redact every input under ``opts.src`` that is not done yet; see the module docstring."""
    src, dst = Path(opts.src), Path(opts.dst)
    check_folders(src, dst)
    try:
        dst.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {dst}: {exc.strerror or exc}") from None
    started = time.perf_counter()
    summary = BatchSummary()
    items, summary.ignored = find_inputs(src, dst)
    summary.inputs = len(items)
    if not items:
        raise InputError(f"no images or PDFs under {src}")
    fingerprint = config_fingerprint(config)
    if opts.workers is not None and opts.workers < 1:
        raise InputError(f"--workers must be at least 1, not {opts.workers}")
    audit = AuditLog(opts.audit, [dst]) if opts.audit else None
    with Manifest(opts.manifest_path, src, dst) as manifest, (audit or contextlib.nullcontext()):
        sweep_partial_outputs(dst, recursive=True)
        shutil.rmtree(dst / SCRATCH_DIR, ignore_errors=True)   # left by a killed run
        todo = plan(manifest, items, dst, fingerprint, opts, summary)
        if todo and not opts.ray_address:
            check_plugins(config)
        # No more workers than inputs to do: each one spends seconds loading models.
        executor = make_executor(opts.executor, config, opts.workers, opts.ray_address,
                                 limit=max(1, len(todo)), scratch=str(dst / SCRATCH_DIR))
        run_id = manifest.start_run(opts.executor, opts.workers or 0, fingerprint)
        progress = _Progress(sum(t.pages_estimate for t in todo), opts.progress if todo else False)
        run = _Run(manifest, executor, dst, fingerprint, summary, progress, audit, opts.overwrite)
        clean = False
        try:
            if todo:
                executor.start()
                run.drive(todo)
            clean = True
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            held = [t.rel for t in executor.in_flight()] + run.released
            executor.close(kill=not clean)
            manifest.release(held)
            shutil.rmtree(dst / SCRATCH_DIR, ignore_errors=True)
            progress.close()
            summary.seconds = time.perf_counter() - started
            manifest.finish_run(run_id, summary.as_counts(), summary.interrupted)
    return summary


def format_summary(summary: BatchSummary, manifest_path: Path, dst: Path | None = None) -> str:
    rate = summary.pages / summary.seconds if summary.seconds > 0 else 0.0
    head = "interrupted" if summary.interrupted else "finished"
    lines = [f"redactor batch {head}: {summary.inputs} input(s): {summary.done} done, "
             f"{summary.failed} failed, {summary.skipped} skipped, "
             f"{summary.quarantined} quarantined; {summary.pages} page(s) redacted in "
             f"{summary.seconds:.1f} s ({rate:.2f} pages/s)"]
    extra = []
    if summary.recovered:
        extra.append(f"{summary.recovered} recovered from an interrupted run")
    if summary.retried_crashes:
        extra.append(f"{summary.retried_crashes} retried after a worker died")
    if summary.ignored:
        extra.append(f"{summary.ignored} non-image file(s) ignored")
    if extra:
        lines.append("  " + "; ".join(extra))
    if summary.types:
        ordered = sorted(summary.types.items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append(f"  {sum(summary.types.values())} box(es) burned: "
                     + ", ".join(f"{t} {n}" for t, n in ordered))
    if dst is not None and (Path(dst) / QUARANTINE_DIR).is_dir():
        lines.append(f"  outputs that failed verification: {Path(dst) / QUARANTINE_DIR}")
    lines.append(f"  manifest: {manifest_path}")
    return "\n".join(lines)

