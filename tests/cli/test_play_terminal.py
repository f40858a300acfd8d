"""``sevens play`` in a real pseudo-terminal: line editing at the prompt, and nothing typed by one
person can be called back by the next (R13: orders are secret until the turn is resolved)."""

from __future__ import annotations

import ctypes.util
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

UP, LEFT, HOME, END = "\x1b[A", "\x1b[D", "\x1b[H", "\x1b[F"  # keys as xterm sends them
KILL_LINE, YANK, ESC = "\x15", "\x19", "\x1b"  # Ctrl-U, Ctrl-Y and Escape

# What the screen shows, less the terminal's control sequences (colours, readline's modes) and
# readline's prompt markers.
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[=>]|[\x01\x02\r]")


class Terminal:
    """``python -m sevens ARGS`` with a pseudo-terminal as its standard input, output and error.

    ``controlling``: the terminal is the program's controlling terminal, as a terminal window's is,
    so that closing it (:meth:`hang_up`) sends the program SIGHUP. ``nohup``: the program starts
    with SIGHUP ignored, as ``nohup`` starts it. ``code``: Python code run with ``python -c`` (and
    ARGS) instead of ``-m sevens``."""

    def __init__(
        self, *args: str, columns: int = 120, rows: int = 40, env: dict[str, str] | None = None,
        controlling: bool = False, nohup: bool = False, code: str | None = None,
    ) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        environ["TERM"] = "xterm"
        environ.update(env or {})
        self.process = subprocess.Popen(
            [sys.executable, *(("-m", "sevens") if code is None else ("-c", code)), *args],
            stdin=slave, stdout=slave, stderr=slave, env=environ, start_new_session=True, close_fds=True,
            preexec_fn=_before_exec(controlling=controlling, nohup=nohup),
        )
        os.close(slave)
        self.master = master
        self.raw = b""

    @property
    def screen(self) -> str:
        """Everything written so far, as text without control sequences."""
        return _CONTROL.sub("", self.raw.decode("utf-8", "replace"))

    def expect(self, pattern: str, *, after: int = 0, timeout: float = 90) -> int:
        """Read until ``pattern`` (a regular expression) shows at or after ``after`` in
        :attr:`screen`; where its match ends."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.screen, after)
            if found:
                return found.end()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} within {timeout} s; the screen ends:\n{self.screen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the program ended before {pattern!r}; the screen ends:\n{self.screen[-3000:]}")
                self.raw += chunk

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())
        time.sleep(0.2)  # as a person types: readline reads each line with the terminal set up for it

    def hang_up(self) -> int:
        """Close the terminal, as closing its window does; the program's exit status."""
        os.close(self.master)
        self.master = -1
        return self.process.wait(timeout=60)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        if self.master != -1:
            os.close(self.master)


def _before_exec(*, controlling: bool, nohup: bool) -> Callable[[], None] | None:
    """What the child process does before it runs Python (see :class:`Terminal`)."""
    if not (controlling or nohup):
        return None

    def run() -> None:
        if nohup:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)  # kept across exec, as nohup relies on
        if controlling:  # in the new session, the terminal on its standard input becomes its controlling terminal
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    return run


@pytest.fixture
def terminal() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def _order_prompt(t: Terminal, after: int) -> int:
    return t.expect(r"Order for [A-Za-z ]+ as FORCE FLAIR \(\? for help\): ", after=after)


def test_arrow_keys_edit_the_order_being_typed(terminal: list[Terminal]) -> None:
    """Type '3 9', go back three places with the left arrow, insert '1': the order taken is 13 + 9.
    Then '5 12', Home, '1', End, Backspace, '5': 15 + 15."""
    t = Terminal("play", "--players", "4", "--seed", "edit")
    terminal.append(t)
    at = _order_prompt(t, 0)
    t.type("3 9" + LEFT * 3 + "1\r")
    at = t.expect(r"13 FORCE \+ 9 FLAIR: expected", after=at)
    at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("n\r")
    at = _order_prompt(t, at)
    t.type(KILL_LINE + "5 12" + HOME + "1" + END + "\x7f" + "5\r")  # the "n"'d order cleared; Home, End, Backspace
    t.expect(r"15 FORCE \+ 15 FLAIR: expected", after=at)
    assert "Refused" not in t.screen


def test_a_refused_order_comes_back_at_the_prompt_to_be_corrected(terminal: list[Terminal]) -> None:
    """'20 10' is refused (FLAIR not a multiple of 3) and is back at the prompt: two Backspaces and
    '9' send 20 + 9. Answered 'n', that order is back too: one Backspace and '6' give 20 + 6."""
    t = Terminal("play", "--players", "4", "--seed", "edit", "--no-save")
    terminal.append(t)
    at = _order_prompt(t, 0)
    t.type("20 10\r")
    at = t.expect(r"Refused: R3: FLAIR points must be a multiple of 3", after=at)
    at = _order_prompt(t, at)
    t.type("\x7f\x7f9\r")
    at = t.expect(r"20 FORCE \+ 9 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("n\r")
    at = _order_prompt(t, at)
    t.type("\x7f6\r")
    t.expect(r"20 FORCE \+ 6 FLAIR: expected", after=at)
    assert t.screen.count("Refused") == 1, t.screen


def test_an_order_typed_at_send_this_order_is_taken_as_the_new_order(terminal: list[Terminal]) -> None:
    """'18 9' typed at "Send this order?" for 20 + 9 (a change of mind) was refused with "Please answer y
    or n" and lost; it is checked as any typed order, shown with its odds and asked about in turn. One the
    rules refuse ('18 10') is back at the order prompt to be corrected, as a refused order is."""
    t = Terminal("play", "--players", "4", "--seed", "edit", "--no-save")
    terminal.append(t)
    at = _order_prompt(t, 0)
    first = t.screen[at - 60:at].split("Order for ")[-1].split(" as FORCE")[0]
    t.type("20 9\r")
    at = t.expect(r"20 FORCE \+ 9 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("18 9\r")
    at = t.expect(rf"'18 9' is taken as a new order for {first} in place of 20 FORCE \+ 9 FLAIR", after=at)
    at = t.expect(r"18 FORCE \+ 9 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("18 10\r")
    at = t.expect(r"Refused: R3: FLAIR points must be a multiple of 3", after=at)
    at = _order_prompt(t, at)
    t.type("\x7f\x7f6\r")  # '18 10' is at the prompt: two Backspaces and 6
    at = t.expect(r"18 FORCE \+ 6 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("y\r")
    at = _order_prompt(t, at)
    assert "Please answer" not in t.screen, t.screen
    assert f"Order for {first}" not in t.screen[at - 80:], "the next team's order is asked for"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"junk\n", 'it is not a saved game of sevens: a saved game is the file sevens play keeps a game in after '
                    'every turn, JSON that starts {"format": "sevens-saved-game"; give the file the game said it '
                    "was kept in (games are kept in {folder} unless --save named another), or start a new game with "
                    "sevens play (without --resume)"),
        (b'{\n  "format": "sevens-saved-game",\n  version: 1\n}\n',
         "it is not a whole saved game: its JSON is broken at line 3, column 3 (Expecting property name enclosed in "
         "double quotes), so the file was edited or damaged; mend it there, give the file the game said it was kept "
         "in, or start a new game"),
    ],
    ids=["junk", "edited"],
)
def test_a_file_that_is_not_json_is_refused_in_the_players_words(
    terminal: list[Terminal], tmp_path: Path, content: bytes, says: str,
) -> None:
    """'junk' given to --resume was refused with json's own "Expecting value (line 1, column 1)". Not
    JSON from its first character, it is said to be no saved game, with what one is, where games are kept
    and how to start afresh; a saved game's start broken further on keeps the line and column to mend."""
    given = tmp_path / "given.json"
    given.write_bytes(content)
    t = Terminal("play", "--resume", str(given), env={"XDG_STATE_HOME": str(tmp_path / "state")})
    terminal.append(t)
    t.expect(r"start a new game")
    assert t.process.wait(timeout=60) == 2
    t.expect(r"\n", after=t.screen.rindex("new game"))  # the whole message
    said = " ".join(t.screen.split())
    expected = says.replace("{folder}", str(tmp_path / "state" / "sevens"))
    assert said.startswith(f"error: cannot carry on the game in {given} (the file is left as it is): {expected}"), said
    assert "Expecting value" not in said and given.read_bytes() == content


def test_the_end_gives_each_of_your_teams_its_place_and_record_in_40_columns(
    terminal: list[Terminal], tmp_path: Path,
) -> None:
    """"Your teams" said how far each team went, but not its place nor how it did: each now has its
    place as the final standing gives it and its won, drawn and lost, points for and against, over
    every match it played (knockouts too), as the record counts them. Seed k3 and 14 + 9 each turn:
    a runner-up with a group draw, and a team out after the groups."""
    record = tmp_path / "game.json"
    t = Terminal("play", "--players", "4", "--seed", "k3", "--no-save", "--record", str(record), columns=40)
    terminal.append(t)
    at = 0
    while True:
        at = t.expect(r"Order for [\s\S]*?\(\? for help\): |─ Champion: ", after=at)
        if t.screen[:at].endswith("Champion: "):
            break
        t.type("14 9\r")
        at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
        t.type("y\r")
    assert t.process.wait(timeout=60) == 0
    t.expect(r"sevens verify", after=at)
    end = t.screen[at:]
    standing = end[end.index("Final standing:"):end.index("Your teams:")]
    yours = end[end.index("Your teams:"):end.index("Dice seed")]
    assert max(len(line) for line in yours.splitlines()) <= 40, yours
    said = " ".join(yours.split())
    data = json.loads(record.read_text())
    mine = next(p for p in data["players"] if p["id"] == "p1")["teams"]
    names = {team["id"]: team["name"] for team in data["teams"]}
    drawn_somewhere = False
    for team in mine:
        won = drawn = lost = scored = conceded = 0
        for turn in data["turns"]:
            for match in turn["matches"]:
                if team not in (match["home"], match["away"]):
                    continue
                us, them = ("home", "away") if match["home"] == team else ("away", "home")
                scored += match[f"{us}_line"]["points"]
                conceded += match[f"{them}_line"]["points"]
                won += match["winner"] == team
                drawn += match["winner"] is None
                lost += match["winner"] not in (team, None)
        drawn_somewhere |= drawn > 0
        place = re.search(rf"(\S+) {names[team]}:", " ".join(standing.split()))
        assert place is not None, standing
        assert f"{place[1]} {names[team]}: " in said, said
        assert f"Won {won}, drawn {drawn}, lost {lost}; points for {scored}, against {conceded}." in said, said
    assert drawn_somewhere and "Runner-up:" in said, "the seed no longer gives the case described"


def test_the_next_person_cannot_call_back_what_the_last_one_typed(terminal: list[Terminal]) -> None:
    """Player 1 types two orders (and deletes a third with Ctrl-U, and types a fourth after the last
    answer); at Player 2's prompts neither the up arrow nor Ctrl-Y (paste back what was deleted) brings
    any of them back, nor is the fourth waiting there: the empty line is refused."""
    t = Terminal("play", "--players", "4", "--humans", "2", "--seed", "hotseat")
    terminal.append(t)
    at = t.expect(r"Name of Player 1 \(Player 1\): ")
    t.type("\r")
    at = t.expect(r"Name of Player 2 \(Player 2\): ", after=at)
    t.type("\r")
    at = t.expect(r"Player 1: your orders are secret\. Press Enter when you are at the keyboard", after=at)
    t.type("\r")
    at = _order_prompt(t, at)
    t.type("23 15\r")
    at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("\r")
    at = _order_prompt(t, at)
    t.type("19 21" + KILL_LINE + "22 18\r")
    at = t.expect(r"22 FORCE \+ 18 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("\r" + "31 27")  # keys pressed after the last answer, before the hand-over
    handed = t.expect(r"Player 2: your orders are secret\. Press Enter when you are at the keyboard", after=at)
    t.type(UP + UP + "\r")  # not Enter alone: refused, and the keys are not shown
    at = t.expect(r"Refused: press Enter alone", after=handed)
    t.type("\r")
    at = _order_prompt(t, at)
    t.type(UP + "\r")
    at = t.expect(r"Refused: type two whole numbers[\s\S]*?Try again\.", after=at)
    at = _order_prompt(t, at)
    t.type(YANK + "\r")
    at = t.expect(r"Refused: type two whole numbers[\s\S]*?Try again\.", after=at)
    _order_prompt(t, at)
    seen = t.screen[handed:]
    for typed in ("23 15", "22 18", "19 21", "31 27"):
        assert typed not in seen, seen
    assert "FORCE +" not in seen and "Send this order" not in seen


def _at_bobs_press_enter(terminal: list[Terminal]) -> tuple[Terminal, int]:
    """A game of Ann and Bob whose Ann has sent her two orders: Bob's "Press Enter" is on the screen
    (the terminal, and where on its screen that prompt starts)."""
    t = Terminal("play", "--players", "4", "--names", "Ann,Bob", "--seed", "hotseat", "--no-save")
    terminal.append(t)
    at = t.expect(r"Ann: your orders are secret\. Press Enter when you are at the keyboard: ")
    t.type("\r")
    for _ in range(2):
        at = _order_prompt(t, at)
        t.type("10 9\r")
        at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
        t.type("\r")
    return t, t.expect(r"Bob: your orders are secret\. Press Enter when you are at the keyboard: ", after=at)


def test_keys_typed_late_at_a_hand_over_reach_no_prompt_of_the_next_person(terminal: list[Terminal]) -> None:
    """Player 1 sends the last order and goes on typing another once Player 2's "Press Enter" is on the
    screen: that line is not shown there and does not count as Player 2's Enter (refused, asked
    again). Then Enter and an order typed at once, before the order prompt appears: the order is
    dropped, so the order prompt starts empty (Enter gives an empty line, refused)."""
    t, handed = _at_bobs_press_enter(terminal)
    t.type("31 27\r")  # Ann, still typing
    at = t.expect(r"Refused: press Enter alone; what was typed is thrown away unseen\.\s*Bob: your orders are secret\. "
                  r"Press Enter when you are at the keyboard: ", after=handed)
    t.type("\r" + "22 18\r")  # Enter and an order in one go, before the order prompt is there
    at = _order_prompt(t, at)
    t.type("\r")
    at = t.expect(r"Refused: type two whole numbers[\s\S]*?Try again\.", after=at)
    _order_prompt(t, at)
    seen = t.screen[handed:]
    assert "31 27" not in seen and "22 18" not in seen and "FORCE +" not in seen, seen


def test_the_press_enter_prompt_shows_nothing_typed_after_ctrl_z_and_fg(terminal: list[Terminal]) -> None:
    """The game is stopped at Bob's "Press Enter" (Ctrl-Z), and the shell, taking the terminal back,
    turns its echo on; carried on (fg), the prompt turns the echo off again: keys typed there are
    still not shown."""
    t, handed = _at_bobs_press_enter(terminal)
    os.kill(t.process.pid, signal.SIGSTOP)  # what Ctrl-Z does under a shell's job control
    time.sleep(0.5)
    modes = termios.tcgetattr(t.master)  # the program's terminal (the pseudo-terminal's other end)
    modes[3] |= termios.ECHO | termios.ICANON  # as a shell leaves the terminal for its own prompt
    termios.tcsetattr(t.master, termios.TCSANOW, modes)
    os.kill(t.process.pid, signal.SIGCONT)  # fg
    deadline = time.monotonic() + 60  # until the program has its terminal hide what is typed again
    while termios.tcgetattr(t.master)[3] & termios.ECHO and time.monotonic() < deadline:
        time.sleep(0.05)
    t.type("31 27\r")
    t.expect(r"Refused: press Enter alone", after=handed)
    assert "31 27" not in t.screen[handed:], t.screen[handed:]


def _player_2_after_player_1_deleted(t: Terminal, deleted: str) -> int:
    """Player 1 sends two orders, deleting ``deleted`` with Ctrl-U before the second; where Player 2's
    first order prompt ends."""
    at = t.expect(r"Player 1: your orders are secret\. Press Enter when you are at the keyboard")
    t.type("\r")
    at = _order_prompt(t, at)
    t.type("23 15\r")
    at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("\r")
    at = _order_prompt(t, at)
    t.type(deleted + KILL_LINE + "22 18\r")
    at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("\r")
    at = t.expect(r"Player 2: your orders are secret\. Press Enter when you are at the keyboard", after=at)
    t.type("\r")
    return _order_prompt(t, at)


def test_no_init_file_and_no_vi_mode_can_paste_back_deleted_text(terminal: list[Terminal], tmp_path: Path) -> None:
    """Readline keeps deleted text from one prompt to the next. An inputrc that sets vi mode and binds
    Ctrl-T to paste (yank), given as INPUTRC and as ~/.inputrc, is not read; and Esc Ctrl-J, which
    switches to vi mode (where Esc p pastes), does nothing. At Player 2's prompt each way gives an empty
    line, refused, and never what Player 1 deleted."""
    inputrc = tmp_path / "inputrc"
    inputrc.write_text('set editing-mode vi\n"\\C-t": yank\n$if mode=vi\n"\\C-t": yank\n$endif\n')
    (tmp_path / ".inputrc").write_text(inputrc.read_text())
    t = Terminal("play", "--players", "4", "--names", "Player 1,Player 2", "--seed", "hotseat", "--no-save",
                 env={"INPUTRC": str(inputrc), "HOME": str(tmp_path)})
    terminal.append(t)
    at = handed = _player_2_after_player_1_deleted(t, "19 21")
    for keys in ("\x14", ESC + "p", ESC + "\x0a" + ESC + "p", ESC + "\r" + ESC + "p"):
        # Ctrl-T; Esc p (vi's paste, in vi mode); Esc Ctrl-J or Esc Enter (vi mode), then Esc p.
        t.type(keys + "\r")
        if ESC + "p" in keys:
            t.type("\r")  # in emacs mode Esc p searches the (empty) history: Enter gives the line back
        answered = t.expect(r"Refused: type two whole numbers[\s\S]*?Try again\.|Send this order\?", after=at)
        assert "19 21" not in t.screen[handed:answered], f"{keys!r} pasted what Player 1 deleted"
        at = _order_prompt(t, answered)
    assert "19 21" not in t.screen[handed:] and "FORCE +" not in t.screen[handed:]


# Reads lines with libedit (the library macOS's Python edits with) through its readline interface,
# set up as sevens play sets it up under libedit: no init file, lineedit's bindings, no history.
_LIBEDIT_LINES = """
import ctypes, ctypes.util, sys
from sevens.cli import lineedit
edit = ctypes.CDLL(ctypes.util.find_library("edit"))
edit.readline.restype = ctypes.c_char_p
with lineedit.no_init_file():
    edit.rl_initialize()
for binding in lineedit.bindings("editline"):
    edit.rl_parse_and_bind(binding.encode())
for n in range(int(sys.argv[1])):
    line = edit.readline(f"line {n}> ".encode())
    edit.clear_history()
    print(f"got {n}: [{'EOF' if line is None else line.decode()}]", flush=True)
"""


@pytest.mark.skipif(ctypes.util.find_library("edit") is None, reason="libedit is not installed")
def test_under_libedit_nothing_pastes_back_deleted_text(terminal: list[Terminal], tmp_path: Path) -> None:
    """Under libedit, GNU readline's bindings do nothing. The line deleted with Ctrl-U on one prompt
    comes back at none of the next: not with Ctrl-Y (em-yank); not with Esc x, which would read the
    command 'bind ^T em-yank' typed after it (the line is then that text); not with Ctrl-T, which an
    editrc (EDITRC, ~/.editrc) binds to paste; not with Esc p, which pastes in the vi mode it sets."""
    editrc = tmp_path / "editrc"
    editrc.write_text("bind -v\nbind ^T em-yank\n")
    (tmp_path / ".editrc").write_text(editrc.read_text())
    t = Terminal("5", code=_LIBEDIT_LINES, env={"EDITRC": str(editrc), "HOME": str(tmp_path)})
    terminal.append(t)
    at = t.expect(r"line 0> ")
    t.type("19 21" + KILL_LINE + "x\r")
    at = t.expect(r"got 0: \[x\]", after=at)
    for n, keys in enumerate((YANK, ESC + "xbind ^T em-yank\r", "\x14", ESC + "p"), start=1):
        at = t.expect(rf"line {n}> ", after=at)
        t.type(keys if keys.endswith("\r") else keys + "\r")
        at = t.expect(rf"got {n}: \[([^\]]*)\]", after=at)
    said = re.findall(r"got \d: \[([^\]]*)\]", t.screen)
    assert said == ["x", "", "bind ^T em-yank", "", ""], said


def test_people_at_a_terminal_are_asked_their_names(terminal: list[Terminal]) -> None:
    """Two people at a terminal and no --names: each is asked for a name (one already taken is
    refused and asked again), and the game calls them by it."""
    t = Terminal("play", "--players", "4", "--humans", "2", "--seed", "names")
    terminal.append(t)
    at = t.expect(r"Who is playing\? Type each person's name")
    at = t.expect(r"Name of Player 1 \(Player 1\): ", after=at)
    t.type("Ann\r")
    at = t.expect(r"Name of Player 2 \(Player 2\): ", after=at)
    t.type("ANN\r")
    at = t.expect(r"Refused: 'ANN' is 'Ann' again \(names are compared ignoring case and spacing\); give each person a "
                  r"name of their own\.\s+Name of Player 2 \(Player 2\): ", after=at)
    t.type("Bob\r")
    at = t.expect(r"The draw", after=at)
    at = t.expect(r"\(Bob\)", after=at)
    t.expect(r"Ann: your orders are secret\. Press Enter when you are at the keyboard", after=at)


def test_a_name_the_next_person_gets_by_default_is_refused_at_the_prompt(terminal: list[Terminal]) -> None:
    """Issue: the first person could type "Player 2"; the second, pressing Enter for the "Player 2"
    the prompt offered, was then refused as a name given twice, again and again, and typing
    "player  1" made a second Player 1 in all but spacing. Each is refused as it is typed, saying
    why, and Enter then gives each person the name the prompt shows."""
    t = Terminal("play", "--players", "4", "--humans", "2", "--seed", "names", "--no-save")
    terminal.append(t)
    at = t.expect(r"Name of Player 1 \(Player 1\): ")
    t.type("Player 2\r")
    at = t.expect(r"Refused: 'Player 2' is the name the game gives person 2 when none is given, and this is person 1; "
                  r"choose another name\.\s+Name of Player 1 \(Player 1\): ", after=at)
    t.type("\r")
    at = t.expect(r"Name of Player 2 \(Player 2\): ", after=at)
    t.type("player  1\r")
    at = t.expect(r"Refused: 'player  1' is 'Player 1' again \(names are compared ignoring case and spacing\); give each "
                  r"person a name of\s+their own\.\s+Name of Player 2 \(Player 2\): ", after=at)
    t.type("\r")
    at = t.expect(r"The draw", after=at)
    t.expect(r"Player 1: your orders are secret\. Press Enter when you are at the keyboard", after=at)
    assert "(Player 1)" in t.screen[at:] and "(Player 2)" in t.screen[at:]


def test_ctrl_c_leaves_the_game_kept_and_resume_carries_it_on(terminal: list[Terminal], tmp_path: Path) -> None:
    """Ctrl-C at an order prompt of turn 2: the game says where it is kept and the exact command to
    carry it on, exits 130; that command, in a new terminal, shows where the game stopped and asks
    for turn 2's orders again, the order typed before the Ctrl-C not kept."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept))
    terminal.append(t)
    at = _into_turn_2(t)
    # What Ctrl-C makes a terminal do (this one is not the program's controlling terminal, so the key would not).
    os.killpg(t.process.pid, signal.SIGINT)
    t.expect(r"carry it on with: sevens play --resume " + re.escape(str(kept)), after=at)
    assert t.process.wait(timeout=30) == 130
    assert f"it is kept in {kept} as it stood after turn 1" in " ".join(t.screen.split())
    u = Terminal("play", "--resume", str(kept))
    terminal.append(u)
    at = u.expect(r"carried on after turn 1")
    at = u.expect(r"Where the game stopped: the results of turn 1", after=at)
    at = u.expect(r"Turn 2: group", after=at)
    _order_prompt(u, at)
    assert "31 FORCE" not in u.screen


def test_ctrl_c_in_a_game_played_with_no_save_says_it_is_lost_and_how_to_keep_the_next(
    terminal: list[Terminal], tmp_path: Path
) -> None:
    """Ctrl-C typed at an order prompt of turn 2 of a game played with --no-save said only "the game
    was interrupted before the end": not that nothing of it was kept, so there is nothing to carry
    on, nor how to keep the next game. It says both now, and nothing is written anywhere."""
    state = tmp_path / "state"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--no-save", controlling=True, columns=200,
                 env={"XDG_STATE_HOME": str(state)})
    terminal.append(t)
    at = _into_turn_2(t)
    t.type("\x03")
    t.expect(r"give --save FILE\)", after=at)
    assert t.process.wait(timeout=30) == 130
    said = " ".join(t.screen[at:].split())
    assert ("error: the game was interrupted before the end; with --no-save it was kept nowhere, so it is lost and "
            "there is nothing to carry on (to keep the next game, leave out --no-save, or give --save FILE)") in said
    assert "--resume" not in said and "Traceback" not in said
    assert not state.exists() and list(tmp_path.iterdir()) == []


def _into_turn_2(t: Terminal) -> int:
    """Send turn 1's two orders and one of turn 2's; where the prompt for turn 2's second order ends."""
    at = 0
    for _ in range(2):
        at = _order_prompt(t, at)
        t.type("10 9\r")
        at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
        t.type("\r")
    at = t.expect(r"Turn 2: group", after=at)
    at = _order_prompt(t, at)
    t.type("31 3\r")
    at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    t.type("\r")
    return _order_prompt(t, at)


def _kept_after_turn_1(kept: Path) -> None:
    """The file holds turn 1 and nothing is left beside it: no temporary file, no lock."""
    assert sorted(p.name for p in kept.parent.iterdir()) == [kept.name]
    assert len(json.loads(kept.read_text())["game"]["turns"]) == 1


def _carries_on_in_turn_2(terminal: list[Terminal], kept: Path) -> None:
    u = Terminal("play", "--resume", str(kept))
    terminal.append(u)
    at = u.expect(r"carried on after turn 1")
    at = u.expect(r"Turn 2: group", after=at)
    _order_prompt(u, at)
    assert "31 FORCE" not in u.screen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["kill", "kill-HUP"])
def test_kill_ends_the_game_as_ctrl_c_does(terminal: list[Terminal], tmp_path: Path, signum: int) -> None:
    """kill (SIGTERM), or SIGHUP sent while the terminal is still there, at an order prompt of turn 2:
    the game says where it is kept and how to carry it on, exits with 128 + the signal's number, and
    leaves the file holding turn 1 with nothing beside it; the command carries it on."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept))
    terminal.append(t)
    at = _into_turn_2(t)
    os.kill(t.process.pid, signum)
    t.expect(r"carry it on with: sevens play --resume " + re.escape(str(kept)), after=at)
    assert t.process.wait(timeout=30) == 128 + signum
    assert f"it is kept in {kept} as it stood after turn 1" in " ".join(t.screen.split())
    _kept_after_turn_1(kept)
    _carries_on_in_turn_2(terminal, kept)


def test_ctrl_backslash_ends_the_game_as_ctrl_c_does(terminal: list[Terminal], tmp_path: Path) -> None:
    """Ctrl-\\ (SIGQUIT, the key typed at the program's controlling terminal) at an order prompt of
    turn 2 ended the game with a core dump, no word of the saved game, and could do so in the middle
    of writing it; now it ends as Ctrl-C does: where the game is kept, the command that carries it on,
    exit status 131, the file holding turn 1 with nothing beside it."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept), controlling=True)
    terminal.append(t)
    at = _into_turn_2(t)
    t.type("\x1c")
    t.expect(r"carry it on with: sevens play --resume " + re.escape(str(kept)), after=at)
    assert t.process.wait(timeout=30) == 128 + signal.SIGQUIT
    assert f"it is kept in {kept} as it stood after turn 1" in " ".join(t.screen.split())
    assert "Traceback" not in t.screen
    _kept_after_turn_1(kept)
    _carries_on_in_turn_2(terminal, kept)


def test_ctrl_d_at_a_prompt_says_input_ended_and_keeps_the_game(terminal: list[Terminal], tmp_path: Path) -> None:
    """Ctrl-D at an empty order prompt of turn 2 was called an interruption; it is said as what it is
    (standard input ended, by Ctrl-D), with where the game is kept and the exact command that carries
    it on, exit status 1; the file holds turn 1 with nothing beside it, and the command carries it on."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept), columns=200)
    terminal.append(t)
    at = _into_turn_2(t)
    t.type("\x04")
    t.expect(r"carry it on with: sevens play --resume " + re.escape(str(kept)) + r"\n", after=at)
    assert t.process.wait(timeout=30) == 1
    assert t.screen[at:].strip() == (
        f"error: standard input ended (Ctrl-D) before the game did; the game is kept in {kept} as it stood after "
        f"turn 1 (orders typed for turn 2 were not kept and are typed again): carry it on with: sevens play --resume {kept}"
    )
    _kept_after_turn_1(kept)
    _carries_on_in_turn_2(terminal, kept)


def test_ctrl_d_at_the_names_says_nothing_was_kept(terminal: list[Terminal], tmp_path: Path) -> None:
    """Ctrl-D when asked a name, before the game is first kept: input ended and there is nothing to carry on."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--humans", "2", "--save", str(kept), columns=200)
    terminal.append(t)
    at = t.expect(r"Name of Player 1 \(Player 1\): ")
    t.type("\x04")
    t.expect(r"run the command again\n", after=at)
    assert t.process.wait(timeout=30) == 1
    assert t.screen[at:].strip() == (
        "error: standard input ended (Ctrl-D) before the game was first kept, so nothing of it is kept: run the command again"
    )
    assert not kept.exists()


def test_closing_the_terminal_keeps_the_game(terminal: list[Terminal], tmp_path: Path) -> None:
    """The terminal window is closed at an order prompt of turn 2 (its controlling terminal hangs up):
    the game ends as for Ctrl-C, with nothing left to print to, exit status 129, the file holding
    turn 1 and nothing beside it; a new terminal carries it on."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept), controlling=True)
    terminal.append(t)
    _into_turn_2(t)
    assert t.hang_up() == 128 + signal.SIGHUP
    _kept_after_turn_1(kept)
    _carries_on_in_turn_2(terminal, kept)


def test_a_game_started_with_nohup_goes_on_after_a_hangup(terminal: list[Terminal], tmp_path: Path) -> None:
    """Started as nohup starts it (SIGHUP ignored), the game is not stopped by SIGHUP: the order
    typed after it is taken as usual."""
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(tmp_path / "kept.json"), nohup=True)
    terminal.append(t)
    at = _order_prompt(t, 0)
    os.kill(t.process.pid, signal.SIGHUP)
    t.type("10 9\r")
    t.expect(r"10 FORCE \+ 9 FLAIR: expected[\s\S]*Send this order\? \[y/n\] \(y\): ", after=at)
    assert t.process.poll() is None


# Runs sevens with a kill (SIGTERM) arriving in the middle of keeping turn 1: right after the file's
# data is on disk and before it takes the saved game's name (the second fsync: the first is the draw's).
_KILLED_WHILE_WRITING = """
import os, runpy, signal, sys
fsync, calls = os.fsync, []
def fsync_then_kill(fd):
    fsync(fd)
    calls.append(fd)
    if len(calls) == 2:
        os.kill(os.getpid(), signal.SIGTERM)
os.fsync = fsync_then_kill
sys.argv[0] = "sevens"
runpy.run_module("sevens", run_name="__main__")
"""


def test_kill_while_the_game_is_being_written_waits_for_the_write(terminal: list[Terminal], tmp_path: Path) -> None:
    """A kill that comes while turn 1 is being written: the write ends first, no temporary file is
    left, and the message says the game stood after turn 1, as the file does."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "ctrl-c", "--save", str(kept), code=_KILLED_WHILE_WRITING)
    terminal.append(t)
    at = 0
    for _ in range(2):
        at = _order_prompt(t, at)
        t.type("10 9\r")
        at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
        t.type("\r")
    t.expect(r"carry it on with: sevens play --resume " + re.escape(str(kept)), after=at)
    assert t.process.wait(timeout=30) == 128 + signal.SIGTERM
    assert f"it is kept in {kept} as it stood after turn 1" in " ".join(t.screen.split())
    _kept_after_turn_1(kept)



# Runs sevens with a kill (SIGTERM) arriving as the game record is written at the end (with --auto
# and no --save, the record's is the only fsync; with --save, it follows the draw's and five turns').
_KILLED_WHILE_RECORDING = _KILLED_WHILE_WRITING.replace("len(calls) == 2", "len(calls) == 1")


@pytest.mark.parametrize("save", [False, True], ids=["bots-only", "saved"])
def test_kill_as_the_record_is_written_leaves_the_record_and_says_so(tmp_path: Path, save: bool) -> None:
    """A kill that came while the finished game's record was written waited for the write, then
    stopped the game saying the record "was not written" (status 143), though it was there; with
    --save, the saved game was removed too. The game is over by then: the record is written, the
    saved game removed and the game ends as it would have (status 0), whatever signal comes."""
    record, kept = tmp_path / "game-record.json", tmp_path / "kept.json"
    code = _KILLED_WHILE_RECORDING.replace("len(calls) == 1", "len(calls) == 7") if save else _KILLED_WHILE_RECORDING
    args = ["play", "--auto", "--seed", "recorded", "--record", str(record), *(["--save", str(kept)] if save else [])]
    run = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert "was not written" not in run.stderr
    assert f"Game record written to {record}" in " ".join(run.stdout.split())
    assert json.loads(record.read_text())["seed"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [record.name]  # no saved game, no lock, no temporary file


def test_a_game_open_in_one_terminal_is_refused_in_another(terminal: list[Terminal], tmp_path: Path) -> None:
    """While a game is played from a file, carrying it on in a second terminal is refused, naming the
    file and the process that has it, and so is a new game with --save FILE --overwrite; the file is
    left as it was. Once that process is killed (kill -9, no chance to tidy up) the game carries on."""
    kept = tmp_path / "kept.json"
    t = Terminal("play", "--players", "4", "--seed", "locked", "--save", str(kept))
    terminal.append(t)
    _order_prompt(t, 0)
    before = kept.read_bytes()
    u = Terminal("play", "--resume", str(kept))
    terminal.append(u)
    u.expect(
        rf"error: cannot carry on the game in {re.escape(str(kept))}: it is open in another sevens play \(process "
        rf"{t.process.pid}\),[^\n]*or with kill {t.process.pid} \(it stays kept\) and run this command again"
    )
    assert u.process.wait(timeout=30) == 2
    v = Terminal("play", "--players", "4", "--save", str(kept), "--overwrite")
    terminal.append(v)
    v.expect(rf"error: --save {re.escape(str(kept))} holds a game being played: it is open in another sevens play "
             rf"\(process {t.process.pid}\)")
    assert v.process.wait(timeout=30) == 2
    assert kept.read_bytes() == before
    os.killpg(t.process.pid, signal.SIGKILL)
    t.process.wait(timeout=30)
    w = Terminal("play", "--resume", str(kept))
    terminal.append(w)
    at = w.expect(r"carried on after the draw")
    _order_prompt(w, at)


def test_a_40_column_terminal_shows_the_fixtures_and_the_odds_whole(terminal: list[Terminal]) -> None:
    """In a real terminal of 40 columns (a phone's SSH client) the fixtures cut 'Argentina' to
    'Arge…' and the odds of an order parted 'draw' from its figure. Now the away team is listed
    under the home team, and each chance stays beside its name."""
    t = Terminal("play", "--players", "4", "--seed", "a1", columns=40)
    terminal.append(t)
    at = t.expect(r"Order for [A-Za-z ]+ as FORCE\s+FLAIR\s+\(\?\s+for\s+help\):\s")
    fixtures = t.screen[t.screen.index("Turn 1"):at]
    assert "…" not in fixtures and "│ v " in fixtures, fixtures
    t.type("10 9\r")
    end = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
    odds = t.screen[at:end]
    assert re.search(r"win \d+\.\d%,\s+draw \d+\.\d%,\s+loss \d+\.\d%", odds), odds  # may break between chances
    assert max(len(line) for line in odds.split("\n")) <= 40, odds


def test_a_dumb_terminal_of_40_columns_is_laid_out_for_40(terminal: list[Terminal]) -> None:
    """TERM=dumb (Emacs's shell, for one): rich took every such terminal for 80 columns, so at 40
    the draw, the fixtures and the turn's heading were 80 wide and the terminal broke each line in
    two. Now each is laid out for the terminal's width, and no control code is written."""
    t = Terminal("play", "--players", "4", "--seed", "a1", "--no-save", columns=40, env={"TERM": "dumb"})
    terminal.append(t)
    at = t.expect(r"Order for [A-Za-z ]+ as FORCE\s+FLAIR\s+\(\?\s+for\s+help\):\s")
    shown = t.screen[:at]
    assert "Turn 1" in shown and "\x1b" not in t.raw.decode()
    wide = [line for line in shown.split("\n") if len(line) > 40 and not re.fullmatch(r"[0-9a-f]{64}", line)]
    assert not wide, shown  # the seed's digits alone are kept whole, to be copied


def test_a_40_column_terminal_says_how_each_side_scored_and_lists_a_teams_matches(terminal: list[Terminal]) -> None:
    """In a real terminal of 40 columns: under the report of each match, each side's scoring line
    (its name first, never split, each line within 40 columns); then at turn 2, m lists the team's
    and its opponent's matches so far, within 40 columns too, and the order is asked again."""
    t = Terminal("play", "--players", "4", "--seed", "a1", "--no-save", columns=40)
    terminal.append(t)
    at = t.expect(r"Order for [A-Za-z ]+ as FORCE\s+FLAIR\s+\(\?\s+for\s+help\):\s")
    for _ in range(2):
        t.type("10 9\r")
        at = t.expect(r"Send this order\? \[y/n\] \(y\): ", after=at)
        t.type("y\r")
        at = t.expect(r"Order for [A-Za-z ]+ as FORCE\s+FLAIR\s+\(\?\s+for\s+help\):\s", after=at)
    turn_1 = t.screen[t.screen.index("t1-m1 "):t.screen.index("Turn 2")]
    scoring = re.findall(r"^  (\S.*?): (?:FORCE|FLAIR) \d+:", turn_1, re.M)
    assert len(scoring) == 8, turn_1  # both sides of the 4 matches, each starting with its whole name
    assert max(len(line) for line in turn_1.split("\n")) <= 40, turn_1
    t.type("m\r")
    end = t.expect(r"Order for [A-Za-z ]+ as FORCE\s+FLAIR\s+\(\?\s+for\s+help\):\s", after=at)
    story = t.screen[at:end]
    assert len(re.findall(r"Turn 1, group: v ", story)) == 2 and len(re.findall(r"Turn 2, group: v ", story)) == 2, story
    assert re.search(r"SCRUM \d+->\d+", story) and max(len(line) for line in story.split("\n")) <= 40, story
