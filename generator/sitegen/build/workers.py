"""Compute on both cores: a stage that needs nothing the rest of compute makes (AI IQ's as-of months) runs in a forked
process started before the parent begins its own stages (today's boards, their intervals, the JSON API, the other
definitions' as-of months), and its result comes back through a pipe, pickled.

The output does not depend on the scheduling: the worker computes what the parent would have computed in its
place, from the same inputs, and the parent waits for it before anything reads it. A worker that fails (an
exception, a crash, a result that cannot be pickled, or no answer before its deadline) gives a `Failed` with a
one-line message the build places as a problem; it never hangs the build and never prints a traceback.

SITEGEN_JOBS=1, or a platform without fork, runs the stage in the parent when it is asked for (`Handle.result`):
the same result, one core, passed through pickle as a worker's is (so the site's record is the same too).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any

#: How long the parent waits for a worker's answer (seconds) past the point where it needs it; SITEGEN_WORKER_DEADLINE
#: sets another. A real-data build's as-of months take well under a minute of CPU.
DEADLINE = 1800.0


class Failed(Exception):
    """A worker's stage failed; str() is the message the build shows."""


def jobs() -> int:
    """How many processes compute may use: SITEGEN_JOBS when set (1: everything in this process), else the cores."""
    try:
        return max(1, int(os.environ.get("SITEGEN_JOBS") or os.cpu_count() or 1))
    except ValueError:
        return 1


def deadline() -> float:
    try:
        return float(os.environ.get("SITEGEN_WORKER_DEADLINE") or DEADLINE)
    except ValueError:
        return DEADLINE


class Handle:
    """A stage started by `start`: `result()` waits for it (or runs it here when it was not forked)."""

    def __init__(self, name: str, fn: Callable[[], Any]):
        self.name, self.fn = name, fn
        self.pid: int | None = None
        self.fd: int | None = None

    def result(self, timeout: float | None = None) -> Any:
        if self.pid is None:
            # through pickle as from a worker: the same objects, unshared with the parent's, whichever way it ran
            # (the pages' keys, reuse.key_of, pickle what they show, and would otherwise follow SITEGEN_JOBS)
            return pickle.loads(pickle.dumps(self.fn(), protocol=pickle.HIGHEST_PROTOCOL))
        try:
            data = self._read(deadline() if timeout is None else timeout)
        finally:
            self._reap()
        try:
            ok, value = pickle.loads(data)
        except Exception:  # nothing, or a truncated answer: the worker died while writing it
            raise Failed(f"{self.name}: the worker process ended without an answer{self._status}") from None
        if not ok:
            raise Failed(f"{self.name}: {value}")
        return value

    _status = ""

    def _read(self, timeout: float) -> bytearray:
        assert self.fd is not None
        data = bytearray()  # grown in place: the answer is held once, not as chunks and their join
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                self._kill()
                raise Failed(f"{self.name}: no answer from the worker process within {timeout:g} s (it was stopped)")
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return data
            data += chunk

    def _kill(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass

    def _reap(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.pid is not None:
            try:
                _, status = os.waitpid(self.pid, 0)
                if os.WIFSIGNALED(status):
                    self._status = f" (stopped by signal {os.WTERMSIG(status)})"
                elif os.WEXITSTATUS(status):
                    self._status = f" (exit status {os.WEXITSTATUS(status)})"
            except ChildProcessError:
                pass
            self.pid = None

    def cancel(self) -> None:
        """Stop the worker when its result is no longer wanted (the parent failed first)."""
        self._kill()
        self._reap()


def start(name: str, fn: Callable[[], Any]) -> Handle:
    """`fn()` in a forked process, begun now; `name` says what it computes, in a failure's message. Without a core
    to spare (jobs() == 1) or fork, `fn` runs when its result is asked for."""
    handle = Handle(name, fn)
    if jobs() <= 1 or not hasattr(os, "fork"):
        return handle
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: compute, answer, and leave without running the parent's exit handlers
        code = 0
        try:
            os.close(read)
            try:
                answer = (True, fn())
            except BaseException as exc:  # every failure becomes the parent's message
                answer = (False, f"{type(exc).__name__}: {exc}")
                if os.environ.get("SITEGEN_DEBUG"):
                    answer = (False, answer[1] + "\n" + traceback.format_exc())
            try:
                data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # any pickling error
                data = pickle.dumps((False, f"its result could not be sent back ({type(exc).__name__}: {exc})"))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        except BaseException:  # the parent reports the missing answer
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    handle.pid, handle.fd = pid, read
    return handle
