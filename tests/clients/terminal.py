"""A tiny terminal driver for tests: runs a command on a pseudo-terminal (stdlib ``pty``),
reads its screen output, waits for text, types lines — like ``pexpect``, without it."""

from __future__ import annotations

import codecs
import os
import pty
import re
import select
import signal
import subprocess
import time
from collections.abc import Sequence

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A command on an 80-column pseudo-terminal."""

    def __init__(self, command: Sequence[str], env: dict[str, str], cwd: str) -> None:
        self.master, slave = pty.openpty()
        env = {**env, "COLUMNS": "80", "LINES": "40", "TERM": "xterm-256color"}
        self.process = subprocess.Popen(
            list(command), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
            start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.screen = ""  # everything printed so far, colours removed
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.mark = 0  # where the last expect() matched

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            self.screen += ANSI.sub("", self._decoder.decode(data))

    def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait until ``pattern`` (a regex) appears after the last match; returns the match."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.screen, self.mark)
            if found:
                self.mark = found.end()
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{pattern!r} not seen; screen ends with:\n{self.screen[-3000:]}"
                )
            self._read(0.2)

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        """End the command (if still running) and return its exit status."""
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGTERM)
            code = self.process.wait(timeout=10)
        while True:
            before = len(self.screen)
            self._read(0.05)
            if len(self.screen) == before:
                break
        os.close(self.master)
        return code
