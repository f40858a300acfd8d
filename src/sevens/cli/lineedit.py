"""Line editing at the prompts of ``sevens play`` (GNU readline, or libedit where Python is built
with it, as Apple's is), with nothing kept between lines.

People at one keyboard take turns (R13: orders are secret until the turn is resolved), so the
editing must not let the next person recall what the last one typed: no line is added to the
history, the history is cleared after every line, no history file is read or written, and no key
brings back deleted text. Readline keeps what Ctrl-U, Ctrl-K or Ctrl-W delete (the kill ring) from
one line to the next and offers no way to empty it, so every way to paste it is shut: Ctrl-Y and
Alt-Y, Alt-X (which runs any command by name), the switch to vi mode (Esc Ctrl-J or Esc Enter: in vi
mode ``p`` pastes), keyboard macros (one person could record keys for the next to play back), and
Ctrl-X Ctrl-R, which reads an init file again. No init file is read, neither the user's
(``INPUTRC``, ``~/.inputrc``) nor the system's (``/etc/inputrc``): either could set vi mode or bind a
key to paste, and readline cannot list the bindings to undo them. The few keys the system file adds
for Home and End in some terminals (the Linux console, tmux, rxvt) are bound here instead.

libedit takes its own commands, not GNU readline's (it ignores those), and has its own ways back
to deleted text: Ctrl-Y, and Esc x, which reads an editline command such as ``bind -v`` (vi mode) or
``bind ^T em-yank``. So under libedit (:func:`backend`) those keys are unbound, emacs mode is set,
and its init file (``EDITRC``, ``~/.editrc``) is not read either.

At a hand-over, keys typed but not yet read are dropped (:func:`drop_typed_ahead`), and the next
person's "Press Enter" is read without showing what is typed (:func:`wait_for_enter`): keys the last
person typed late would otherwise be shown there, or answer it for them.

Only when both standard input and output are a terminal: readline edits nothing else, and a prompt
written through a pipe would carry its markers.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from types import FrameType, ModuleType
from typing import ClassVar, TextIO

from rich.console import Console
from rich.prompt import Confirm, Prompt
from rich.text import Text, TextType

from sevens.cli.errors import one_line
from sevens.cli.render import Phrases

try:
    import termios
except ImportError:  # not a POSIX system: no type-ahead is dropped, and what is typed is shown
    termios = None  # type: ignore[assignment]

__all__ = [
    "AskLine", "ConfirmLine", "backend", "bindings", "drop_typed_ahead", "enable", "forget", "no_init_file", "offer",
    "read_line",
    "wait_for_enter",
]

_readline: ModuleType | None = None

# Emacs mode whatever an init file or a default would choose, and meta keys and eight-bit
# characters (a name such as Zoë) as /etc/inputrc sets them.
_SETTINGS = ("set editing-mode emacs", "set input-meta on", "set output-meta on", "set convert-meta off")

# Home and End as the Linux console, screen and tmux (ESC[1~, ESC[4~) and rxvt (ESC[7~, ESC[8~) send
# them; readline binds xterm's own (ESC[H, ESC[F, ESC O H, ESC O F) and Delete (ESC[3~) by itself.
_HOME_END = (
    r'"\e[1~": beginning-of-line', r'"\e[4~": end-of-line', r'"\e[7~": beginning-of-line', r'"\e[8~": end-of-line',
)

# Every key that could bring back text deleted at an earlier prompt, bound to abort (a bell)
# instead: yank (Ctrl-Y) and yank-pop (Alt-Y); the history's yanks (Alt-., Alt-_, Alt-Ctrl-Y),
# empty as it is; execute-named-command (Alt-X); vi-editing-mode (Esc Ctrl-J, Esc Enter), where
# p and P paste; the keyboard macros (Ctrl-X ( ) e); re-read-init-file (Ctrl-X Ctrl-R).
_NO_YANK = tuple(
    f'"{key}": abort'
    for key in (
        r"\C-y", r"\ey", r"\e.", r"\e_", r"\e\C-y", r"\ex", r"\e\C-j", r"\e\C-m",
        r"\C-x(", r"\C-x)", r"\C-xe", r"\C-x\C-r",
    )
)

# The same under libedit: its emacs mode (an init file could have chosen vi), then Ctrl-Y (em-yank)
# and Esc x, Esc X (ed-command, which reads a command such as "bind -v" or "bind ^T em-yank")
# unbound; every other key of its emacs mode keeps to the line being typed. "bind -e" first: it
# sets the emacs keys afresh. Home, End and Delete it binds by itself, for the same terminals.
_LIBEDIT = ("bind -e", "bind ^Y ed-unassigned", "bind ^[x ed-unassigned", "bind ^[X ed-unassigned")

# A control sequence of the rendered prompt: readline must not count it as printed characters.
_CONTROL = re.compile(r"(\x1b\[[0-9;?]*[ -/]*[@-~])")


def enable() -> bool:
    """Turn line editing on if standard input and output are a terminal and readline is there;
    whether it is on."""
    global _readline
    if _readline is not None:
        return True
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        with no_init_file():
            import readline
    except ImportError:  # a Python built without it: plain input, as before
        return False
    readline.set_auto_history(False)
    for binding in bindings(backend(readline)):
        readline.parse_and_bind(binding)
    readline.clear_history()
    _readline = readline
    return True


@contextlib.contextmanager
def no_init_file() -> Iterator[None]:
    """Within the block, the init file GNU readline reads (``INPUTRC``) and the one libedit reads
    (``EDITRC``) are the empty null device: each reads it as it starts, when Python imports readline."""
    saved = {name: os.environ.get(name) for name in ("INPUTRC", "EDITRC")}
    try:
        os.environ.update(dict.fromkeys(saved, os.devnull))
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def backend(module: ModuleType) -> str:
    """Which library the readline ``module`` edits with: "editline" (libedit) or "readline" (GNU).
    Python 3.13 says so in ``readline.backend``; before it, only the module's docstring names libedit.

    >>> import types
    >>> backend(types.ModuleType("readline", "Importing this module enables command line editing using libedit readline."))
    'editline'
    >>> backend(types.ModuleType("readline", "Importing this module enables command line editing using GNU readline."))
    'readline'
    """
    named = getattr(module, "backend", None)
    if isinstance(named, str):
        return named
    return "editline" if "libedit" in (module.__doc__ or "") else "readline"


def bindings(library: str) -> tuple[str, ...]:
    """What :func:`enable` gives ``parse_and_bind`` for ``library`` (see :func:`backend`)."""
    return _LIBEDIT if library == "editline" else (*_SETTINGS, *_HOME_END, *_NO_YANK)


def forget() -> None:
    """Clear the history (nothing should be in it), as at every hand-over to the next person."""
    global _offered
    _offered = None  # a line offered to one person is never shown to the next
    if _readline is not None:
        _readline.clear_history()


def drop_typed_ahead() -> None:
    """Discard what was typed but not yet read, when standard input is a terminal: keys the last
    person pressed after their last answer would otherwise show at the next person's prompt."""
    if termios is None or not sys.stdin.isatty():  # not a POSIX system: nothing to discard with
        return
    with contextlib.suppress(OSError):
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def wait_for_enter(console: Console, prompt: str, keep: Iterable[str] = ()) -> str:
    """Show ``prompt`` (markup) and wait for Enter alone, as a person sits down at the keyboard.

    From a terminal, keys typed before the prompt are dropped, what is typed is not shown, a line
    with anything in it is refused (it is the last person's late keys as likely as the next
    person's), and keys typed with or after the Enter are dropped too, so that none reach the order
    prompt that follows; the empty line is returned. EOFError for Ctrl-D at the start of the line,
    as :func:`input` raises it. From anything else (orders piped in), one line is read and returned,
    whatever it holds, for the caller to see whether it was meant for the next prompt. The names in
    ``keep`` (the person's) are never split across lines."""
    if not sys.stdin.isatty() or termios is None:
        return AskLine.keeping(keep).ask(prompt, console=console, default="", show_default=False)
    fd = sys.stdin.fileno()
    with _unseen(fd):  # before the prompt shows: a key pressed as it appears is not shown either
        while True:
            drop_typed_ahead()
            console.print(laid_out(f"{prompt}: ", console.width, keep), end="")
            line = _line_from(fd)
            drop_typed_ahead()
            if not line.strip():
                return ""
            console.print("[red]Refused:[/] press Enter alone; what was typed is thrown away unseen.")


@contextlib.contextmanager
def _unseen(fd: int) -> Iterator[None]:
    """Within the block, the terminal ``fd`` reads whole lines and shows nothing typed (the Enter
    still moves to a new line). Stopped (Ctrl-Z) and carried on (``fg``), it hides what is typed
    again: the shell shows it while the program waits stopped, as readline knows to undo at its
    own prompts."""
    assert termios is not None
    before = termios.tcgetattr(fd)
    quiet = list(before)
    quiet[3] = (quiet[3] & ~termios.ECHO) | termios.ECHONL | termios.ICANON

    def hush(signum: int = 0, frame: FrameType | None = None) -> None:
        with contextlib.suppress(OSError):
            termios.tcsetattr(fd, termios.TCSANOW, quiet)

    # SIGCONT is POSIX; only the main thread may set a handler, and one set outside Python (None) is left alone.
    carried_on: int | None = getattr(signal, "SIGCONT", None)
    was = None
    if carried_on is not None and threading.current_thread() is threading.main_thread():
        was = signal.getsignal(carried_on)
        if was is not None:
            signal.signal(carried_on, hush)
    hush()
    try:
        yield
    finally:
        if carried_on is not None and was is not None:
            signal.signal(carried_on, was)
        with contextlib.suppress(OSError):  # a terminal that went away keeps nothing to put back
            termios.tcsetattr(fd, termios.TCSANOW, before)


def _line_from(fd: int) -> str:
    """A line read straight from ``fd`` (nothing kept in a buffer for later); EOFError at Ctrl-D on
    an empty line, or once the terminal is gone."""
    typed = b""
    while not typed.endswith(b"\n"):
        # Out of the wait now and then: a signal (SIGCONT, after fg) may be delivered to another
        # thread (a numerical library's), and its Python handler then runs only once the main
        # thread leaves a blocking read, which left typing shown after Ctrl-Z and fg until Enter.
        while not select.select([fd], [], [], 0.1)[0]:
            pass
        chunk = os.read(fd, 1024)
        if not chunk:  # Ctrl-D at the start of a line, or a terminal that went away
            if typed:
                break
            raise EOFError
        typed += chunk
    return typed.decode("utf-8", "replace")


_unread: list[str] = []
_offered: str | None = None


def offer(text: str) -> None:
    """Put ``text`` in the next prompt's line, ready to edit, when line editing is on: a refused
    order comes back to be corrected rather than typed again from nothing. Only the same person's
    next prompt gets it; :func:`forget` (every hand-over) drops it."""
    global _offered
    if _readline is not None:
        _offered = text


def unread(line: str) -> None:
    """Give ``line`` back, from input that is not a terminal, to be the next line read: an answer
    piped in that was meant for a later prompt. A terminal's lines are never kept (R13)."""
    if not sys.stdin.isatty():
        _unread.append(line)


def read_line(console: Console, prompt: TextType, keep: Iterable[str] = ()) -> str:
    """Read a line as rich's prompts do, but with the prompt given to readline, so that editing
    redraws it rather than writing over it; the history is cleared after the line. A line from
    input that is not a terminal (orders piped in) is shown after the prompt, as a terminal shows
    what is typed: unshown, the prompt's line ran on into what came next ("Send this order? [y/n]
    (y): t1-m1 group A: Fiji v France"), past the width the rest was laid out for. The names in
    ``keep`` (teams) are never split across lines."""
    line = _read_line(console, prompt, keep)
    if not sys.stdin.isatty():
        console.out(one_line(line), highlight=False)  # not markup, and control characters escaped
    return line


_ENDS_NAME = tuple(".,:;?!)")


def _prompt_phrases(line: Text, keep: Iterable[str] = ()) -> list[Text]:
    """``line`` (one line of a prompt) cut where it may break: between words, but never inside
    a name of ``keep`` whatever its case ("new zealand"), nor inside brackets ("(? for help):",
    "[y/n]"), nor between capitalised words ("FORCE FLAIR", "Press Enter"), nor before a figure
    ("Team 1")."""
    plain = line.plain
    names = [(m.start(), m.end()) for name in keep if name.strip() for m in re.finditer(re.escape(name), plain)]
    spans: list[list[int]] = []
    depth = 0
    for word in re.finditer(r"\S+", plain):
        text = word.group()
        previous = plain[spans[-1][0]:spans[-1][1]] if spans else ""
        joined = spans and (
            depth > 0
            or any(start < word.start() < end for start, end in names)
            or text[:1].isdigit()
            or (text[:1].isupper() and previous.split()[-1][:1].isupper() and not previous.endswith(_ENDS_NAME))
        )
        if joined:
            spans[-1][1] = word.end()
        else:
            spans.append([word.start(), word.end()])
        depth = max(0, depth + text.count("(") + text.count("[") - text.count(")") - text.count("]"))
    if spans:
        spans[0][0] = 0  # the line's indentation stays on its first phrase
    return [line[start:end] for start, end in spans]


def laid_out(prompt: TextType, width: int, keep: Iterable[str] = ()) -> Text:
    """``prompt`` (markup, or text) with its lines broken between phrases only (:func:`_prompt_phrases`)
    to fit ``width``, the lines after the first indented by two more than it: at 40 columns the
    terminal broke "Order for Fiji as FORCE FLAIR (? for help): " as "(? for" / "help): ". A name
    of ``keep`` is kept whole, whatever its case.

    >>> print(laid_out("Order for New Zealand as FORCE FLAIR (? for help): ", 30).plain + "|")
    Order for New Zealand as
      FORCE FLAIR (? for help): |
    >>> print(laid_out("Order for new zealand as FORCE FLAIR (? for help): ", 18, keep=["new zealand"]).plain + "|")
    Order for
      new zealand as
      FORCE FLAIR
      (? for help): |
    """
    text = Text.from_markup(prompt) if isinstance(prompt, str) else prompt
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        plain = line.plain
        trailing = line[len(plain.rstrip()):]  # the space after the colon, where the answer is typed
        indent = len(plain) - len(plain.lstrip(" "))
        broken = Phrases(_prompt_phrases(line, keep), indent=indent + 2).lines(max(1, width - len(trailing)))
        if broken:
            broken[-1].append_text(trailing)
        out.extend(broken or [line])
    return Text("\n").join(out)


def _read_line(console: Console, prompt: TextType, keep: Iterable[str] = ()) -> str:
    prompt = laid_out(prompt, console.width, keep)
    if _unread:
        console.print(prompt, end="")
        return _unread.pop()
    if _readline is None:
        return console.input(prompt)
    with console.capture() as captured:
        console.print(prompt, end="")
    head, newline, last = captured.get().rpartition("\n")
    if newline:
        console.file.write(head + newline)
        console.file.flush()
    global _offered
    offered, _offered = _offered, None
    hook = getattr(_readline, "set_pre_input_hook", None)
    if offered and hook is not None:
        def put_back() -> None:
            assert _readline is not None
            _readline.insert_text(offered)
            _readline.redisplay()
        hook(put_back)
    try:
        # \001 and \002 tell readline where the colour codes that take no room start and end.
        return input(_CONTROL.sub("\x01\\1\x02", last))
    finally:
        if offered and hook is not None:
            hook(None)
        forget()


class AskLine(Prompt):
    """rich's Prompt, reading with :func:`read_line`; :meth:`keeping` gives one that never splits
    the names it is given."""

    keep: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def keeping(cls, names: Iterable[str]) -> type[AskLine]:
        """This prompt, keeping each of ``names`` whole (a lowercase team name is one name too)."""
        return type(cls.__name__, (cls,), {"keep": tuple(names)})

    @classmethod
    def get_input(cls, console: Console, prompt: TextType, password: bool, stream: TextIO | None = None) -> str:
        if password or stream is not None:
            return super().get_input(console, prompt, password, stream)
        return read_line(console, prompt, cls.keep)


class ConfirmLine(Confirm):
    """rich's Confirm, reading with :func:`read_line`."""

    @classmethod
    def get_input(cls, console: Console, prompt: TextType, password: bool, stream: TextIO | None = None) -> str:
        if password or stream is not None:
            return super().get_input(console, prompt, password, stream)
        return read_line(console, prompt)
