"""The game record: one canonical JSON document from which the whole game can be replayed.

:func:`to_record` writes it, :func:`from_record` reads it back by replaying every turn from the
recorded orders and dice and checking that the replay gives the record again, field for field;
:mod:`sevens.tournament.verify` goes further and throws every die again from the revealed seed
(R14). The layout is described in ``docs/record.md`` and, for machines, in the JSON Schema
``schema/game-record.schema.json`` (a copy ships in this package, see :func:`schema`).

Paths in error messages follow the document: ``turns[3].matches[1].home_dice.force[4]``, list
indexes counting from 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from sevens.rules import (
    Dice,
    DiceExhausted,
    DiceSource,
    FairDice,
    Order,
    ScriptedDice,
    orders_digest,
    parse_seed,
    seed_commitment,
)
from sevens.tournament.formats import Format, check_format
from sevens.tournament.game import (
    Game,
    MatchResult,
    MatchSide,
    ResolvedTurn,
    TurnOrder,
    new_game,
    play_turn,
)
from sevens.tournament.lots import LotsDraw
from sevens.tournament.quoting import cut_for_message, plain_or_quoted
from sevens.tournament.setup import GameSetup, Player, PlayerId, Team, TeamId, draw_game_from_seed

__all__ = [
    "FORMAT",
    "VERSION",
    "DuplicateKeyError",
    "OrderCheck",
    "RecordError",
    "VerificationError",
    "Words",
    "count_dice",
    "dumps",
    "first_difference",
    "from_record",
    "loads",
    "replay_record",
    "schema",
    "to_record",
]

FORMAT = "sevens-game-record"
VERSION = 1
DRAW_FROM_SEED = "game-seed"
"""The record's ``draw`` when the groups were drawn from the game seed (checkable once revealed)."""



class Words(str):
    """What this program says about a value in a message ("all 5 turns"), shown as it is. Any
    other text in a message is a value from the record: it is shown as JSON, quoted and cut short,
    so a doctored field cannot pass for the program's words, hide a difference in spaces or flood
    the message."""


_MISSING = Words("nothing (the field is missing)")
_DEEPEST = 32
"""Nesting a record never needs (its deepest field, a FLAIR die, is 9 levels down)."""
_LARGEST = 2**63 - 1
"""Larger than any count a game can reach; also keeps messages clear of 4,300-digit numbers,
which Python refuses to print."""
_SHOWN = 200
"""Characters of a value quoted in a message (as a reader sees them: a flag is not cut in half),
so a huge field cannot flood it."""


class RecordError(ValueError):
    """A record that cannot be read: not an object, wrong format, a field missing or of the
    wrong kind. ``path`` says where (``""`` for the whole document)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


class DuplicateKeyError(RecordError):
    """JSON naming ``key`` twice in one object, the object at ``path`` (``""``: the document's
    top level). No JSON writer does that by itself: the file was edited or written by hand."""

    def __init__(self, path: str, key: str) -> None:
        self.key = key
        self.shown_key = _show(key)
        """The key as JSON, cut short if long, for a message."""
        self.where = f"in {path}" if path else "at its top level"
        """Where the object is, for a message: "in matches[0]", or "at its top level"."""
        super().__init__(path, f"the key {self.shown_key} appears twice in one object; a record names each field once")


class VerificationError(RecordError):
    """A record that reads but does not add up: at ``path`` the replay gives ``expected`` and the
    record says ``found``. The first such place in the document is reported."""

    def __init__(self, path: str, expected: object, found: object, note: str | None = None) -> None:
        alike = _look_alike(expected, found)
        message = f"expected {_show(expected, escaped=alike)}, found {_show(found, escaped=alike)}"
        if note:
            message += f" ({note})"
        super().__init__(path, message)
        self.expected = expected
        self.found = found


def _look_alike(expected: object, found: object) -> bool:
    """Whether the two are texts that may look the same on screen: plain ASCII against text with other
    characters (a Cyrillic "а" for a Latin "a", a zero-width space). Such a pair is shown escaped."""
    return isinstance(expected, str) and isinstance(found, str) and expected.isascii() != found.isascii()


def _show(value: object, *, escaped: bool = False) -> str:
    if isinstance(value, Words):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LARGEST:
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = json.dumps(value, ensure_ascii=escaped)
    except (ValueError, TypeError, RecursionError):
        text = f"{type(value).__name__} value"
    cut = cut_for_message(text, _SHOWN)
    if cut is not None:
        shown, length = cut
        text = f"{shown}... ({length} in all)"
    return text


# --- writing ---------------------------------------------------------------------------------


def _order_dict(side: MatchSide) -> dict[str, Any]:
    return {
        "force": side.order.force,
        "flair": side.order.flair,
        "missed": side.missed,
        "autopilot": side.autopilot,
    }


def _match_dict(match: MatchResult) -> dict[str, Any]:
    home, away = match.home, match.away
    return {
        "id": match.fixture.id,
        "group": match.fixture.group,
        "home": home.team,
        "away": away.team,
        "home_order": _order_dict(home),
        "away_order": _order_dict(away),
        "home_dice": home.dice.to_dict(),
        "away_dice": away.dice.to_dict(),
        "home_line": home.line.to_dict(),
        "away_line": away.line.to_dict(),
        "winner": match.winner,
        "decided_by": None if match.decided_by is None else str(match.decided_by),
        "summary": match.summary,
        "scrum": {
            home.team: {"before": home.scrum_before, "after": home.scrum_after},
            away.team: {"before": away.scrum_before, "after": away.scrum_after},
        },
    }


def _turn_dict(turn: ResolvedTurn) -> dict[str, Any]:
    return {
        "number": turn.number,
        "stage": str(turn.stage),
        "orders_digest": turn.orders_digest,
        "matches": [_match_dict(match) for match in turn.matches],
        "lots": [{"stream": stream, **draw.to_dict()} for stream, draw in turn.lots],
    }


def to_record(game: Game, *, seed: str | bytes | None = None, ended_early: bool = False) -> dict[str, Any]:
    """The game as its canonical record (plain JSON-ready data).

    Args:
        game: The game, finished or not.
        seed: The game's seed, only once the game is over (R14): finished, or ended early;
            ``None`` before.
        ended_early: Its organiser ended the game before the final: no turn will follow, so its
            seed may be revealed. The record then says so (``"ended_early": true`` after the
            champion); records of other games do not have the field.

    Raises:
        ValueError: a seed for a game still going on, ``ended_early`` for a finished game, or a
            seed that does not match the commitment.

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> record = to_record(game)
    >>> record["format"], record["seed"], record["turns"], record["champion"]
    ('sevens-game-record', None, [], None)
    """
    if ended_early and game.finished:
        raise ValueError("a finished game was not ended early; pass ended_early=False")
    revealed: str | None = None
    if seed is not None:
        if not game.finished and not ended_early:
            raise ValueError("R14: the seed is revealed only when the game is over; pass seed=None")
        if seed_commitment(seed) != game.id:
            raise ValueError("R14: this seed does not match the game's published commitment (seed_sha256)")
        revealed = parse_seed(seed).hex()
    setup = game.setup.to_dict()
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed_sha256": game.id,
        "seed": revealed,
        "draw": DRAW_FROM_SEED if game.setup.drawn_from_seed else None,
        "tournament": game.format.to_dict(),
        "players": setup["players"],
        "teams": setup["teams"],
        "turns": [_turn_dict(turn) for turn in game.turns],
        "groups": {letter: [row.to_dict() for row in table.rows] for letter, table in game.tables().items()},
        "champion": game.champion,
    }
    if ended_early:
        record["ended_early"] = True
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """The record as canonical JSON text: keys in the record's own order, 2-space indent, UTF-8
    characters kept, one final newline.

    >>> dumps({"format": FORMAT, "version": 1})
    '{\\n  "format": "sevens-game-record",\\n  "version": 1\\n}\\n'
    """
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse record text; anything that is not a JSON object is a :class:`RecordError`.

    >>> loads("[1, 2]")
    Traceback (most recent call last):
    ...
    sevens.tournament.record.RecordError: a game record is a JSON object, this is a list
    >>> loads("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    sevens.tournament.record.RecordError: not a record: its JSON is nested too deeply
    """
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_whole_number)
    except DuplicateKeyError as exc:
        raise DuplicateKeyError(_twice_at(text), exc.key) from None
    except RecordError:
        raise
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError("", f"not JSON: {exc}") from None
    except RecursionError:  # how json gives up on deep nesting: no ValueError
        raise RecordError("", "not a record: its JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("", f"a game record is a JSON object, this is {_kind(data)}")
    return data


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # JSON readers differ on which of two equal keys wins, so a record with both would say
    # different things to different verifiers.
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKeyError("", key)  # where: found by _twice_at, which json's hook cannot tell
        seen[key] = value
    return seen


class _Twice(dict[str, Any]):
    """An object read by :func:`_twice_at`, noting whether it named a key twice."""

    twice = False


def _twice_at(text: str | bytes) -> str:
    """The path of the first object (as json finishes reading them) that names a key twice,
    as ``game.turns[0]``; ``""`` for the top level, or if it cannot be found again.

    >>> _twice_at('{"game": {"turns": [{}, {"home": 1, "home": 2}]}}')
    'game.turns[1]'
    """

    def keep(pairs: list[tuple[str, Any]]) -> _Twice:
        read = _Twice(pairs)
        read.twice = len(read) < len(pairs)
        return read

    def first(value: Any, path: str) -> str | None:
        # Inner objects first, in the order of the text: json reads them first, so its hook
        # refused the same one.
        inner: list[tuple[str, Any]] = []
        if isinstance(value, dict):
            inner = [(f"{path}.{key}" if path else key, item) for key, item in value.items()]
        elif isinstance(value, list):
            inner = [(f"{path}[{i}]", item) for i, item in enumerate(value)]
        for where, item in inner:
            found = first(item, where)
            if found is not None:
                return found
        return path if isinstance(value, _Twice) and value.twice else None

    try:
        return first(json.loads(text, object_pairs_hook=keep, parse_int=_whole_number), "") or ""
    except (ValueError, RecursionError):  # read once already up to the key: said at the top level
        return ""


def _whole_number(digits: str) -> int:
    # Refused from the digits, before Python's own 4,300-digit limit answers with advice about
    # sys.set_int_max_str_digits.
    if len(digits.lstrip("-")) > 19:
        raise RecordError("", f"a number of {len(digits.lstrip('-')):,} digits, far past any count in a game record")
    return int(digits)


def schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12), as shipped in this package."""
    text = resources.files("sevens.tournament").joinpath("game-record.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# --- reading ---------------------------------------------------------------------------------


def _kind(value: object) -> str:
    """What a JSON value is, with its article: 'found an object', never 'found a object'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _obj(value: object, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, found {_kind(value)}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise RecordError(path, f"missing field(s) {', '.join(missing)}")
    return value


def _int(value: object, path: str) -> int:
    if type(value) is not int:
        raise RecordError(path, f"must be a whole number, found {_show(value)}")
    return value


def _str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordError(path, f"must be a string, found {_show(value)}")
    return value


def _opt_str(value: object, path: str) -> str | None:
    return None if value is None else _str(value, path)


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(path, f"must be a list, found {_kind(value)}")
    return value


@dataclass(frozen=True, slots=True)
class _Match:
    path: str
    id: str
    home: str
    away: str
    home_order: TurnOrder
    away_order: TurnOrder
    home_dice: Dice
    away_dice: Dice


@dataclass(frozen=True, slots=True)
class _Turn:
    path: str
    number: object
    stage: object
    matches: tuple[_Match, ...]
    lots: tuple[tuple[str, LotsDraw], ...]


@dataclass(frozen=True, slots=True)
class _Parsed:
    setup: GameSetup
    seed: str | None
    turns: tuple[_Turn, ...]
    ended_early: bool = False


def _turn_order(value: object, path: str, team: str) -> TurnOrder:
    data = _obj(value, path, ("force", "flair", "missed", "autopilot"))
    force = _int(data["force"], f"{path}.force")
    flair = _int(data["flair"], f"{path}.flair")
    try:
        order = Order(force=force, flair=flair)
    except ValueError as exc:
        raise RecordError(path, str(exc)) from None
    missed = data["missed"]
    if type(missed) is not bool:
        raise RecordError(f"{path}.missed", f"must be true or false, found {_show(missed)}")
    return TurnOrder(TeamId(team), order, missed, _opt_str(data["autopilot"], f"{path}.autopilot"))


def _dice(value: object, path: str) -> Dice:
    try:
        return Dice.from_dict(value)
    except ValueError as exc:
        raise RecordError(path, str(exc)) from None


def _parse_match(value: object, path: str) -> _Match:
    keys = ("id", "home", "away", "home_order", "away_order", "home_dice", "away_dice")
    data = _obj(value, path, keys)
    home = _str(data["home"], f"{path}.home")
    away = _str(data["away"], f"{path}.away")
    return _Match(
        path=path,
        id=_str(data["id"], f"{path}.id"),
        home=home,
        away=away,
        home_order=_turn_order(data["home_order"], f"{path}.home_order", home),
        away_order=_turn_order(data["away_order"], f"{path}.away_order", away),
        home_dice=_dice(data["home_dice"], f"{path}.home_dice"),
        away_dice=_dice(data["away_dice"], f"{path}.away_dice"),
    )


def _parse_turn(value: object, path: str) -> _Turn:
    data = _obj(value, path, ("number", "stage", "orders_digest", "matches", "lots"))
    matches = tuple(
        _parse_match(m, f"{path}.matches[{j}]")
        for j, m in enumerate(_list(data["matches"], f"{path}.matches"))
    )
    lots: list[tuple[str, LotsDraw]] = []
    for k, entry in enumerate(_list(data["lots"], f"{path}.lots")):
        where = f"{path}.lots[{k}]"
        draw = _obj(entry, where, ("stream", "what", "teams", "throws", "order"))
        stream = _str(draw["stream"], f"{where}.stream")
        try:
            lots.append((stream, LotsDraw.from_dict({k: v for k, v in draw.items() if k != "stream"})))
        except ValueError as exc:
            raise RecordError(where, str(exc)) from None
    return _Turn(path, data["number"], data["stage"], matches, tuple(lots))


def _parse_setup(data: dict[str, Any]) -> GameSetup:
    t = _obj(data["tournament"], "tournament", ("teams", "players", "teams_per_player"))
    fmt = Format(
        teams=_int(t["teams"], "tournament.teams"),
        players=_int(t["players"], "tournament.players"),
        teams_per_player=_int(t["teams_per_player"], "tournament.teams_per_player"),
    )
    try:
        check_format(fmt)
    except ValueError as exc:
        raise RecordError("tournament", str(exc)) from None
    players = []
    for i, entry in enumerate(_list(data["players"], "players")):
        p = _obj(entry, f"players[{i}]", ("id", "name", "teams"))
        try:
            players.append(
                Player(PlayerId(_str(p["id"], f"players[{i}].id")), _str(p["name"], f"players[{i}].name"))
            )
        except ValueError as exc:
            raise RecordError(f"players[{i}]", str(exc)) from None
    teams = []
    autopilots: dict[TeamId, str] = {}
    for i, entry in enumerate(_list(data["teams"], "teams")):
        where = f"teams[{i}]"
        d = _obj(entry, where, ("id", "name", "group", "manager", "autopilot"))
        team_id = TeamId(_str(d["id"], f"{where}.id"))
        manager = _opt_str(d["manager"], f"{where}.manager")
        try:
            teams.append(
                Team(
                    team_id,
                    _str(d["name"], f"{where}.name"),
                    _str(d["group"], f"{where}.group"),
                    None if manager is None else PlayerId(manager),
                )
            )
        except ValueError as exc:
            raise RecordError(where, str(exc)) from None
        autopilots[team_id] = _str(d["autopilot"], f"{where}.autopilot")
    draw = data.get("draw")
    if draw not in (None, DRAW_FROM_SEED):
        raise RecordError("draw", f"must be null or {DRAW_FROM_SEED!r}, found {_show(draw)}")
    try:
        return GameSetup(
            fmt,
            tuple(players),
            tuple(teams),
            _str(data["seed_sha256"], "seed_sha256"),
            autopilots,
            drawn_from_seed=draw == DRAW_FROM_SEED,
        )
    except ValueError as exc:
        raise RecordError("teams", str(exc)) from None


def _check_values(data: object) -> None:
    """Refuse, by path, what no record holds and what would break the reading further on:
    nesting past :data:`_DEEPEST`, numbers past :data:`_LARGEST`, text that is not Unicode
    (a lone surrogate, which no UTF-8 file can hold) and values that are not JSON."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > _DEEPEST:
            raise RecordError(path, f"nested {depth} levels deep; no field of a record is deeper than {_DEEPEST}")
        if isinstance(value, dict):
            # Pushed last to first so the first fault in document order is the one reported.
            for key, item in reversed(value.items()):
                if not isinstance(key, str):
                    raise RecordError(path, f"field names are strings, found {_show(key)}")
                where = f"{path}.{key}" if path else key
                _check_text(key, where)
                stack.append((item, where, depth + 1))
        elif isinstance(value, list):
            stack.extend((value[i], f"{path}[{i}]", depth + 1) for i in reversed(range(len(value))))
        elif isinstance(value, str):
            _check_text(value, path)
        elif isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > _LARGEST:
                raise RecordError(path, f"{_show(value)}, far past any count in a game record")
        elif value is not None and not isinstance(value, bool | float):
            raise RecordError(path, f"not a JSON value: {type(value).__name__}")


def _check_text(text: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError(
            path, f"not valid Unicode text: {exc.reason} at character {exc.start + 1}; no UTF-8 file can hold it"
        ) from None


def _parse(data: object) -> _Parsed:
    if not isinstance(data, dict):
        raise RecordError("", f"a game record is a JSON object, this is {_kind(data)}")
    _check_values(data)
    if data.get("format") != FORMAT:
        raise RecordError(
            "format",
            f"this is not a Sevens game record (expected {FORMAT!r}, found {_show(data.get('format'))})",
        )
    version = data.get("version")
    # By type too: 1.0 and true equal 1 in Python, and were then refused only as a mismatch (exit 1).
    if type(version) is not int or version != VERSION:
        if type(version) is int and version > VERSION:
            why = f" (a version {version} record comes from a newer sevens: upgrade sevens to verify it)"
        else:
            # Every sevens so far wrote version 1, so anything else below it came from elsewhere.
            why = (
                f"; no sevens writes that (every version so far writes {VERSION}), so the file was edited "
                "or made by another program: take the record again from the sevens that played the game "
                "(sevens play --record, or the web app's Download the record)"
            )
        found = "no version" if "version" not in data else _show(version)
        raise RecordError("version", f"this program reads version {VERSION} records, found {found}{why}")
    keys = ("seed_sha256", "seed", "tournament", "players", "teams", "turns", "groups", "champion")
    _obj(data, "", keys)
    seed = _opt_str(data["seed"], "seed")
    if seed is not None:
        try:
            seed = parse_seed(seed).hex()
        except ValueError as exc:
            raise RecordError("seed", str(exc)) from None
    ended_early = data.get("ended_early", False)
    if ended_early is not True and "ended_early" in data:
        raise RecordError("ended_early", f"is true when present, found {_show(ended_early)}")
    setup = _parse_setup(data)
    turns = tuple(_parse_turn(t, f"turns[{i}]") for i, t in enumerate(_list(data["turns"], "turns")))
    return _Parsed(setup, seed, turns, ended_early)


# --- replay ----------------------------------------------------------------------------------


class _Short(Exception):
    def __init__(self, path: str, given: int) -> None:
        self.path = path
        self.given = given


class _Recorded:
    """Replays the dice written in the record for one stream; says where if they run out."""

    __slots__ = ("_dice", "_path", "_given")

    def __init__(self, faces: list[int], path: str) -> None:
        self._dice = ScriptedDice(faces)
        self._path = path
        self._given = len(faces)

    def d6(self) -> int:
        try:
            return self._dice.d6()
        except DiceExhausted:
            raise _Short(self._path, self._given) from None


def _faces(dice: Dice) -> list[int]:
    return [*dice.force, *(face for option in dice.flair for throw in option for face in throw)]


def _fair_streams(seed: bytes, digest: str) -> Callable[[str], DiceSource]:
    def dice_for(stream: str) -> DiceSource:
        return FairDice(seed, digest, stream)

    return dice_for


def _recorded_streams(turn: _Turn) -> Callable[[str], DiceSource]:
    streams: dict[str, _Recorded] = {}
    for match in turn.matches:
        streams[f"{match.id}/home"] = _Recorded(_faces(match.home_dice), f"{match.path}.home_dice")
        streams[f"{match.id}/away"] = _Recorded(_faces(match.away_dice), f"{match.path}.away_dice")
    lot_faces: dict[str, list[int]] = {}
    for stream, draw in turn.lots:
        lot_faces.setdefault(stream, []).extend(draw.dice)

    def dice_for(stream: str) -> DiceSource:
        if stream not in streams:
            streams[stream] = _Recorded(lot_faces.get(stream, []), f"{turn.path}.lots")
        return streams[stream]

    return dice_for


def _check_turn_shape(game: Game, turn: _Turn, index: int) -> None:
    n = index + 1
    if game.finished:
        raise VerificationError(
            turn.path, Words(f"no turn {n}: the final was turn {game.format.turns}"), Words(f"turn {_show(turn.number)}")
        )
    if turn.number != n:
        raise VerificationError(f"{turn.path}.number", n, turn.number)
    if turn.stage != str(game.stage):
        raise VerificationError(f"{turn.path}.stage", str(game.stage), turn.stage)
    fixtures = game.fixtures()
    if len(turn.matches) != len(fixtures):
        raise VerificationError(
            f"{turn.path}.matches",
            Words(f"{len(fixtures)} matches"),
            Words(f"{len(turn.matches)} matches"),
            "R6: every team still in plays once",
        )
    for fixture, match in zip(fixtures, turn.matches, strict=True):
        for name, want, got in (
            ("id", fixture.id, match.id),
            ("home", fixture.home, match.home),
            ("away", fixture.away, match.away),
        ):
            if want != got:
                rule = "R7" if fixture.group else "R11"
                raise VerificationError(f"{match.path}.{name}", want, got, f"{rule} pairing")
    for match in turn.matches:
        for side, given in (("home", match.home_order), ("away", match.away_order)):
            _check_missed(game, given, f"{match.path}.{side}_order")
            balance = game.scrum(given.team)
            if given.order.total > balance:
                raise VerificationError(
                    f"{match.path}.{side}_order",
                    Words(f"an order of at most {balance} points (the team's SCRUM, R3)"),
                    Words(f"{given.order.total} points"),
                )


def _check_missed(game: Game, given: TurnOrder, path: str) -> None:
    # R12: a house team is always played by its bot, so its order names the bot (which verification
    # can play again); an order of nobody's would let a server set a house team's orders at will.
    if game.setup.team(given.team).manager is None and given.autopilot is None:
        raise VerificationError(
            f"{path}.autopilot",
            Words("the bot that plays the house team"),
            None,
            "R12: a house team is always played by its bot",
        )
    # R13: only a managed team can miss an order, and then its autopilot plays it.
    if not given.missed:
        return
    if game.setup.team(given.team).manager is None:
        raise VerificationError(
            f"{path}.missed", False, True, "R12: a house team is always played by its bot; it has no order to miss"
        )
    if given.autopilot is None:
        raise VerificationError(
            f"{path}.autopilot", Words("the bot that played the missed order"), None, "R13: a missed order is the autopilot's"
        )


def _raise_difference(expected: object, found: object, path: str) -> None:
    diff = first_difference(expected, found, path)
    if diff is not None:
        raise diff


OrderCheck = Callable[[Game, Mapping[TeamId, TurnOrder], Mapping[TeamId, str]], None]
"""Called before each turn is replayed with the game as it stood, the turn's orders and each
order's path in the record (``turns[2].matches[1].away_order``); raises
:class:`VerificationError` for an order it finds wrong."""


def replay_record(
    data: object,
    *,
    check_dice: bool = False,
    check_orders: OrderCheck | None = None,
    secret_seed: str | bytes | None = None,
) -> tuple[Game, str | None]:
    """Replay a record turn by turn from its orders, checking it as it goes, in document order.

    Checked in turn: the format and version; that a revealed seed matches ``seed_sha256`` and
    that the game is over (finished, or ended early: R14); the tournament, players and teams;
    then each turn (its number, stage, pairings (R7, R11), orders within SCRUM (R3), orders
    digest, dice, lines, winners, sentences, SCRUM and lots); then the group tables and the
    champion. The first difference is raised.

    Args:
        data: The record.
        check_dice: Throw every die again from the record's revealed seed (R14). Without it (or
            without a seed) the recorded dice are taken as given and everything else is checked
            against them.
        check_orders: Checks each turn's orders against the game before the turn (the bots'
            orders, for example, which this package cannot recompute).
        secret_seed: The seed of a game still going on, which its record keeps secret, from
            whoever keeps it (a game saved to be carried on later). It must match
            ``seed_sha256``; with ``check_dice`` every die and the group draw are then checked
            against it as against a revealed seed. It stays secret: it is not written into the
            replayed game, the returned seed or any message.

    Returns:
        The replayed game and the record's revealed seed (``None`` if not revealed).

    Raises:
        RecordError: the record cannot be read.
        VerificationError: the first place where the record differs from the replay.
    """
    parsed = _parse(data)
    assert isinstance(data, dict)  # _parse checked it
    if "draw" not in data:
        # The schema leaves it out: records written before it existed (sevens play's files, and the
        # web app's games still in its database or in a full backup) had groups drawn otherwise.
        data = {**data, "draw": None}
    setup = parsed.setup
    seed = parsed.seed
    if secret_seed is not None and seed_commitment(secret_seed) != setup.seed_sha256:
        # Neither seed is shown: the one given is secret, and a revealed one is in the record.
        raise VerificationError(
            "seed_sha256",
            Words("the SHA-256 of the game's secret seed"),
            setup.seed_sha256,
            "R14: the seed kept with the game does not match the game's published commitment",
        )
    dice_seed = seed if seed is not None else secret_seed
    if seed is not None:
        if seed_commitment(seed) != setup.seed_sha256:
            raise VerificationError(
                "seed",
                Words(f"a seed whose SHA-256 is the record's seed_sha256 ({setup.seed_sha256})"),
                Words(f"a seed whose SHA-256 is {seed_commitment(seed)}"),
            )
        if len(parsed.turns) < setup.format.turns and not parsed.ended_early:
            # A finished game cut short, or a running game's secret let out: either way not a record to trust.
            raise VerificationError(
                "turns",
                Words(f"all {setup.format.turns} turns, as the record reveals its seed"),
                Words(f"{len(parsed.turns)} turns{_missing_turns(parsed.turns, setup.format.turns)}"),
                'R14: the seed stays secret until the game is over; a game ended before its final says "ended_early": true',
            )
    if parsed.ended_early and len(parsed.turns) >= setup.format.turns:
        raise VerificationError("ended_early", None, True, "a game played to its final did not end early")
    if parsed.ended_early and seed is None:
        raise VerificationError("seed", Words("the game's seed"), None, "R14: a game that ended early reveals its seed")
    game = new_game(setup)
    head = to_record(game)
    for key in ("draw", "tournament", "players", "teams"):
        _raise_difference(head[key], data.get(key), key)
    if dice_seed is not None and check_dice and setup.drawn_from_seed:
        redrawn = draw_game_from_seed(setup.players, setup.format, seed=dice_seed)
        for i, (want, got) in enumerate(zip(redrawn.teams, setup.teams, strict=True)):
            if (want.id, want.name, want.group, want.manager) != (got.id, got.name, got.group, got.manager):
                raise VerificationError(
                    f"teams[{i}]",
                    Words(f"{want.name} ({want.id}) in group {want.group}, manager {want.manager}"),
                    Words(
                        f"{_shown_beside(want.name, got.name)} ({_shown_beside(want.id, got.id)}) in group "
                        f"{got.group}, manager {got.manager}"
                    ),
                    "the group draw redone from the game's seed (draw = 'game-seed') differs",
                )
    raw = None if dice_seed is None or not check_dice else parse_seed(dice_seed)
    for index, turn in enumerate(parsed.turns):
        _check_turn_shape(game, turn, index)
        n = index + 1
        orders: dict[TeamId, TurnOrder] = {}
        paths: dict[TeamId, str] = {}
        for match in turn.matches:
            orders[TeamId(match.home)] = match.home_order
            orders[TeamId(match.away)] = match.away_order
            paths[TeamId(match.home)] = f"{match.path}.home_order"
            paths[TeamId(match.away)] = f"{match.path}.away_order"
        if check_orders is not None:
            check_orders(game, orders, paths)
        digest = orders_digest(game.id, n, {team: given.order for team, given in orders.items()})
        # Before the dice: an order changed in a record without its seed otherwise surfaced as dice
        # "short" or a line that did not add up, far from the order a referee should look at. The
        # turn played below has this digest (play_turn works it out the same way).
        if digest != data["turns"][index]["orders_digest"]:
            raise VerificationError(
                f"{turn.path}.orders_digest",
                digest,
                data["turns"][index]["orders_digest"],
                "the SHA-256 of the orders recorded in this turn (R14): an order or the digest was changed",
            )
        dice_for = _recorded_streams(turn) if raw is None else _fair_streams(raw, digest)
        try:
            game = play_turn(game, orders, dice_for)
        except _Short as short:
            raise VerificationError(
                short.path, Words("more dice: the orders and the rules need more"), Words(f"{short.given} dice")
            ) from None
        _raise_difference(_turn_dict(game.turns[-1]), data["turns"][index], turn.path)
    _raise_difference(to_record(game, seed=seed, ended_early=parsed.ended_early), data, "")
    return game, seed


def _missing_turns(turns: tuple[_Turn, ...], total: int) -> str:
    """Which turn numbers a record short of turns lacks, as ", turn 2 missing", so a referee need not
    count them; "" when its turns are not numbered 1, 2, ... (the per-turn check names that)."""
    numbers = [turn.number for turn in turns]
    if any(type(n) is not int for n in numbers):
        return ""
    gone = [n for n in range(1, total + 1) if n not in numbers]
    if not gone or len(gone) != total - len(turns):
        return ""
    return f", turn{'' if len(gone) == 1 else 's'} {', '.join(map(str, gone))} missing"


def _shown_beside(expected: str, found: str) -> str:
    """``found`` named in passing next to ``expected``: escaped (``'south-\\u0430frica'``) where it
    would look like it."""
    return ascii(found) if _look_alike(expected, found) else plain_or_quoted(found)


def first_difference(expected: object, found: object, path: str = "") -> VerificationError | None:
    """The first place where ``found`` differs from ``expected``, walking ``expected`` in order.

    >>> first_difference({"a": [1, 2, 3]}, {"a": [1, 5, 3]})
    VerificationError('a[1]: expected 2, found 5')
    >>> first_difference({"a": 1}, {"a": 1, "b": 2})
    VerificationError('b: expected no such field, found 2')
    >>> first_difference([True], [1]) is None
    False
    """
    if isinstance(expected, dict):
        if not isinstance(found, dict):
            return VerificationError(path, expected, found)
        for key, value in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in found:
                return VerificationError(where, value, _MISSING)
            diff = first_difference(value, found[key], where)
            if diff is not None:
                return diff
        for key in found:
            if key not in expected:
                # A key only the record has may be anything: long, or with what a terminal acts on.
                where = f"{path}.{plain_or_quoted(key)}" if path else plain_or_quoted(key)
                return VerificationError(where, Words("no such field"), found[key])
        return None
    if isinstance(expected, list):
        if not isinstance(found, list):
            return VerificationError(path, expected, found)
        for i, (e, f) in enumerate(zip(expected, found, strict=False)):
            diff = first_difference(e, f, f"{path}[{i}]")
            if diff is not None:
                return diff
        if len(expected) != len(found):
            return VerificationError(path, Words(_items(len(expected))), Words(_items(len(found))))
        return None
    if type(expected) is not type(found) or expected != found:
        return VerificationError(path, expected, found)
    return None


def _items(count: int) -> str:
    """``count`` list items in words: "1 item", "2 items"."""
    return f"{count:,} item{'' if count == 1 else 's'}"


def count_dice(game: Game) -> int:
    """Every die thrown in a game: FORCE dice, FLAIR dice (two per throw) and lots."""
    total = 0
    for turn in game.turns:
        for match in turn.matches:
            for side in (match.home, match.away):
                total += len(_faces(side.dice))
        total += sum(len(draw.dice) for _, draw in turn.lots)
    return total


def from_record(data: object) -> tuple[Game, str | None]:
    """Read a record: parse it, replay every turn from its orders and recorded dice, and check
    that the replay writes the same record again. Returns the game and the revealed seed
    (``None`` while the game is unfinished).

    Raises:
        RecordError: the record is malformed, or (as :class:`VerificationError`) does not add
            up, naming the first place where it goes wrong.

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> from_record(to_record(game)) == (game, None)
    True
    """
    game, seed = replay_record(data)
    return game, seed
