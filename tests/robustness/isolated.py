"""One call in a forked child with a time limit and an address-space limit:
a hang, a memory bomb or a crash costs that call, never the run. Used by the
attack tests and the fuzz tools (both libraries: the child inherits whatever the
parent imported, so a fork is cheap)."""
from __future__ import annotations

import json
import os
import resource
import signal

MEMORY_LIMIT = 3 << 30     # bytes of address space per child


class _Timeout(Exception):
    pass


def _alarm(*_):
    raise _Timeout  # (a handler that returns would let the system call resume: PEP 475)


def run_isolated(func, args=(), timeout: float = 20.0, memory: int = MEMORY_LIMIT) -> dict:
    """func(*args) (a JSON-able dict) run in a forked child. Returns its dict,
    {"outcome": "error", ...} for an exception that escaped it,
    {"outcome": "hang", "seconds": timeout}, or {"outcome": "died", ...}."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:                                     # the child
        os.close(read_fd)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            record = func(*args)
        except BaseException as error:              # noqa: BLE001
            record = {"outcome": "error", "type": type(error).__name__,
                      "message": str(error)[:600]}
        try:
            text = json.dumps(record)
        except (TypeError, ValueError) as error:
            text = json.dumps({"outcome": "error", "type": "UnserializableResult",
                               "message": str(error)[:200]})
        with os.fdopen(write_fd, "w") as out:
            out.write(text)
        os._exit(0)
    os.close(write_fd)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    chunks = []
    status = None
    try:
        with os.fdopen(read_fd, "rb") as pipe:      # read first: a big record fills the pipe
            while True:
                chunk = pipe.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
    except _Timeout:
        status = None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return {"outcome": "hang", "seconds": timeout}
    text = b"".join(chunks).decode()
    if not text:
        return {"outcome": "died",
                "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None}
    return json.loads(text)
