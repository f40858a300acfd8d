"""Results printed to standard output, and what happens when they cannot all be written there.

Two ways printing can fail, and each command ends the same way for both:

- The reader went away before reading everything (``sevens lab ... | head -1``, ``| true``): the
  command stops printing at once, says nothing, and exits with status 141, the 128 + SIGPIPE that a
  shell shows for ``yes | head -1``: the output was not all read, and that is no error to report.
  Before, click and rich each caught the broken pipe their own way and exited with status 1, which a
  script under ``set -o pipefail`` took for a failed command.
- Anything else (``>/dev/full``, a disk that fills, a closed terminal's input/output error): one
  line saying the results could not be written to standard output and why, status 1.

Python ignores SIGPIPE, so a closed pipe is a BrokenPipeError at the write; letting the signal kill
the process instead would also kill it at a worker's or a Dask connection's broken socket. Only the
writes of results are watched here, so that such an error elsewhere is never mistaken for the
reader leaving.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import sys
from collections.abc import Iterator
from typing import IO, Any, NoReturn, cast

import typer
from rich.console import Console

from sevens.cli.errors import fail
from sevens.cli.theme import THEME

__all__ = ["EXIT_READER_GONE", "OutputFailed", "ResultsConsole", "StdoutError", "drop_stdout", "printing",
           "stdout_broken", "without_padding", "writing_stdout"]

EXIT_READER_GONE = 128 + getattr(signal, "SIGPIPE", 13)
"""The exit status when the reader of standard output left before the end (141 on Linux and macOS)."""


class OutputFailed(Exception):
    """Writing results to standard output failed with ``error``."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error

    @property
    def reader_gone(self) -> bool:
        """Whether the reader closed its end (a pipe to ``head``), rather than the write failing."""
        return self.error.errno in (errno.EPIPE, errno.ECONNRESET)

    def message(self, then: str = "") -> str:
        """The line saying so (``then`` adds what was done regardless)."""
        why = self.error.strerror or str(self.error)
        return (
            f"the results could not be written to standard output: {why}{then}; send them somewhere "
            "that can take them (a file on a disk with room, a terminal, a pipe)"
        )

    def end(self, *, then: str = "", code: int = 1) -> NoReturn:
        """End the command as its output failing says: quietly with :data:`EXIT_READER_GONE`, or
        with one line (:meth:`message`) and status ``code``."""
        if self.reader_gone:
            raise typer.Exit(EXIT_READER_GONE)
        fail(self.message(then), code=code)


class StdoutError(OSError):
    """A :class:`ResultsConsole` could not write to standard output: told apart from a file that
    could not be written by a command that writes both (``sevens play`` keeps the game in a file)."""


def stdout_broken() -> NoReturn:
    """A rich console's ``on_broken_pipe`` for results: raise BrokenPipeError for
    :func:`writing_stdout` to see, where rich would exit at once with status 1."""
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


_PADDING = re.compile(r"(?: |\x1b\[[0-9;]*m)*? +((?:\x1b\[[0-9;]*m)*)(?=\n)")
"""Spaces that end a line, colour codes among them (FORCE_COLOR): rich pads tables' titles and
captions, and typer the help's lines, to the full width."""


def without_padding(text: str) -> str:
    """``text`` less the spaces that end its lines, keeping any colour code among them (a reset).

    >>> without_padding("title   \\n  \\x1b[1m \\x1b[0m\\nprompt> ")
    'title\\n\\x1b[0m\\nprompt> '
    """
    return _PADDING.sub(r"\1", text)


_PLAIN = str.maketrans({"█": "#", "–": "-", "—": "-", "…": ".", "·": "|"})
"""Stand-ins, as wide, for characters the commands print that an output not in UTF-8 may not take
(tables are laid out before they are written)."""


class ResultsConsole(Console):
    """A rich console for results on standard output: a write that fails raises :class:`StdoutError`,
    with the error's number (EPIPE for a closed pipe, where rich would exit at once with status 1)."""

    def __init__(self, **options: Any) -> None:
        # No highlighting: rich's guesses coloured numbers, quotes and brackets in cyan, green and
        # bold at random ('SHA-256' had a bold cyan 256), in colours that do not read on white.
        options = {"theme": THEME, "highlight": False, **options}
        super().__init__(file=cast("IO[str]", _ResultsStdout()), **options)
        if self.is_dumb_terminal and "width" not in options:
            # Rich lays out for 80 columns on a dumb terminal (TERM=dumb: Emacs's shell, say) whatever
            # its width, unless COLUMNS and LINES are both set, so a 40-column one broke every table:
            # the terminal's own size stands in for what they leave out (rich read them as _width, _height).
            columns, lines = _terminal_size()
            width = self._width if self._width is not None else columns
            if width > 0:
                self.size = (width, (self._height if self._height is not None else lines) or 25)

    def on_broken_pipe(self) -> None:
        stdout_broken()


def _terminal_size() -> tuple[int, int]:
    """The columns and lines of the terminal on standard output; (0, 0) where it is none."""
    try:
        return os.get_terminal_size(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):
        return 0, 0


class _ResultsStdout(io.TextIOBase):
    """Standard output as a :class:`ResultsConsole` writes to it: whichever ``sys.stdout`` is at the
    time of each write (a redirect to stderr included), its failures raised as :class:`StdoutError`,
    and characters its encoding cannot take given stand-ins. Rich takes any file object, so this
    needs none of its private hooks."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(sys.stdout, "encoding", None) or "utf-8"

    def isatty(self) -> bool:  # what rich asks to decide on colour and cursor codes
        return sys.stdout.isatty()

    def fileno(self) -> int:
        return sys.stdout.fileno()

    def write(self, text: str) -> int:
        if not self.isatty():
            # A terminal shows the padding as nothing; a file or pipe kept it, dozens of lines ending
            # in spaces in a game's log. Only before a line's end: a prompt's "> " stays.
            text = without_padding(text)
        # Output whose encoding is not UTF-8 (a Latin-1 locale, a file redirected on Windows) cannot
        # take odds' bars or lab's dashes: it failed with the results half printed. Rich already
        # draws tables' boxes in ASCII there; the rest gets plain stand-ins, or "?".
        encoding = self.encoding
        if not encoding.lower().startswith("utf"):
            try:
                text.encode(encoding)
            except UnicodeEncodeError:
                text = text.translate(_PLAIN).encode(encoding, errors="replace").decode(encoding)
            except LookupError:  # an encoding Python does not know: the write will say so
                pass
        with _as_stdout_error():
            return sys.stdout.write(text)

    def flush(self) -> None:
        with _as_stdout_error():
            sys.stdout.flush()


@contextlib.contextmanager
def _as_stdout_error() -> Iterator[None]:
    try:
        yield
    except StdoutError:
        raise
    except OSError as exc:  # BrokenPipeError included: rich would exit on it at once
        raise StdoutError(exc.errno, exc.strerror) from exc


def drop_stdout() -> None:
    """Point standard output at the null device: whatever is still buffered, and flushed as Python
    exits, goes nowhere rather than failing again ('Exception ignored ... BrokenPipeError')."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


@contextlib.contextmanager
def writing_stdout() -> Iterator[None]:
    """Within the block, results are printed to standard output (with ``typer.echo``, ``print`` or a
    :class:`ResultsConsole`); they are flushed as it ends. A write that fails raises
    :class:`OutputFailed`, for a command that has more to do (a file to write) before it ends."""
    try:
        yield
        sys.stdout.flush()
    except OSError as exc:
        drop_stdout()
        raise OutputFailed(exc) from exc


@contextlib.contextmanager
def printing(code: int = 1) -> Iterator[None]:
    """:func:`writing_stdout`, ending the command at once when a write fails (:meth:`OutputFailed.end`,
    with ``code`` where the reader did not leave)."""
    try:
        with writing_stdout():
            yield
    except OutputFailed as failed:
        failed.end(code=code)
