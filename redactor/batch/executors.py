"""Where batch work runs: a pool of local worker processes, or Ray actors. Each worker
loads one pipeline when it starts and then redacts one input at a time.

Both executors keep exactly one task per worker in flight, so when a worker dies (killed,
out of memory, a native crash) the input it held is known: the executor reports it as
``crashed`` and starts a replacement worker; the run decides whether to retry it. Results
come back to the parent, which alone writes outputs and the manifest.

Interface (what ``run`` uses): ``start()``, ``idle_worker()`` -> a worker id or None,
``submit(task, worker_id)``, ``collect(timeout)`` -> finished Outcomes, ``in_flight()`` ->
the tasks being worked on, ``busy()``, ``close(kill)``; ``ships_bytes`` says whether the
parent must send the input's bytes (workers may not see its file system).
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_for

from redactor.batch.work import CRASHED, Outcome, Task, error_class, load_analyzer, load_redactor, \
    prepare_worker_process, redact_task
from redactor.config import RedactorConfig
from redactor.errors import InputError, PluginFailed, PluginUnavailable

log = logging.getLogger(__name__)

# A worker that dies before its pipeline is loaded is replaced; this many such deaths in
# one run mean the pipeline cannot load here (a native crash), so the run stops.
MAX_LOAD_DEATHS = 3


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


# -- local process pool -----------------------------------------------------------------------

def _local_worker_main(conn, config: RedactorConfig, scratch: str | None) -> None:
    """Body of a pool process: load the pipeline once, then redact until told to stop."""
    prepare_worker_process(scratch)
    from redactor.errors import RedactorError

    try:
        redactor = load_redactor(config)
        analyzer = load_analyzer(config)
    except RedactorError as exc:
        conn.send(("init_failed", type(exc).__name__, str(exc)))
        return
    except Exception as exc:
        conn.send(("init_failed", "PluginFailed", f"pipeline failed to load: {type(exc).__name__}: {exc}"))
        return
    worker = str(os.getpid())
    conn.send(("ready", worker))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):   # the parent is gone
            break
        if task is None:
            break
        try:
            conn.send(("outcome", redact_task(redactor, task, worker, analyzer)))
        except (BrokenPipeError, OSError):
            break
    if analyzer is not None:
        analyzer.close()
    # Nothing to flush or clean up (workers write no files); a full interpreter shutdown
    # with loaded models takes seconds.
    os._exit(0)


@dataclass
class _LocalWorker:
    process: multiprocessing.Process
    conn: object
    ready: bool = False
    task: Task | None = None

    @property
    def id(self) -> str:
        return str(self.process.pid)


class LocalPool:
    """``workers`` processes on this machine (spawned: no state inherited from the parent)."""

    name = "local"
    ships_bytes = False

    def __init__(self, config: RedactorConfig, workers: int, scratch: str | None = None):
        if workers < 1:
            raise InputError(f"--workers must be at least 1, not {workers}")
        self.config = config
        self.size = workers
        self.scratch = scratch
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: dict[str, _LocalWorker] = {}
        self._load_deaths = 0
        self._closing = False

    def start(self) -> None:
        for _ in range(self.size):
            self._spawn()

    def _spawn(self) -> _LocalWorker:
        parent_end, child_end = self._ctx.Pipe(duplex=True)
        # Not a daemon: a daemonic process may not start processes of its own, and the
        # pipeline may (a killable child per page with --page-timeout). close() and
        # PR_SET_PDEATHSIG see to it that no worker outlives the run.
        proc = self._ctx.Process(target=_local_worker_main, args=(child_end, self.config, self.scratch),
                                 name="redactor-batch-worker", daemon=False)
        proc.start()
        child_end.close()
        w = _LocalWorker(proc, parent_end)
        self._workers[w.id] = w
        return w

    def idle_worker(self) -> str | None:
        for w in self._workers.values():
            if w.task is None and w.process.is_alive():
                return w.id
        return None

    def submit(self, task: Task, worker_id: str) -> None:
        w = self._workers[worker_id]
        w.task = task
        try:
            w.conn.send(task)
        except OSError:
            pass   # it died: collect() sees its sentinel and reports the task

    def busy(self) -> bool:
        return any(w.task is not None for w in self._workers.values())

    def in_flight(self) -> list[Task]:
        return [w.task for w in self._workers.values() if w.task is not None]

    def collect(self, timeout: float) -> list[Outcome]:
        workers = list(self._workers.values())
        ready = wait_for([w.conn for w in workers] + [w.process.sentinel for w in workers], timeout)
        outcomes: list[Outcome] = []
        for w in workers:
            if not any(obj is w.conn or obj == w.process.sentinel for obj in ready):
                continue
            self._drain(w, outcomes)
            if not w.process.is_alive():
                w.process.join(timeout=1)
                self._bury(w, outcomes)
        return outcomes

    def _drain(self, w: _LocalWorker, outcomes: list[Outcome]) -> None:
        """Read every message the worker has sent (also the last words of a dead one)."""
        while True:
            try:
                if not w.conn.poll():
                    return
                msg = w.conn.recv()
            except (EOFError, OSError):
                return
            kind = msg[0]
            if kind == "ready":
                w.ready = True
            elif kind == "outcome":
                w.task = None
                outcomes.append(msg[1])
            elif kind == "init_failed":
                raise error_class(msg[1])(msg[2])

    def _bury(self, w: _LocalWorker, outcomes: list[Outcome]) -> None:
        self._workers.pop(w.id, None)
        w.conn.close()
        how = describe_exit(w.process.exitcode)
        task = w.task
        if self._closing:
            return
        if not w.ready:
            self._load_deaths += 1
            if self._load_deaths >= MAX_LOAD_DEATHS:
                raise PluginFailed(f"batch workers keep dying while loading the pipeline ({how})")
            log.warning("a worker died while loading the pipeline (%s); starting another", how)
            new = self._spawn()
            if task is not None:   # it never started on that input: hand it to the new one
                self.submit(task, new.id)
            return
        if task is not None:
            outcomes.append(Outcome(task.rel, CRASHED, worker=w.id,
                                    error=f"worker process {w.id} died ({how}) while redacting it"))
        self._spawn()

    def close(self, kill: bool = False) -> None:
        self._closing = True
        for w in self._workers.values():
            if kill:
                w.process.kill()
            else:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + (2 if kill else 30)
        for w in self._workers.values():
            w.process.join(timeout=max(0.1, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(timeout=5)
            w.conn.close()
        self._workers.clear()


# -- Ray ---------------------------------------------------------------------------------------

class RayWorker:
    """A Ray actor holding one loaded pipeline. A load failure is kept and reported by
    ``run`` (an exception in an actor's constructor would look like a crash)."""

    def __init__(self, config: RedactorConfig, scratch: str | None = None):
        from redactor.batch.work import single_threaded_opencv, use_scratch_dir
        from redactor.errors import RedactorError

        os.environ["OMP_THREAD_LIMIT"] = "1"
        single_threaded_opencv()
        use_scratch_dir(scratch)

        self.init_error = None
        self.redactor = self.analyzer = None
        self.worker = f"ray:{os.getpid()}"
        try:
            self.redactor = load_redactor(config)
            self.analyzer = load_analyzer(config)
        except RedactorError as exc:
            self.init_error = (type(exc).__name__, str(exc))
        except Exception as exc:
            self.init_error = ("PluginFailed", f"pipeline failed to load: {type(exc).__name__}: {exc}")

    def run(self, task: Task):
        if self.init_error is not None:
            return ("init_failed", *self.init_error)
        return ("outcome", redact_task(self.redactor, task, self.worker, self.analyzer))


def import_ray():
    try:
        import ray
    except ImportError:
        raise PluginUnavailable("--executor ray needs Ray: pip install 'redactor[ray]'") from None
    return ray


class RayPool:
    """``workers`` Ray actors (one CPU each), on a local Ray started here or on the cluster
    at ``address``. Inputs travel as bytes, so workers need no shared file system."""

    name = "ray"
    ships_bytes = True

    def __init__(self, config: RedactorConfig, workers: int | None, address: str | None = None,
                 limit: int | None = None, scratch: str | None = None):
        if workers is not None and workers < 1:
            raise InputError(f"--workers must be at least 1, not {workers}")
        self.config = config
        # Actors on this machine share the run's scratch folder; on a cluster they use
        # their node's temporary folder.
        self.scratch = None if address else scratch
        self.size = workers
        self.limit = limit
        self.address = address
        self._ray = None
        self._actor_cls = None
        self._actors: dict[str, object] = {}
        self._tasks: dict[str, Task] = {}     # actor id -> its task
        self._refs: dict[object, str] = {}    # object ref -> actor id
        self._n = 0

    def start(self) -> None:
        ray = self._ray = import_ray()
        kwargs = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING,
                      configure_logging=True)
        try:
            if self.address:
                ray.init(address=self.address, **kwargs)
            else:
                ray.init(num_cpus=self.size or os.cpu_count() or 1, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local Ray instance"
            raise PluginUnavailable(f"cannot start or reach Ray ({where}): {exc}") from None
        if self.size is None:
            self.size = max(1, int(ray.cluster_resources().get("CPU", 1)))
        if self.limit:
            self.size = min(self.size, self.limit)
        self._actor_cls = ray.remote(num_cpus=1, max_restarts=0)(RayWorker)
        for _ in range(self.size):
            self._spawn()

    def _spawn(self) -> str:
        self._n += 1
        actor_id = f"ray-actor-{self._n}"
        self._actors[actor_id] = self._actor_cls.remote(self.config, self.scratch)
        return actor_id

    def idle_worker(self) -> str | None:
        for actor_id in self._actors:
            if actor_id not in self._tasks:
                return actor_id
        return None

    def submit(self, task: Task, worker_id: str) -> None:
        self._tasks[worker_id] = task
        self._refs[self._actors[worker_id].run.remote(task)] = worker_id

    def busy(self) -> bool:
        return bool(self._tasks)

    def in_flight(self) -> list[Task]:
        return list(self._tasks.values())

    def collect(self, timeout: float) -> list[Outcome]:
        ray = self._ray
        if not self._refs:
            time.sleep(min(timeout, 0.05))
            return []
        ready, _ = ray.wait(list(self._refs), num_returns=1, timeout=timeout)
        if ready:
            rest = [r for r in self._refs if r not in ready]
            if rest:
                more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                ready += more
        outcomes = []
        for ref in ready:
            actor_id = self._refs.pop(ref)
            task = self._tasks.pop(actor_id)
            try:
                msg = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                self._replace(actor_id)
                outcomes.append(Outcome(task.rel, CRASHED, worker=actor_id,
                                        error=f"Ray actor {actor_id} died while redacting it: "
                                              f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"))
                continue
            except ray.exceptions.RayError as exc:
                outcomes.append(Outcome(task.rel, CRASHED, worker=actor_id,
                                        error=f"Ray failed on it: {type(exc).__name__}"))
                continue
            if msg[0] == "init_failed":
                raise error_class(msg[1])(msg[2])
            outcomes.append(msg[1])
        return outcomes

    def _replace(self, actor_id: str) -> None:
        actor = self._actors.pop(actor_id, None)
        if actor is not None:
            try:
                self._ray.kill(actor)
            except Exception:
                pass
        self._spawn()

    def close(self, kill: bool = False) -> None:
        ray = self._ray
        if ray is None:
            return
        for actor in self._actors.values():
            try:
                ray.kill(actor)
            except Exception:
                pass
        self._actors.clear()
        self._tasks.clear()
        self._refs.clear()
        # Disconnects from a cluster given by address; stops the instance started here.
        ray.shutdown()
        self._ray = None


def make_executor(kind: str, config: RedactorConfig, workers: int | None,
                  ray_address: str | None = None, limit: int | None = None,
                  scratch: str | None = None):
    """``workers`` (default: one per CPU here, or per CPU of the Ray cluster), at most
    ``limit``; their temporary files under ``scratch``."""
    if kind == "local":
        if ray_address:
            raise InputError("--ray-address needs --executor ray")
        n = workers or os.cpu_count() or 1
        return LocalPool(config, min(n, limit) if limit else n, scratch)
    if kind == "ray":
        return RayPool(config, workers, ray_address, limit=limit, scratch=scratch)
    raise InputError(f"unknown executor {kind!r} (local or ray)")
