"""Work in chunks: a run is a list of chunks (seed ranges) of one job, run in
this process, in a local process pool or on a Ray cluster.

A job is a picklable function of a seed range to a result: a module-level
function, a `functools.partial` of one, or an instance of a module-level
class with `__call__`. `run` yields each chunk's result in chunk order,
however the chunks were spread, so folding them with an associative merge
gives the same answer on one core, many cores or many machines:

    def rounds(seeds: range) -> Tally: ...      # plays seeds, returns a Tally
    for seeds, tally in run(rounds, range(0, 10_000), jobs=4, progress=bar):
        total = total.merge(tally)

`gather` does that fold and keeps what was finished on Ctrl-C (an `Outcome`
that says how many seeds it covers); given a `Journal` (a file), it writes
each chunk's result there as it arrives, and a run given the same journal
again plays only the seeds it lacks, so a stopped run (Ctrl-C, kill -9)
loses at most the chunks in flight. Chunks are handed out as workers take
them (never listed whole), at most two per worker waiting; `progress` is
told the seeds of each chunk as it finishes, in whatever order; a chunk
whose worker dies is run again (RETRIES times at most). Local workers never
outlive the run, even when it is killed with kill -9. Ray is imported only
when a cluster is asked for: `cluster="local"` starts a Ray instance on this
machine, any other value is a Ray address (`ray start --head` prints it).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from jongg.api import Diagnostic, JonggError, UsageError

T = TypeVar("T")
Job = Callable[[range], T]
Progress = Callable[[int], None]

RETRIES = 3  # runs of a chunk whose worker died, before the run gives up
WATCH = 0.5  # seconds between a local worker's looks at its parent
LOCAL = "local"  # --cluster local: a Ray instance started on this machine


class LostChunk(JonggError):
    """A chunk whose worker died every time it was run."""


def cores() -> int:
    """The processors this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def workers(asked: int | None) -> int:
    """The local processes (or, with --cluster local, Ray's CPUs) for --jobs:
    at most the cores, with a note when fewer than asked."""
    if asked is None:
        return 1
    if asked < 1:
        raise UsageError("--jobs: give at least 1")
    jobs = min(asked, cores())
    if jobs < asked:
        print(f"jongg: --jobs {asked}: this machine has {jobs} core(s) for it; "
              f"using {jobs}", file=sys.stderr)
    return jobs


def chunks(seeds: range, size: int) -> Iterator[range]:
    """The seed ranges of at most `size` seeds that cover `seeds`, in order."""
    for first in range(seeds.start, seeds.stop, size):
        yield range(first, min(first + size, seeds.stop))


def chunk_size(count: int, workers: int, most: int) -> int:
    """Chunks small enough to keep `workers` busy (four each), at most `most`."""
    return max(1, min(most, count // (workers * 4) or 1))


def spans(seeds: range | Sequence[range], size: int) -> Iterator[range]:
    """The chunks of at most `size` seeds that cover `seeds` (one range or
    several), in order."""
    for part in [seeds] if isinstance(seeds, range) else seeds:
        yield from chunks(part, size)


def run(job: Job[T], seeds: range | Sequence[range], *, jobs: int = 1,
        cluster: str | None = None, size: int = 20,
        progress: Progress | None = None) -> Iterator[tuple[range, T]]:
    """(seed range, result) of every chunk, in chunk order. In this process
    when `jobs` is 1 and there is no cluster (a chunk a seed, so Ctrl-C loses
    at most one); else in chunks of at most `size` seeds, on `jobs` local
    processes or on the Ray `cluster`. A run that ends early (Ctrl-C, an
    error, the caller stopping) stops its workers at once."""
    count = len(seeds) if isinstance(seeds, range) else sum(map(len, seeds))
    if not count:
        return
    if cluster is not None:
        yield from _on_ray(job, seeds, count, cluster, jobs, size, progress)
    elif jobs <= 1:
        for one in spans(seeds, 1):
            result = job(one)
            if progress:
                progress(len(one))
            yield one, result
    else:
        yield from _pooled(job, spans(seeds, chunk_size(count, jobs, size)), jobs, progress)


@dataclass
class Outcome(Generic[T]):
    """A run's merged result and how much of it there is: `done` of the
    seeds asked (fewer when the run was stopped; a later run with the same
    journal plays the rest)."""

    result: T | None
    seeds: range  # asked
    done: int  # seeds covered
    seconds: float  # this run's time (not a resumed run's earlier ones)
    resumed: int = 0  # of `done`, seeds read back from the journal

    @property
    def partial(self) -> bool:
        return self.done < len(self.seeds)


def gather(job: Job[T], seeds: range, merge: Callable[[T, T], T], *, jobs: int = 1,
           cluster: str | None = None, size: int = 20, progress: Progress | None = None,
           journal: Journal[T] | None = None) -> Outcome[T]:
    """Every chunk's result merged in chunk order; on Ctrl-C, those of the
    chunks finished so far (`partial`). With a `journal`, each chunk's result
    is written to it as it arrives and the chunks it already holds are not
    run again: `merge` must then also be commutative (the journal's chunks
    come first)."""
    start = time.perf_counter()
    total: T | None = None
    done = resumed = 0
    todo: range | list[range] = seeds
    if journal is not None:
        read = _fold(journal.read(), merge)
        total, resumed = read
        todo = journal.missing()
        done = resumed
        if progress and resumed:
            progress(resumed)
    try:
        for part, result in run(job, todo, jobs=jobs, cluster=cluster, size=size,
                                progress=progress):
            if journal is not None:
                journal.write(part, result)
            total = result if total is None else merge(total, result)
            done += len(part)
    except KeyboardInterrupt:
        # what was finished is kept, and said to be partial; with a journal, exactly
        # what it holds (Ctrl-C may fall between writing a chunk and adding it)
        if journal is not None:
            kept = _fold(journal.read(), merge)
            total, done = kept
    return Outcome(total, seeds, done, time.perf_counter() - start, resumed)


def _fold(parts: Iterator[tuple[range, T]], merge: Callable[[T, T], T]) -> tuple[T | None, int]:
    """The chunks' results merged, and the seeds they cover."""
    total: T | None = None
    count = 0
    for part, result in parts:
        total = result if total is None else merge(total, result)
        count += len(part)
    return total, count


# -- a journal: each chunk's result on disk as it arrives ----------------------------------
class JournalError(UsageError):
    """A journal that belongs to another run, or cannot be read or written."""


class Journal(Generic[T]):
    """A JSON-lines file of one run: a header naming the run (`key`, any
    JSON value: whatever decides its results) and its first seed, then a
    line per finished chunk: its seeds and its result, encoded. A run of
    more seeds from the same first one extends it; a run of fewer reads
    only the chunks within its seeds (and a chunk it then plays, that a
    longer run's chunk also holds, is read once). Each line is written
    whole and flushed to disk, so a run stopped any way (Ctrl-C, kill -9, a
    power cut) keeps every chunk it wrote; a torn last line is dropped. A
    file of another run is refused, never overwritten."""

    def __init__(self, path: Path, key: Any, seeds: range,
                 encode: Callable[[T], Any], decode: Callable[[Any], T]):
        self.path = path
        self.header = {"journal": "jongg", "key": key, "first": seeds.start}
        self.seeds = seeds
        self.encode = encode
        self.decode = decode
        self.covered: list[range] = []

    def _fail(self, what: str, hint: str | None = None) -> JournalError:
        return JournalError([Diagnostic(None, f"{self.path}: {what}", hint=hint)])

    def read(self) -> Iterator[tuple[range, T]]:
        """The chunks already finished (none for a new file), checking that
        the file belongs to this run; a torn last line is cut off."""
        self.covered = []
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as error:
            raise self._fail(f"cannot read it ({error.strerror})") from None
        lines = data.split(b"\n")
        good = 0  # bytes of whole lines
        for number, raw in enumerate(lines, 1):
            if number == len(lines):  # after the last newline: empty, or torn
                break
            try:
                entry = json.loads(raw)
            except ValueError:
                raise self._fail(f"line {number} is not JSON: {raw[:60]!r}",
                                 "it is not a journal of this run; give another path") from None
            if number == 1:
                if entry != self.header:
                    raise self._fail("it is the journal of another run "
                                     f"({str(entry)[:120]})",
                                     "give another output folder, or delete the file to "
                                     "start over")
            else:
                try:
                    part = range(*entry["seeds"])
                    result = self.decode(entry["result"])
                except (KeyError, TypeError, ValueError) as error:
                    raise self._fail(f"line {number}: not a chunk ({str(error)[:80]})") from None
                within = part.start >= self.seeds.start and part.stop <= self.seeds.stop
                # a chunk written by a shorter run, whose seeds a longer one covers too
                # (or the other way round), is counted once: the first line that holds them
                if within and not any(part.start < c.stop and c.start < part.stop
                                      for c in self.covered):
                    self.covered.append(part)
                    yield part, result
            good += len(raw) + 1
        if good < len(data):
            with open(self.path, "r+b") as file:  # a torn line would join the next
                file.truncate(good)

    def missing(self) -> list[range]:
        """The seeds of the run no chunk read or written covers, in order."""
        gaps, at = [], self.seeds.start
        for part in sorted(self.covered, key=lambda r: r.start):
            if part.start > at:
                gaps.append(range(at, part.start))
            at = max(at, part.stop)
        if at < self.seeds.stop:
            gaps.append(range(at, self.seeds.stop))
        return gaps

    def write(self, part: range, result: T) -> None:
        """One finished chunk, appended whole and on disk before returning."""
        lines = [] if self.path.exists() else [self.header]
        lines.append({"seeds": [part.start, part.stop], "result": self.encode(result)})
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, text.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise self._fail(f"cannot write it ({error.strerror})") from None
        self.covered.append(part)


def _call(job: Job[T], seeds: range) -> T:
    return job(seeds)


# -- a local process pool whose workers never outlive the run ---------------------------
def _worker_start(stop: Any) -> None:
    """In each worker: Ctrl-C is the parent's to handle; the worker ends when
    the parent dies (even by kill -9) or asks it to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # the kernel kills us with the parent
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    threading.Thread(target=_watch, args=(os.getppid(), stop), daemon=True).start()


def _watch(parent: int, stop: Any) -> None:
    """Where the kernel does not do it: end when reparented (the parent died)
    or told to stop. `stop` is a flag in shared memory, read without a lock:
    a worker killed while waiting on a lock or an Event would leave the
    parent blocked for ever when it sets it."""
    while not stop.value and os.getppid() == parent:
        time.sleep(WATCH)
    os._exit(1)


@dataclass
class _Task(Generic[T]):
    seeds: range
    future: Future[T]
    told: bool = False  # progress has counted it


def _lost(seeds: range) -> LostChunk:
    return LostChunk([Diagnostic(None, f"seeds {seeds.start}..{seeds.stop - 1}: the worker "
                                       f"playing them died {RETRIES} times",
                                 hint="see whether the machine runs out of memory")])


def _pooled(job: Job[T], todo: Iterator[range], jobs: int,
            progress: Progress | None) -> Iterator[tuple[range, T]]:
    context = multiprocessing.get_context()
    stop = context.RawValue(ctypes.c_bool, False)

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_start,
                                   initargs=(stop,))

    pool = new_pool()
    pending: deque[_Task[T]] = deque()
    tries: dict[int, int] = {}
    try:
        while True:
            try:
                while len(pending) < 2 * jobs:  # enough queued to keep every worker busy
                    part = next(todo, None)
                    if part is None:
                        break
                    task: _Task[T] = _Task(part, Future())  # resubmitted if submit fails
                    pending.append(task)
                    task.future = pool.submit(_call, job, part)
                if not pending:
                    return
                result = _head(pending, progress)
            except BrokenProcessPool:  # a worker died: its chunk, and those queued, again
                pool.shutdown(wait=False, cancel_futures=True)
                pool = new_pool()
                for task in pending:
                    if task.future.done() and not task.future.cancelled() and \
                            task.future.exception() is None:
                        continue
                    tries[task.seeds.start] = tries.get(task.seeds.start, 0) + 1
                    if tries[task.seeds.start] >= RETRIES:
                        raise _lost(task.seeds) from None
                    task.future = pool.submit(_call, job, task.seeds)
                continue
            yield pending.popleft().seeds, result
    finally:
        if pending:  # stopped early: no worker plays on for nobody
            for task in pending:
                task.future.cancel()
            stop.value = True
        pool.shutdown(wait=not pending, cancel_futures=True)


def _head(pending: deque[_Task[T]], progress: Progress | None) -> T:
    """The first chunk's result, telling `progress` of every chunk that
    finishes meanwhile."""
    head = pending[0]
    while True:
        for task in pending:
            if not task.told and task.future.done() and not task.future.cancelled() and \
                    task.future.exception() is None:
                task.told = True
                if progress:
                    progress(len(task.seeds))
        if head.future.done():
            return head.future.result()
        wait([t.future for t in pending if not t.future.done()], return_when=FIRST_COMPLETED)


# -- a Ray cluster ------------------------------------------------------------------------
def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError([Diagnostic(None, "--cluster: Ray is not installed",
                                     hint="pip install 'jongg[cluster]'")]) from None
    return ray


def _reachable(cluster: str) -> None:
    """Refuse an address where nothing answers at once (Ray itself would
    try for minutes). Addresses Ray resolves itself ("auto") are left to it."""
    host, colon, port = cluster.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdecimal():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except (OSError, ValueError) as error:
        raise UsageError([Diagnostic(None, f"--cluster {cluster}: nothing answers there "
                                           f"({getattr(error, 'strerror', None) or error})",
                                     hint="start a cluster with 'ray start --head' and give "
                                          "the address it prints, or --cluster local")]) from None


def connect(cluster: str, jobs: int | None = None) -> tuple[Any, bool]:
    """Ray, connected to `cluster` ("local": a new instance on this machine
    with `jobs` CPUs, every core by default); and whether this call connected
    (so the caller disconnects). A process already connected keeps its
    connection."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    if cluster != LOCAL:
        _reachable(cluster)
    quiet = {"include_dashboard": False, "log_to_driver": False, "configure_logging": True,
             "logging_level": logging.ERROR}
    try:
        if cluster == LOCAL:
            ray.init(num_cpus=min(jobs or cores(), cores()), object_store_memory=80 << 20,
                     **quiet)
        else:
            ray.init(address=cluster, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise UsageError([Diagnostic(None, f"--cluster {cluster}: cannot join a Ray cluster "
                                           f"there: {str(error)[:200]}",
                                     hint="start one with 'ray start --head' and give the "
                                          "address it prints, or --cluster local")]) from None
    return ray, True


def _crashes(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's errors for a task that lost its worker, its node or its result."""
    names = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError")
    return tuple(getattr(ray.exceptions, n) for n in names if hasattr(ray.exceptions, n))


def _on_ray(job: Job[T], seeds: range | Sequence[range], count: int, cluster: str, jobs: int,
            size: int, progress: Progress | None) -> Iterator[tuple[range, T]]:
    ray, connected = connect(cluster, jobs if jobs > 1 else None)
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # a chunk whose worker (or node) dies is run again by Ray itself
        remote = ray.remote(num_cpus=1, max_retries=RETRIES - 1)(_call)
        todo = spans(seeds, chunk_size(count, workers, size))
        pending: deque[tuple[range, Any]] = deque()
        told: set[Any] = set()
        try:
            while True:
                while len(pending) < 2 * workers:
                    part = next(todo, None)
                    if part is None:
                        break
                    pending.append((part, remote.remote(job, part)))
                if not pending:
                    return
                part, head = pending[0]
                while head not in told:
                    waiting = [ref for _, ref in pending if ref not in told]
                    ready, _ = ray.wait(waiting, num_returns=1)
                    for ref in ready:
                        told.add(ref)
                        if progress:
                            progress(next(len(p) for p, r in pending if r is ref))
                try:
                    result = ray.get(head)
                except _crashes(ray):
                    raise _lost(part) from None
                told.discard(head)
                pending.popleft()
                yield part, result
        finally:
            for _, ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
    finally:
        if connected:
            ray.shutdown()
