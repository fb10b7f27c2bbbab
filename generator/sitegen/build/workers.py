"""Compute on both cores: a stage that needs nothing the rest of compute makes (AI IQ's as-of months) runs in a forked
process started before the parent begins its own stages (today's boards, their intervals, the JSON API, the other
definitions' as-of months), and its result comes back through a pipe, pickled.

The output does not depend on the scheduling: the worker computes what the parent would have computed in its
place, from the same inputs, and the parent waits for it before anything reads it. The answer is pickled into the
pipe as it is made and unpickled from it as it comes (`_Sink`, `_Source`: frames of at most CHUNK bytes), so
neither process ever holds the whole pickle beside the objects it is made from or makes. A worker that fails (an
exception, a crash, a result that cannot be pickled, or no answer before its deadline) gives a `Failed` with a
one-line message the build places as a problem; it never hangs the build and never prints a traceback.

SITEGEN_JOBS=1, or a platform without fork, runs the stage in the parent when it is asked for (`Handle.result`):
the same result, one core, passed through pickle as a worker's is (so the site's record is the same too).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any

#: The largest frame of a worker's answer in the pipe (bytes): what either side holds of the pickle at once.
CHUNK = 1 << 20
#: A frame's first byte: pickled data, the end of a complete answer, or the message of an answer that could not
#: be pickled (after any data frames of it, which the parent then drops).
DATA, END, FAILED = b"D", b"E", b"F"

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
            assert self.fd is not None
            timeout = deadline() if timeout is None else timeout
            source = _Source(self.fd, time.monotonic() + timeout)
            try:
                ok, value = pickle.Unpickler(source).load()
                source.end()
            except _TimedOut:
                self._kill()
                raise Failed(
                    f"{self.name}: no answer from the worker process within {timeout:g} s (it was stopped)"
                ) from None
            except _Message as message:  # the worker could not pickle its answer, and said so
                ok, value = message.args[0]
            except Exception:  # nothing, or a truncated answer: the worker died while writing it
                self._reap()  # the pipe closed first: a worker still writing ends
                raise Failed(f"{self.name}: the worker process ended without an answer{self._status}") from None
        finally:
            self._reap()
        if not ok:
            raise Failed(f"{self.name}: {value}")
        return value

    _status = ""

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


def release_free_memory() -> None:
    """Give the memory this process has freed back to the system (glibc's malloc_trim; elsewhere nothing): called
    between the as-of months, whose simulations free hundreds of MB that the C allocator would otherwise keep
    mapped, so the next month's peak does not sit on the last month's leftovers."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


def start(name: str, fn: Callable[[], Any]) -> Handle:
    """`fn()` in a forked process, begun now; `name` says what it computes, in a failure's message. Without a core
    to spare (jobs() == 1) or fork, `fn` runs when its result is asked for."""
    handle = Handle(name, fn)
    if jobs() <= 1 or not hasattr(os, "fork"):
        return handle
    read, write = os.pipe()
    # Every object the parent holds now is moved out of the cyclic collector's reach (gc.freeze) for the fork: a
    # collection in the worker would otherwise write to each of them and so copy every page of the parent's heap
    # into the worker. The parent takes them back at once; the worker leaves them frozen (it never frees them).
    gc.freeze()
    try:
        pid = os.fork()
    except BaseException:
        gc.unfreeze()  # no worker: the parent's objects go back to the collector as after a fork
        raise
    if pid != 0:
        gc.unfreeze()
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
            with os.fdopen(write, "wb", buffering=0) as out:
                sink = _Sink(out)
                try:
                    pickle.Pickler(sink, protocol=pickle.HIGHEST_PROTOCOL).dump(answer)
                    sink.flush()
                    out.write(END)
                except Exception as exc:  # any pickling error: what was sent of it is dropped by the parent
                    message = (False, f"its result could not be sent back ({type(exc).__name__}: {exc})")
                    sink.frame(FAILED, pickle.dumps(message))
        except BaseException:  # the parent reports the missing answer
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    handle.pid, handle.fd = pid, read
    return handle


class _TimedOut(Exception):
    """The parent's deadline passed while it read the answer."""


class _Message(Exception):
    """The worker's (False, message) sent in place of an answer it could not pickle."""


class _Sink:
    """The worker's side of the pipe, for pickle.Pickler: what it writes, sent in DATA frames of up to CHUNK bytes
    (a frame: its kind, its length in 8 bytes, the bytes)."""

    def __init__(self, out: Any):
        self.out = out
        self.buffer = bytearray()

    def write(self, data: Any) -> int:
        self.buffer += data
        if len(self.buffer) >= CHUNK:
            self.flush()
        return len(data)

    def flush(self) -> None:
        view = memoryview(self.buffer)
        for start in range(0, len(view), CHUNK):
            self.frame(DATA, view[start : start + CHUNK])
        view.release()
        self.buffer.clear()

    def frame(self, kind: bytes, data: Any) -> None:
        self.out.write(kind + len(data).to_bytes(8, "little"))
        view = memoryview(data)
        while view:  # an unbuffered pipe may take part of it
            view = view[self.out.write(view) :]


class _Source:
    """The parent's side of the pipe, for pickle.Unpickler: the DATA frames' bytes as one stream, read as they come
    until `deadline` (time.monotonic()); a FAILED frame raises _Message, the end of the pipe reads as b""."""

    def __init__(self, fd: int, deadline: float):
        self.fd, self.deadline = fd, deadline
        self.left = 0  # bytes of the current DATA frame not read yet
        self.done = False

    def _raw(self, n: int) -> bytes:
        """Exactly n bytes of the pipe, or fewer at its end."""
        parts = []
        while n > 0:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise _TimedOut
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(self.fd, n)
            if not chunk:
                break
            parts.append(chunk)
            n -= len(chunk)
        return b"".join(parts)

    def _next(self) -> bool:
        """Move to the next DATA frame; False at the answer's end (or the pipe's)."""
        while self.left == 0 and not self.done:
            head = self._raw(9)
            if len(head) < 9 or head[:1] not in (DATA, FAILED):
                self.done = True  # END, or the pipe closed: nothing more to read
                self.ended = head == END
                return False
            size = int.from_bytes(head[1:], "little")
            if head[:1] == FAILED:
                raise _Message(pickle.loads(self._raw(size)))
            self.left = size
        return not self.done

    ended = False

    def read(self, n: int = -1) -> bytes:
        parts = []
        while (n < 0 or n > 0) and self._next():
            take = self.left if n < 0 else min(n, self.left)
            chunk = self._raw(take)
            if len(chunk) < take:  # the pipe closed inside a frame
                self.done, self.left = True, 0
                parts.append(chunk)
                break
            self.left -= take
            n -= take if n > 0 else 0
            parts.append(chunk)
        return b"".join(parts)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readline(self) -> bytes:
        parts = []
        while True:
            byte = self.read(1)
            parts.append(byte)
            if not byte or byte == b"\n":
                return b"".join(parts)

    def end(self) -> None:
        """After the answer: its END frame must follow (else the worker died before it said the answer was whole)."""
        if self._next() or not self.ended:
            raise EOFError("no end to the answer")
