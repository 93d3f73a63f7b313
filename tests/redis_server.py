"""A Redis server of the tests' own: the suite never uses, and so never flushes, a Redis a
running site may use (127.0.0.1:6379/0 is the README's broker and the venue box's; the suite
used to clear it). Each test process starts one on a free port (``private_redis`` in
tests/conftest.py); the broker-fault tests start, stop and freeze their own with
:class:`OwnRedis`."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest


def die_with_this_process() -> None:
    """``preexec_fn`` of the processes a test starts (workers, Redis): the kernel kills them
    when the test process dies, so an interrupted run leaves no worker or server behind
    (PR_SET_PDEATHSIG)."""
    import ctypes
    import os

    parent = os.getppid()
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the test process died before the line above
        os._exit(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    """A redis-server of a test: start, stop (SIGTERM: it saves and exits), freeze (SIGSTOP),
    thaw (SIGCONT). ``keep`` keeps its data across a restart (the broker-fault tests' queue)."""

    def __init__(self, folder: Path, port: int | None = None, keep: bool = False):
        self.folder = folder
        self.port = port or free_port()
        self.keep = keep
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--save",
                "60 1" if self.keep else "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_this_process,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        pytest.fail(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            self.process.wait(10)

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)
