"""Input files the commands read (``table``, ``verify``, ``import``, ``play --resume``): read within a
bound, parsed as JSON with a reason a person can act on, and recognised when they are another
sevens command's file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# typer carries its own copy of click: the context of the command running is there, under no public
# name (tests/cli/test_library_hooks.py fails first if it moves).
from typer._click.globals import get_current_context

from sevens.cli.errors import fail
from sevens.tournament.quoting import escaped, shell_quoted
from sevens.tournament.record import DuplicateKeyError, RecordError, loads

__all__ = ["MAX_INPUT_BYTES", "STDIN", "NotJson", "other_kind", "parse_json", "read_input", "shown"]

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The most any input file is read: a whole game's record is some tens of kilobytes, and a device
such as /dev/zero, given by mistake, would otherwise be read until memory runs out."""

# The "format" field of each kind of file sevens writes, what it is, and the command that takes it.
_KINDS = {
    "sevens-game-record": ("a Sevens game record", "check it with: sevens verify {path}"),
    "sevens-saved-game": ("a game in progress kept by sevens play", "carry it on with: sevens play --resume {path}"),
    "sevens-backup": ("a backup written by sevens export", "restore it with: sevens import {path}"),
}


STDIN = "-"
"""The path that names standard input, for the commands that read a file a user would pipe in."""


def shown(path: Path | str) -> str:
    """How a message names an input: its path, escaped (a newline in it stays ``\\n``, where a
    refusal's line would show a space and name another file), or "standard input" for ``-``.

    >>> shown("a\\nb.json"), shown("-")
    ('a\\\\nb.json', 'standard input')
    """
    return "standard input" if str(path) == STDIN else escaped(path)


def _read_stdin(what: str, then: str) -> bytes:
    """Standard input, read whole within :data:`MAX_INPUT_BYTES`; a terminal is refused rather
    than waited on, as nobody types a JSON file."""
    stream = sys.stdin
    if stream is None or stream.isatty():
        ctx = get_current_context(silent=True)
        command = ctx.command_path if ctx is not None else "sevens COMMAND"
        fail(f"- reads {what} from standard input, which is a terminal here; pipe it in "
             f"(... | {command} -) or give its path")
    try:
        raw = stream.buffer.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        fail(f"cannot read standard input: {exc.strerror or exc}; {then}")
    if len(raw) > MAX_INPUT_BYTES:
        fail(f"standard input holds more than {MAX_INPUT_BYTES // (1024 * 1024)} MB, far more than {what} holds; {then}")
    if not raw.strip():
        fail(f"standard input is empty: nothing was piped in; pipe in {what}, or give its path")
    return raw


def read_input(
    path: Path, *, what: str, named: str | None = None, advice: str | None = None, dash_is_stdin: bool = False
) -> bytes:
    """The bytes of the input file ``path``, or a one-line error naming what was wrong with it:
    missing, a folder, unreadable, or larger than :data:`MAX_INPUT_BYTES`. ``what`` names the
    file a command wants ("a game record's JSON file"); ``named`` is how the error names the file
    (default: its path; "--resume FILE", say); ``advice`` what to do instead (default: give the
    path of ``what``)."""
    name = escaped(path) if named is None else named
    then = f"give the path of {what}" if advice is None else advice
    if dash_is_stdin and str(path) == STDIN:
        return _read_stdin(what, then)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        fail(f"no such file: {name}; {then}")
    except IsADirectoryError:
        fail(f"{name} is a folder; {then}")
    except OSError as exc:
        fail(f"cannot read {name}: {exc.strerror or exc}; {then}")
    if len(raw) > MAX_INPUT_BYTES:
        fail(f"{name} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB, far more than {what} holds; {then}")
    return raw


class NotJson(ValueError):
    """Text that is not JSON, broken at ``line`` and ``column``: a command that knows what its file
    should hold can say it in its own words, and keep the place only where it helps."""

    def __init__(self, why: str, line: int, column: int) -> None:
        super().__init__(f"the file is not valid JSON: {why} (line {line}, column {column})")
        self.why, self.line, self.column = why, line, column


def parse_json(raw: bytes, *, keys_once: bool = False) -> Any:
    """The JSON value in ``raw``; with ``keys_once``, one that names a key twice in an object is refused.

    Raises:
        ValueError: why it is not JSON, in words that say what to do: an empty file, one that
            ends in the middle (cut short by an interrupted copy or download), or where it goes wrong;
            with ``keys_once``, a key named twice in one object and where.

    >>> parse_json(b'{"matches": [{"home": "a", "home": "b"}]}', keys_once=True)
    Traceback (most recent call last):
    ...
    ValueError: it names the key "home" twice in one object (in matches[0]): JSON readers differ on which of the two counts, so remove one of them

    >>> parse_json(b'{"teams": [1, 2]')
    Traceback (most recent call last):
    ...
    ValueError: the file ends in the middle of its JSON (line 1): it was cut short, perhaps by an interrupted copy; use a whole copy
    >>> parse_json(b'{"teams": [1 2]}')
    Traceback (most recent call last):
    ...
    sevens.cli.inputs.NotJson: the file is not valid JSON: Expecting ',' delimiter (line 1, column 14)
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(_not_utf8(raw, exc)) from None
    if not text.strip():
        raise ValueError("the file is empty; is it the right file, and was it saved?")
    try:
        value = json.loads(text)
    except RecursionError:  # json gives up on deep nesting this way, not with a ValueError
        raise ValueError("its JSON is nested too deeply") from None
    except json.JSONDecodeError as exc:
        # Cut short: JSON stops where the text does, or in a string that never closes.
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise ValueError(
                f"the file ends in the middle of its JSON (line {exc.lineno}): it was cut short, perhaps by an "
                "interrupted copy; use a whole copy"
            ) from None
        raise NotJson(exc.msg, exc.lineno, exc.colno) from None
    except ValueError:  # Python refuses to read an integer this long, and says to raise its limit
        raise ValueError(
            f"the file holds a number of more than {sys.get_int_max_str_digits()} digits, which no count in Sevens "
            "comes near; is it the right file?"
        ) from None
    if keys_once:
        _refuse_keys_twice(text)
    return value


def _not_utf8(raw: bytes, exc: UnicodeDecodeError) -> str:
    """Why ``raw`` is refused, and where: a file sent on by e-mail or saved again on Windows may be
    UTF-16 (Notepad's "Unicode", PowerShell 5's ``>``) or Latin-1, and "not text" alone left the
    reader to guess which byte, or what to do.

    >>> def why(raw: bytes) -> str:
    ...     try:
    ...         raw.decode("utf-8")
    ...     except UnicodeDecodeError as exc:
    ...         return _not_utf8(raw, exc)
    ...     return "UTF-8"
    >>> why("{}".encode("utf-16"))
    'the file is UTF-16 text, not UTF-8, so it is not read as JSON: save it again as UTF-8 (in PowerShell 5, Out-File -Encoding utf8 rather than >)'
    >>> why(b'{"name": "S' + "ü".encode("latin-1") + b'd"}')
    'the file is not text (not UTF-8), so it is not JSON: byte 0xFC on line 1 is not UTF-8; is it the right file? A file saved in another encoding (Latin-1, Windows-1252) must be saved again as UTF-8'
    """
    for bom in (b"\xff\xfe", b"\xfe\xff"):
        if raw.startswith(bom) and len(raw) % 2 == 0:
            try:
                raw.decode("utf-16")
            except UnicodeDecodeError:
                break
            return (
                "the file is UTF-16 text, not UTF-8, so it is not read as JSON: save it again as UTF-8 "
                "(in PowerShell 5, Out-File -Encoding utf8 rather than >)"
            )
    line = raw.count(b"\n", 0, exc.start) + 1
    return (
        f"the file is not text (not UTF-8), so it is not JSON: byte 0x{raw[exc.start]:02X} on line {line} is not "
        "UTF-8; is it the right file? A file saved in another encoding (Latin-1, Windows-1252) must be saved "
        "again as UTF-8"
    )


def _refuse_keys_twice(text: str) -> None:
    # Read by hand or kept by sevens, a file naming a key twice says two things: json keeps the
    # last one silently (a line's second "tries" typed over the first), another reader the first.
    try:
        loads(text)
    except DuplicateKeyError as exc:
        raise ValueError(
            f"it names the key {exc.shown_key} twice in one object ({exc.where}): JSON readers differ on which of the "
            "two counts, so remove one of them"
        ) from None
    except RecordError:  # not a record, which is no matter here: only the keys are looked at
        pass


def other_kind(data: Any, path: Path, *, wanted: str, expected: str) -> str | None:
    """If ``data`` is a file sevens writes for another command than the one that wants ``wanted``
    (a format name, or "table" for a group's hand-entered results), why it is refused and which
    command takes it; else None. ``expected`` names what the command wanted, for the message.

    >>> print(other_kind({"format": "sevens-game-record"}, Path("g.json"), wanted="sevens-backup", expected="a backup"))
    g.json is a Sevens game record, not a backup; check it with: sevens verify g.json
    >>> print(other_kind({"teams": [], "matches": []}, Path("r.json"), wanted="sevens-game-record", expected="a record"))
    r.json is a group's results for sevens table, not a record; draw its table with: sevens table r.json
    >>> other_kind({"format": "sevens-backup"}, Path("b.json"), wanted="sevens-backup", expected="a backup") is None
    True
    """
    if not isinstance(data, dict):
        return None
    form = data.get("format")
    if isinstance(form, str) and form in _KINDS and form != wanted:
        name, advice = _KINDS[form]
    elif wanted != "table" and form is None and "teams" in data and "matches" in data:
        name, advice = "a group's results for sevens table", "draw its table with: sevens table {path}"
    else:
        return None
    # Quoted as a shell needs it (a name with a space), so the command can be pasted as it is.
    return f"{shown(path)} is {name}, not {expected}; {advice.format(path=shell_quoted(str(path)))}"
