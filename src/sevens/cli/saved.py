"""A ``sevens play`` game in progress, kept in a file after every resolved turn so that an
interrupted game can be carried on with ``sevens play --resume FILE``.

The file is the game's canonical record (:func:`sevens.tournament.record.to_record`) of the turns
resolved so far, seed still hidden, wrapped with what only the terminal knows: the secret seed
(needed for the dice and the bots of the turns to come, R14), how many of the players type their
orders here, and where the record goes at the end. Nothing of a turn that was not resolved is in
it: orders typed in it stay secret (R13) and are typed again.

Reading it back replays the record with every die thrown again from the kept seed and every
bot's order played again (:func:`sevens.tournament.record.replay_record`), so an edited or damaged
file is refused, saying where, rather than carried on as a different game.
"""

from __future__ import annotations

import json
import os
import time
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sevens.bots import BotOrderCheck, Strategy, get_strategy, named_bot, shown_name
from sevens.cli.errors import hidden_character
from sevens.cli.inputs import NotJson, parse_json
from sevens.rules import parse_seed, seed_commitment
from sevens.tournament.game import Game
from sevens.tournament.names import refused_character
from sevens.tournament.quoting import cut_for_message, quoted, shell_quoted
from sevens.tournament.record import FORMAT as RECORD_FORMAT
from sevens.tournament.record import DuplicateKeyError, RecordError, dumps, loads, replay_record, to_record
from sevens.tournament.setup import Player, PlayerId, TeamId

__all__ = [
    "FORMAT",
    "VERSION",
    "SavedGame",
    "SavedGameError",
    "bot_teams",
    "bots_given",
    "default_folder",
    "default_names",
    "looks_saved",
    "read_saved",
    "saved_start",
    "saved_text",
]

FORMAT = "sevens-saved-game"
VERSION = 1

_ABOUT = (
    "A game of Sevens in progress, kept by `sevens play` after every resolved turn. It holds the game's "
    "SECRET seed: whoever reads it can work out the dice and the bots' orders of the turns to come, so keep "
    "it to yourself until the game is over. Carry the game on with: sevens play --resume THIS-FILE"
)


class SavedGameError(ValueError):
    """A saved game that cannot be carried on; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """Everything needed to carry on a ``sevens play`` game.

    Attributes:
        game: The game after its last resolved turn.
        seed: The game's secret seed (32 bytes); never printed.
        humans: How many players, the first ones of the record, type their orders here.
        record: Where the game record is written at the end, if anywhere.
        overwrite: Whether that record may replace a file already there.
    """

    game: Game
    seed: bytes = field(repr=False)  # a SavedGame printed in a log or an error message shows no seed (R14)
    humans: int
    record: Path | None = None
    overwrite: bool = False

    @property
    def people(self) -> tuple[Player, ...]:
        """Every player: first those who type here, then the bots."""
        return self.game.setup.players

    @property
    def human_ids(self) -> set[PlayerId]:
        """The players who type their orders here."""
        return {p.id for p in self.people[: self.humans]}


def bot_teams(game: Game, humans: set[PlayerId]) -> list[TeamId]:
    """The teams no person types for, in the order of the draw: the bot players' and house teams."""
    return [t.id for t in game.setup.teams if t.manager not in humans]


def bots_given(game: Game, humans: set[PlayerId]) -> tuple[str, ...]:
    """The shortest ``--bots`` list that gives every bot-played team its bot again (``--bots``
    gives the names to those teams in turn)."""
    names = [game.setup.autopilot(t) for t in bot_teams(game, humans)]
    for k in range(1, len(names) + 1):
        if all(name == names[i % k] for i, name in enumerate(names)):
            return tuple(names[:k])
    return ()


def saved_start() -> bytes:
    """What every saved game's text begins with (:func:`saved_text`), as written to its file: how a
    temporary file left by a killed write of one is told from a user's file (see
    :func:`sevens.cli.files.remove_leftovers`).

    >>> saved_start()
    b'{\\n  "format": "sevens-saved-game",'
    """
    # Its first two lines, which dumps writes alike whatever follows the format.
    return "\n".join(dumps({"format": FORMAT, "version": VERSION}).split("\n")[:2]).encode()


def saved_text(saved: SavedGame) -> str:
    """The file's text: canonical JSON, the record of the game so far last."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "about": _ABOUT,
        "seed": saved.seed.hex(),
        "humans": saved.humans,
        # Where the record was asked for, whatever folder the game is carried on from.
        "record_file": None if saved.record is None else str(saved.record.absolute()),
        "overwrite": saved.overwrite,
        "game": to_record(saved.game),
    }
    return dumps(document)


def default_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """Where games are kept when no ``--save`` is given: ``$XDG_STATE_HOME/sevens``, or
    ``~/.local/state/sevens`` (the XDG base directory specification's place for state that
    should outlive a restart but is not worth a backup).

    >>> default_folder({"XDG_STATE_HOME": "/var/tmp/state", "HOME": "/home/ann"})
    PosixPath('/var/tmp/state/sevens')
    >>> default_folder({"XDG_STATE_HOME": "relative", "HOME": "/home/ann"})
    PosixPath('/home/ann/.local/state/sevens')
    """
    state = environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):  # the specification says to ignore a relative path
        home = environ.get("HOME") or str(Path.home())
        state = os.path.join(home, ".local", "state")
    return Path(state) / "sevens"


def default_names(now: float | None = None) -> list[str]:
    """File names to try in :func:`default_folder`, in turn: the local date and time the game
    started, then the same with -2, -3, ... should two games start in the same second.

    >>> names = default_names(0)
    >>> len(names), names[0].startswith("game-19"), names[1].endswith("-2.json")
    (100, True, True)
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return [f"game-{stamp}.json"] + [f"game-{stamp}-{i}.json" for i in range(2, 101)]


def looks_saved(path: Path) -> bool:
    """Whether ``path`` starts like a saved game (to point at ``--resume`` before refusing it).
    Only a file is read: opening a named pipe would wait for a writer that may never come."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(200)
    except OSError:
        return False
    return f'"format": "{FORMAT}"'.encode() in head


def _field(data: dict[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in data:
        raise SavedGameError(f"the field {key!r} is missing: it should hold {what}")
    value = data[key]
    if type(value) is not kind:
        raise SavedGameError(f"the field {key!r} should hold {what}, not {type(value).__name__}")
    return value


def _load_bot(name: str) -> Strategy:
    """The bot a saved game names: by its module path, or by the name the game gave it."""
    return get_strategy(name) if ":" in name else named_bot(name)


def _check_bots(game: Game, humans: set[PlayerId], module_bots: Collection[str]) -> None:
    """Load every bot the game's bot-played teams need, or say which cannot be."""
    loaded: set[str] = set()
    for team in bot_teams(game, humans):
        name = game.setup.autopilot(team)
        if name in loaded:
            continue
        if ":" in name and name not in module_bots:
            # A file is data: a module path in it is not imported unless given again on the command line.
            raise SavedGameError(
                f"the bot {name!r} that plays {game.setup.team(team).name} is loaded from a module path, which a saved "
                f"file does not import by itself; carry the game on with the bots it was started with, named again: "
                f"--bots {','.join(bots_given(game, humans))}"
            )
        try:
            _load_bot(name)
        except (Exception, SystemExit) as exc:
            raise SavedGameError(
                f"the bot {name!r} that plays {game.setup.team(team).name} cannot be loaded here ({exc}); the game "
                "cannot go on without it: install it, or carry the game on where it was started"
            ) from None
        loaded.add(name)


def _check_typed(game: Game, humans: set[PlayerId]) -> None:
    """Every resolved order of a team a person types for was typed (no bot named), and every other
    team's order is its bot's: a changed ``humans`` would otherwise hand teams to new managers."""
    for turn in game.turns:
        for match in turn.matches:
            for side in (match.home, match.away):
                typed = game.setup.team(side.team).manager in humans
                if typed != (side.autopilot is None):
                    who = "a person types for it" if typed else "a bot plays it"
                    raise SavedGameError(
                        f"the field 'humans' does not fit the game: {game.setup.team(side.team).name}'s order in turn "
                        f"{turn.number} was {'played by a bot' if typed else 'typed by a person'}, but by 'humans' "
                        f"{who}; the file was edited"
                    )


def _refused_name(name: str) -> str | None:
    """The first character of ``name`` that no name may hold (:mod:`sevens.tournament.names`: the
    joiners of emoji and the tags of a flag are names' own), or None."""
    # Not the unassigned code points drawn as nothing: names took them before they were refused
    # (each made a second "Ann" of "Ann"), a game saved then may hold one, and a terminal does
    # nothing with them.
    kept = "".join(c for c in name if unicodedata.category(c) != "Cn")
    at = refused_character(kept)
    return None if at is None else kept[at]


def _check_names(game: Game) -> None:
    """Refuse a name holding a character no name may hold (an escape, a bell, a direction
    override), or an id holding one that is not printable: sevens play takes no such name from the
    people it asks, so the file was edited, and printed as the game goes on the terminal would obey
    it (ESC[2J clears the screen)."""
    named: list[tuple[str, str, Callable[[str], str | None]]] = [
        (f"game.players[{i}].name", p.name, _refused_name) for i, p in enumerate(game.setup.players)
    ]
    for i, team in enumerate(game.setup.teams):
        named += [(f"game.teams[{i}].id", team.id, hidden_character), (f"game.teams[{i}].name", team.name, _refused_name)]
    for where, name, finds in named:
        hidden = finds(name)
        if hidden is not None:
            raise SavedGameError(
                f"{where} is {quoted(name)}, which holds a control or invisible character ({hidden!r}) that sevens "
                "play never takes in a name and a terminal would act on: the file was edited; write the name in "
                "visible characters, or start a new game"
            )


def read_saved(text: bytes, *, module_bots: Collection[str] = (), path: Path | None = None) -> SavedGame:
    """Read a saved game and check it all: the record replayed with every die thrown again from the
    kept seed (which must match the published commitment), every bot's order played again.

    ``module_bots``: bots named by a ``module:attribute`` path that may be imported (given again
    with ``--bots``); a saved file alone never imports one. ``path``: where ``text`` was read, for
    a message giving a command to run on that file.

    Raises:
        SavedGameError: the file cannot be carried on, saying why (never showing the seed).
    """
    try:
        # Said as for every file the commands read (empty, cut short, not text); json's own
        # RecursionError at deep nesting was a traceback here.
        parse_json(text)
    except NotJson as exc:
        if not text.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{"):
            # Not a JSON object at all: json's "Expecting value (line 1, column 1)" told a player nothing.
            raise SavedGameError(
                "it is not a saved game of sevens: a saved game is the file sevens play keeps a game in after "
                f'every turn, JSON that starts {{"format": "{FORMAT}"; give the file the game said it was kept in '
                f"(games are kept in {default_folder()} unless --save named another), or start a new game with sevens play (without --resume)"
            ) from None
        # A saved game's start, broken further on: where is worth saying, for one who edited it.
        raise SavedGameError(
            f"it is not a whole saved game: its JSON is broken at line {exc.line}, column {exc.column} ({exc.why}), "
            "so the file was edited or damaged; mend it there, give the file the game said it was kept in, or start "
            "a new game"
        ) from None
    except ValueError as exc:
        raise SavedGameError(f"it is not a whole saved game: {exc}") from None
    try:
        data = loads(text)
    except DuplicateKeyError as exc:
        # Whole JSON, so not cut short: sevens play writes each key once, so someone else wrote this one.
        raise SavedGameError(
            f"it names the key {exc.shown_key} twice in one object ({exc.where}), which sevens play never writes: the "
            "file was edited by hand or written by something else; remove one of the two, or start a new game"
        ) from None
    except RecordError as exc:
        # Whole JSON (parse_json took it), so not cut short: another kind of file, or an edit.
        raise SavedGameError(
            f"it is not a saved game as sevens play writes one: {exc}; give the file the game said it was kept "
            "in, or start a new game"
        ) from None
    kind = data.get("format")
    if kind == RECORD_FORMAT:
        # The path as given (quoted where a shell would split it), so the command can be pasted as it is.
        file = "FILE" if path is None else shell_quoted(str(path))
        raise SavedGameError(
            "it is a game record (what --record writes), not a saved game in progress: a record is not carried "
            f"on; check it with: sevens verify {file}"
        )
    if kind != FORMAT:
        raise SavedGameError(f"it is not a saved Sevens game (its 'format' should be {FORMAT!r})")
    version = data.get("version")
    if type(version) is int and version > VERSION:
        raise SavedGameError(
            f"it was saved by a version of sevens that writes saved games of version {version!r}; this one reads "
            f"version {VERSION}: carry the game on with the version that saved it"
        )
    if type(version) is not int or version != VERSION:
        # Every sevens so far keeps version 1 (True and 1.0 equal 1 in Python, so by type too).
        shown = json.dumps(version)  # escaped to ASCII: no control character reaches the terminal
        cut = cut_for_message(shown, 40)
        if cut is not None:
            shown = f"{cut[0]}... ({cut[1]})"
        found = "no 'version'" if "version" not in data else f"version {shown}"
        raise SavedGameError(
            f"it says {found}, which no sevens writes (every version so far keeps games as version {VERSION}): "
            "the file was edited by hand or written by something else; put back the file sevens play kept, "
            "or start a new game"
        )
    seed_text = _field(data, "seed", str, "the game's secret seed, 64 hexadecimal characters")
    try:
        seed = parse_seed(seed_text)
    except ValueError as exc:
        raise SavedGameError(f"its 'seed' is damaged: {exc}") from None  # parse_seed never shows the seed
    humans = _field(data, "humans", int, "how many players type their orders, a whole number")
    record_file = data.get("record_file")
    if record_file is not None and (type(record_file) is not str or not record_file):
        raise SavedGameError("the field 'record_file' should hold the record's file name, or null")
    overwrite = _field(data, "overwrite", bool, "true or false")
    record = _field(data, "game", dict, "the record of the game so far")
    if record.get("seed") is not None:
        raise SavedGameError(
            "the record in it reveals the game's seed, which a game in progress keeps secret (R14); the file was edited"
        )
    players = record.get("players")
    if not isinstance(players, list) or not 0 <= humans <= len(players):
        raise SavedGameError(f"'humans' is {humans}: it must be from 0 to the number of players in the game")
    if seed_commitment(seed) != record.get("seed_sha256"):
        raise SavedGameError(
            "its seed does not match the game's published commitment (seed_sha256, R14): the seed or the "
            "commitment was changed, and the game cannot be carried on"
        )
    loaded: dict[str, Strategy] = {}

    def strategy(name: str) -> Strategy:
        if name not in loaded:
            if ":" in name and name not in module_bots:
                raise ValueError(f"{name!r} is a module path")  # left unchecked here; _check_bots says why
            loaded[name] = _load_bot(name)
        return loaded[name]

    try:
        check = BotOrderCheck(seed.hex(), strategies=strategy)
        game, _ = replay_record(record, check_dice=True, check_orders=check, secret_seed=seed)
    except RecordError as exc:  # VerificationError too: the first place that does not add up
        where = f"game.{exc.path}" if exc.path else "game"
        detail = str(exc)[len(exc.path) + 2:] if exc.path else str(exc)
        raise SavedGameError(
            f"its game does not check out: at {where}: {detail}; the file was damaged or edited"
        ) from None
    except ValueError as exc:
        raise SavedGameError(f"its game does not check out: {exc}; the file was damaged or edited") from None
    for bot, why in check.failing.items():
        if why.startswith("fails to play"):  # one that fails to load is said by _check_bots, if it still plays
            raise SavedGameError(
                f"the bot {shown_name(bot)} {why}, as the turns played so far were checked again; the game cannot go "
                "on without it: fix it and carry the game on again"
            )
    _check_names(game)
    human_ids = {p.id for p in game.setup.players[:humans]}
    _check_bots(game, human_ids, module_bots)
    if game.finished:
        champion = game.setup.team(game.champion).name if game.champion else "none"
        raise SavedGameError(
            f"it holds a finished game (champion: {champion}): there is nothing to carry on"
        )
    _check_typed(game, human_ids)
    path = None if record_file is None else Path(record_file)
    return SavedGame(game, seed, humans, path, overwrite)

