"""Backup and restore: every game as its record, plus what the store needs to carry a game on.

Two kinds of export, told apart by ``"full"``:

* A **shareable export** (``full: false``) holds only what any spectator may read: the public
  games (a private one is its players' alone), each game's record (:func:`sevens.store.games.record_of`: resolved turns; the seed only once the game
  is over, R14), its public settings, each seat's display name and whether it was taken, the bots
  of the teams nobody plays, and the order log of *resolved* turns (each draft, without when it
  was sent or whether through the pages or the API). No seed of an unfinished
  game, no order of a turn that was never resolved (the open one, or the one open when the
  organiser ended the game: R13), no order discarded with its seat, no manager's own autopilot,
  nothing only the organiser sees (the event log, when and why each turn was resolved, when seats
  were taken, the invites' state), no hash of any secret. Finished and ended games restore from it; a lobby or running
  game cannot (its seed is not there) and :func:`import_backup` says so.
* A **full backup** (``full: true``) holds all of that and what the shareable export leaves out:
  every manager's autopilot, the seats' join and invite times, each turn's reason and time, the
  event log; and per game a separate ``secret`` object: the seed, the hashes of the organiser link
  and of every invite, every saved order, the log lines of the turn never resolved and those of
  the orders discarded with their seat (handed to the bots, or signed out for a new link); at the top
  the credentials (session and bot tokens, as SHA-256 only) with their grants, and the markers of
  bot tokens deleted with their game (SHA-256 and when, so their bots are told why). With it a running
  game goes on after a restore exactly where it stood: the same dice (the seed), the same saved
  and ready orders, the same deadline, and every invite link, organiser link, browser session and
  bot token keeps working. Whoever holds it can throw the open turn's dice and read its orders,
  so the CLI writes it with mode 0600.

Database ids are never exported: games are keyed by their public id and credentials by their
token hash, so a restore works into SQLite or PostgreSQL alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from sevens.rules import seed_commitment
from sevens.store import games as store
from sevens.store.db import read_one_moment
from sevens.store.errors import Conflict, DamagedRecord, Invalid
from sevens.store.models import (
    ApiPrincipal,
    EventRow,
    GameRow,
    GameStatus,
    Grant,
    OrderLogRow,
    OrderRow,
    PrincipalKind,
    Role,
    SeatRow,
    TeamRow,
    TurnRow,
    Visibility,
)
from sevens.store.secrets import hash_token, is_public_id, new_token
from sevens.tournament.game import Game
from sevens.tournament.quoting import quoted
from sevens.tournament.record import RecordError, dumps, replay_record, to_record

__all__ = ["BACKUP_FORMAT", "BACKUP_VERSION", "AlreadyImported", "ImportReport", "export_backup", "import_backup", "merge"]

BACKUP_FORMAT = "sevens-backup"
BACKUP_VERSION = 1

_OPEN = (GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED)
# A status as it reads in a sentence ("game X is still in its lobby"), where its value alone does not.
_STANDING = {GameStatus.LOBBY: "still in its lobby"}


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _parse_time(value: object, where: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid(f"{where}: expected an ISO 8601 time or null, found {value!r}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise Invalid(f"{where}: {value!r} is not an ISO 8601 time") from None
    if parsed.tzinfo is None:
        raise Invalid(f"{where}: {value!r} has no time zone; times are absolute UTC")
    return parsed


def _log_dict(row: OrderLogRow, *, full: bool = True) -> dict[str, Any]:
    line = {
        "turn": row.turn,
        "team": row.team_id,
        "player": row.player_id,
        "force": row.force,
        "flair": row.flair,
        "ready": row.ready,
    }
    if full:
        # No page shows when a player sent each draft, nor whether by the pages or a program
        # through the API (which tells people from bots): a shareable export does not either.
        line.update(via=row.via, at=_time(row.at))
    return line


def _stored_record(game: GameRow, *, full: bool) -> dict[str, Any] | None:
    if game.record_json is None:
        return None
    try:
        return json.loads(game.record_json) if full else store.record_of(game)
    except ValueError as exc:  # not JSON any more, or (DamagedRecord) no longer a game that replays
        damaged = exc if isinstance(exc, DamagedRecord) else DamagedRecord(str(exc))
        # Said with the game it is, and what to do: a bare "Unterminated string" named none.
        raise Conflict(
            f"game {game.public_id} ({quoted(game.name)}): {damaged}; so nothing was exported: download its record "
            f"as stored from its page (/games/{game.public_id}/record.json), then restore the game from an earlier "
            "export or have its organiser delete it, and export again"
        ) from exc


def _game_dict(db: Session, game: GameRow, *, full: bool, rematches: dict[int, GameRow]) -> dict[str, Any]:
    record = _stored_record(game, full=full)
    log = list(db.scalars(select(OrderLogRow).where(OrderLogRow.game_id == game.id).order_by(OrderLogRow.id)))
    # current_turn is the next turn to resolve: those below it are in the record, and their orders
    # are public (R13). The one at it is open, or was when the organiser ended the game: never
    # resolved, so its orders stay secret for good.
    resolved = [r for r in log if r.turn < game.current_turn and not r.discarded]
    unresolved = [r for r in log if r.turn >= game.current_turn and not r.discarded]
    # Discarded with their seat (handed to the bots, signed out for a new link): never played, so
    # secret for good, whatever their turn (R13).
    discarded = [r for r in log if r.discarded]
    seats = store.seats_of(db, game_id=game.id)
    claimed = store.taken_seats(seats)
    data: dict[str, Any] = {
        "id": game.public_id,
        "name": game.name,
        "status": game.status.value,
        "visibility": game.visibility.value,
        "players": game.players,
        "teams": game.teams,
        "teams_per_player": game.teams_per_player,
        "turn_seconds": game.turn_seconds,
        "default_bot": game.default_bot,
        "default_autopilot": game.default_autopilot,
        "seed_sha256": game.seed_sha256,
        "revealed_seed": store.revealed_seed(game),
        "current_turn": game.current_turn,
        "deadline_at": _time(game.deadline_at),
        "paused_remaining": game.paused_remaining,
        "champion": game.champion,
        "created_at": _time(game.created_at),
        "started_at": _time(game.started_at),
        "ended_at": _time(game.ended_at),
        "record": record,
        # Per resolved turn, the teams a bot played as nobody played their seat then (public: the
        # match reports say it).
        "seat_bots": {str(turn): teams for turn, teams in store.seat_bots(game).items()},
        # The game started as this one's rematch: a shareable export names only a public one (a
        # private game's existence is told only to its own players and organisers).
        "rematch": _rematch_id(game, rematches, full=full),
        # Players see who took a seat, not when, nor the state of anyone's invite.
        "seats": [
            {
                "player": s.player_id,
                "name": s.name,
                "joined_at": _time(s.joined_at),
                "invite_used_at": _time(s.invite_used_at),
                "invite_expires_at": _time(s.invite_expires_at),
            }
            if full
            else {"player": s.player_id, "name": s.name, "joined": s.joined_at is not None}
            for s in seats
        ],
        # The bots of teams nobody plays are public (the odds name them, the reports too); a
        # manager's own autopilot is theirs alone (store.house_bot draws the same line).
        "autopilots": {
            t.team_id: t.autopilot
            for t in store.teams_of(db, game_id=game.id)
            if full or t.player_id not in claimed
        },
        "order_log": [_log_dict(r, full=full) for r in resolved],
    }
    if not full:
        return data
    # What only the organiser sees: when and why each turn was resolved, and the event log.
    data["turns"] = [
        {"number": t.number, "reason": t.reason, "resolved_at": _time(t.resolved_at)}
        for t in db.scalars(select(TurnRow).where(TurnRow.game_id == game.id).order_by(TurnRow.number))
    ]
    data["events"] = [
        {"at": _time(e.at), "actor": e.actor, "kind": e.kind, "detail": e.detail}
        for e in store.events_of(db, game_id=game.id)
    ]
    orders = db.scalars(
        select(OrderRow).where(OrderRow.game_id == game.id).order_by(OrderRow.turn, OrderRow.team_id)
    )
    data["secret"] = {
        "seed": game.seed_hex,
        "organiser_link_hash": game.organiser_link_hash,
        "invite_hashes": {s.player_id: s.invite_hash for s in seats},
        "orders": [
            {
                "turn": o.turn,
                "team": o.team_id,
                "force": o.force,
                "flair": o.flair,
                "ready": o.ready,
                "updated_at": _time(o.updated_at),
            }
            for o in orders
        ],
        "open_order_log": [_log_dict(r) for r in unresolved],
        "discarded_order_log": [_log_dict(r) for r in discarded],
    }
    return data


def _rematch_id(game: GameRow, rematches: dict[int, GameRow], *, full: bool) -> str | None:
    rematch = None if game.rematch_id is None else rematches.get(game.rematch_id)
    if rematch is None or not (full or rematch.visibility == Visibility.PUBLIC):
        return None
    return rematch.public_id


def export_backup(db: Session, *, full: bool, now: datetime) -> dict[str, Any]:
    """Every game of the database as one JSON-ready document.

    Args:
        db: the session to read from.
        full: add what only the organiser sees and the secrets a restore of a running game needs
            (seeds, hashes, unresolved orders, credentials), and the private games; without it
            the document holds only what any spectator may read: the public games.
        now: the export's time stamp.
    """
    # One moment's database: a game written while the export runs (the server goes on) would be
    # half in it, its grants without it.
    read_one_moment(db)
    games = list(db.scalars(select(GameRow).order_by(GameRow.created_at, GameRow.id)))
    public_ids = {g.id: g.public_id for g in games}
    by_id = {g.id: g for g in games}
    if not full:
        # A private game is for its players and organisers alone (its pages answer anyone else
        # 404), and a shareable export is for anyone: it is left out whole.
        games = [g for g in games if g.visibility == Visibility.PUBLIC]
    document: dict[str, Any] = {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "full": full,
        "exported_at": _time(now),
        "games": [_game_dict(db, g, full=full, rematches=by_id) for g in games],
        "credentials": [],
    }
    if full:
        grants: dict[int, list[dict[str, str]]] = {}
        for grant in db.scalars(select(Grant).order_by(Grant.id)):
            grants.setdefault(grant.principal_id, []).append(
                {"game": public_ids[grant.game_id], "role": grant.role.value, "player": grant.player_id}
            )
        document["credentials"] = [
            {
                "kind": p.kind.value,
                "token_hash": p.token_hash,
                "label": p.label,
                "created_at": _time(p.created_at),
                "expires_at": _time(p.expires_at),
                "grants": grants.get(p.id, []),
            }
            if p.game_deleted_at is None
            # The marker of a bot token deleted with its game (sevens.store.retention.delete_game):
            # its hash and when, nothing else, so that the bot is told the same after a move.
            else {"kind": p.kind.value, "token_hash": p.token_hash, "game_deleted_at": _time(p.game_deleted_at)}
            for p in db.scalars(select(ApiPrincipal).order_by(ApiPrincipal.id))
        ]
    return document


def merge(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """One document from several (a directory export has one per game, and one of credentials).

    >>> a = {"format": "sevens-backup", "version": 1, "full": False, "games": [{"id": "a"}], "credentials": []}
    >>> b = {"format": "sevens-backup", "version": 1, "full": False, "games": [{"id": "b"}], "credentials": []}
    >>> [g["id"] for g in merge([a, b])["games"]]
    ['a', 'b']
    """
    if not documents:
        raise Invalid("no backup documents found; pass a file or directory written by 'sevens export'")
    for doc in documents:
        _check_header(doc)
    fulls = {bool(d.get("full")) for d in documents}
    if len(fulls) != 1:
        raise Invalid("the documents mix full backups and shareable exports; import one kind at a time")
    for doc in documents:
        for key in ("games", "credentials"):
            if not isinstance(doc.get(key, []), list):
                raise Invalid(f"the backup's {key!r} is {_json_kind(doc[key])}, not a list; is it from 'sevens export'?")
    return {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "full": fulls.pop(),
        "games": [g for d in documents for g in d.get("games", [])],
        "credentials": [c for d in documents for c in d.get("credentials", [])],
    }


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words.

    >>> _json_kind(None), _json_kind([]), _json_kind(True), _json_kind(3)
    ('null', 'an array', 'a boolean', 'a number')
    """
    if value is None:
        return "null"
    kinds = ((bool, "a boolean"), ((int, float), "a number"), (str, "a string"), (list, "an array"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "an object")


LARGEST_NUMBER = 2**31 - 1
"""The largest whole number a backup may hold: every count it holds goes into an INTEGER column,
which PostgreSQL keeps in 32 bits (SQLite in 64, past which the import stopped with a traceback)."""


def _check_numbers(document: object) -> None:
    """Refuse, by its path, a whole number no database column of sevens can hold.

    >>> _check_numbers({"games": [{"order_log": [{"force": 10**30}]}]})
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: games[0].order_log[0].force: a number of 31 digits, larger than any in a backup (at most 2,147,483,647); import the export as 'sevens export' wrote it
    """
    stack: list[tuple[object, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, f"{path}.{key}" if path else str(key)) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((value[i], f"{path}[{i}]") for i in reversed(range(len(value))))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST_NUMBER:
            shown = f"a number of {len(str(abs(value))):,} digits" if abs(value) >= 10**12 else f"{value:,}"
            raise Invalid(f"{path}: {shown}, larger than any in a backup (at most {LARGEST_NUMBER:,}); "
                          "import the export as 'sevens export' wrote it")


def _check_header(document: object) -> None:
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise Invalid(f"not a Sevens backup: expected a JSON object with format {BACKUP_FORMAT!r}")
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > BACKUP_VERSION:
        raise Invalid(
            f"the backup is of version {version}, written by a newer sevens; this one reads version "
            f"{BACKUP_VERSION}: import it with the sevens that wrote it, or a later one"
        )
    if version != BACKUP_VERSION or not isinstance(version, int) or isinstance(version, bool):
        # Said in JSON's words ("version": true was taken for 1, None printed for a missing one).
        found = "it has no \"version\"" if "version" not in document else f"its \"version\" is {json.dumps(version)}"
        raise Invalid(
            f"the backup is of no version sevens wrote: {found}, and sevens writes {BACKUP_VERSION} (the first); "
            "it was edited or made by another program: export it again from the server it came from"
        )
    if not isinstance(document.get("full", False), bool):
        raise Invalid(f"the backup's \"full\" is {json.dumps(document['full'])}, not true or false; export it again "
                      "from the server it came from")


class AlreadyImported(Conflict):
    """The database holds the very games of the backup: an earlier import of it was done."""


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import restored."""

    games: int
    running: int
    credentials: int


def _seat_bots(value: Any, where: str) -> str | None:
    """A game's ``seat_bots`` as stored (absent in exports made before it was kept: None)."""
    if value is None:
        return None
    states = ("unclaimed", "released")
    if not isinstance(value, dict) or not all(
        isinstance(turn, str) and turn.isdigit() and isinstance(teams, dict)
        and all(isinstance(team, str) and state in states for team, state in teams.items())
        for turn, teams in value.items()
    ):
        raise Invalid(f"{where}: expected {{turn: {{team: 'unclaimed' or 'released'}}}}")
    return json.dumps(value, sort_keys=True) if value else None


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise Invalid(f"{where}: the field {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise Invalid(f"{where}.{key}: unexpected value {value!r}")
    return value


def _objects(value: object, where: str) -> list[tuple[str, dict[str, Any]]]:
    """The entries of a list the backup holds, each with its path, every one an object: a string or
    a number among a game's seats, turns or log lines stopped the import with a traceback.

    >>> _objects([{"player": "p1"}], "game x.seats")
    [('game x.seats[0]', {'player': 'p1'})]
    >>> _objects([{}, "p2"], "game x.seats")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: game x.seats[1]: expected an object, found a string; import the export as 'sevens export' wrote it
    """
    if not isinstance(value, list):
        raise Invalid(f"{where}: expected a list, found {_json_kind(value)}; import the export as 'sevens export' wrote it")
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise Invalid(f"{where}[{index}]: expected an object, found {_json_kind(entry)}; "
                          "import the export as 'sevens export' wrote it")
    return [(f"{where}[{index}]", entry) for index, entry in enumerate(value)]


_NULL = type(None)
_KIND_WORDS = {str: "a string", int: "a whole number", bool: "true or false", _NULL: "null"}
_SEAT = {"player": (str,), "name": (str, _NULL)}
_TURN = {"number": (int,), "reason": (str,)}
_EVENT = {"actor": (str,), "kind": (str,), "detail": (str,)}
_LOG_LINE = {"turn": (int,), "team": (str,), "player": (str,), "force": (int,), "flair": (int,), "ready": (bool,),
             "via": (str,), "at": (str, _NULL)}
_ORDER = {"turn": (int,), "team": (str,), "force": (int,), "flair": (int,), "ready": (bool,)}
"""The kinds of the fields of each entry of a game's lists, as :func:`export_backup` writes them
(times are read by ``_parse_time``, which names its own)."""


def _kinds(entries: list[tuple[str, dict[str, Any]]], fields: Mapping[str, tuple[type, ...]]) -> list[dict[str, Any]]:
    """The entries, each field of ``fields`` it holds checked to be of its kinds (JSON's ``true``
    is no number): a list or a number where text goes stopped the import with "cannot write the
    database ... check the path in --database-url", or with a TypeError's words.

    >>> _kinds([("game x.turns[0]", {"number": 3, "reason": ["deadline"]})], _TURN)
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: game x.turns[0].reason: expected a string, found an array; import the export as 'sevens export' wrote it
    """
    for place, entry in entries:
        for key, kinds in fields.items():
            value = entry.get(key)
            if key in entry and (not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)):
                expected = " or ".join(_KIND_WORDS[kind] for kind in kinds)
                raise Invalid(f"{place}.{key}: expected {expected}, found {_json_kind(value)}; "
                              "import the export as 'sevens export' wrote it")
    return [entry for _, entry in entries]


def _check_clock(data: dict[str, Any], where: str) -> None:
    """A turn clock and a paused time left as the server makes them: a clock of -3600 seconds made
    every later turn due before it opened, so the scheduler played the game out a turn a poll.

    >>> _check_clock({"turn_seconds": 0}, "game x")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: game x.turn_seconds: 0 seconds, where a turn's clock is 60 (1 minute) to 2,592,000 (30 days), or null for none; import the export as 'sevens export' wrote it
    """
    turn, left = data.get("turn_seconds"), data.get("paused_remaining")
    if turn is not None and not store.MIN_TURN_SECONDS <= turn <= store.MAX_TURN_SECONDS:
        raise Invalid(
            f"{where}.turn_seconds: {turn:,} seconds, where a turn's clock is {store.MIN_TURN_SECONDS} (1 minute) "
            f"to {store.MAX_TURN_SECONDS:,} (30 days), or null for none; import the export as 'sevens export' wrote it"
        )
    # No most: extensions add to a deadline, so a paused turn may have more than 30 days left.
    if left is not None and left < 0:
        raise Invalid(
            f"{where}.paused_remaining: {left:,} seconds, where a paused clock's time left is 0 or more, "
            "or null; import the export as 'sevens export' wrote it"
        )


def _bot(name: object, where: str) -> str:
    # A bot the server does not offer would only fail later, when a turn resolves.
    if not isinstance(name, str):
        raise Invalid(f"{where}: expected a bot's name, found {name!r}")
    try:
        return store.check_bot_name(name)
    except Invalid as exc:
        raise Invalid(f"{where}: {exc}") from None


def _check_against_record(data: dict[str, Any], status: GameStatus, state: Game, where: str) -> None:
    # The record has been replayed; a game's own fields must say the same, or the restored pages
    # would show a champion, a format or a state the record does not have.
    fmt = state.format
    told = {
        "players": fmt.players,
        "teams": fmt.teams,
        "teams_per_player": fmt.teams_per_player,
        "champion": state.champion,
        "current_turn": len(state.turns) + 1,
    }
    for key, want in told.items():
        if data.get(key) != want:
            raise Invalid(f"{where}.{key}: its record says {want!r}, the game says {data.get(key)!r}")
    finished = status == GameStatus.FINISHED
    if status == GameStatus.LOBBY or finished != state.finished:
        said = "played to its final" if state.finished else f"stopped after turn {len(state.turns)}"
        raise Invalid(f"{where}.status: the game says {status.value}, but its record is {said}")


def _restore_game(db: Session, data: dict[str, Any], *, full: bool, index: int, now: datetime) -> GameRow:
    where = f"games[{index}]"
    public_id = _field(data, "id", str, where)
    if not is_public_id(public_id):
        # The id is the game's address, and its file's name in a directory export: "../x" would
        # write outside the directory.
        named = f" ({quoted(data['name'])})" if isinstance(data.get("name"), str) else ""
        raise Invalid(
            f"{where}{named}: its id {quoted(public_id)} is not one sevens makes (12 letters, digits, "
            "'-' or '_'); import the export as 'sevens export' wrote it"
        )
    where = f"game {public_id}"
    try:
        status = GameStatus(_field(data, "status", str, where))
        visibility = Visibility(_field(data, "visibility", str, where))
    except ValueError as exc:
        raise Invalid(f"{where}: {exc}") from None
    secret = data.get("secret") if full else None
    if full and not isinstance(secret, dict):
        raise Invalid(f"{where}: a full backup holds a 'secret' object per game")
    seed = secret.get("seed") if secret is not None else data.get("revealed_seed")
    shown = data.get("revealed_seed")
    if shown is not None and shown != seed:
        raise Invalid(f"{where}.revealed_seed: it is not the game's seed; a backup shows the seed it holds")
    if not isinstance(seed, str):
        raise Invalid(
            f"{where} is {_STANDING.get(status, status.value)} and its seed is not in this export; "
            "restore it from a full backup ('sevens export --full')"
        )
    commitment = _field(data, "seed_sha256", str, where)
    if seed_commitment(seed) != commitment:
        raise Invalid(f"{where}: the seed does not match its commitment seed_sha256 (R14)")
    record = data.get("record")
    record_json: str | None = None
    if record is not None and not isinstance(record, dict):
        raise Invalid(f"{where}: its record is {_json_kind(record)}, not a game record (a JSON object)")
    if record is not None:
        try:
            # Every die thrown again (R14): from the revealed seed of a game that is over, or from
            # the full backup's secret seed of one still going on, which is kept secret.
            revealed = record.get("seed") is not None
            state, _ = replay_record(record, check_dice=True, secret_seed=None if revealed else seed)
        except RecordError as exc:
            raise Invalid(f"{where}: its record does not verify: {exc}") from None
        if state.id != commitment:
            raise Invalid(f"{where}: its record belongs to another game (seed_sha256 differs)")
        if state.finished or status == GameStatus.ENDED:
            try:  # every die thrown again from the seed (R14)
                replay_record(to_record(state, seed=seed, ended_early=not state.finished), check_dice=True)
            except (RecordError, ValueError) as exc:
                raise Invalid(f"{where}: its dice do not verify from its seed: {exc}") from None
        record_json = dumps(to_record(state, seed=None))
        _check_against_record(data, status, state, where)
    elif status not in (GameStatus.LOBBY, GameStatus.ENDED):
        raise Invalid(f"{where} is {status.value} but has no record")
    elif data.get("current_turn") != 0 or data.get("champion") is not None:
        raise Invalid(f"{where}: a game with no record has no open turn (current_turn 0) and no champion")
    default_bot = _bot(_field(data, "default_bot", str, where), f"{where}.default_bot")
    _kinds([(where, data)], {"turn_seconds": (int, _NULL), "paused_remaining": (int, _NULL)})
    _check_clock(data, where)
    deadline_at = _parse_time(data.get("deadline_at"), f"{where}.deadline_at")
    if deadline_at is not None and (deadline_at - now).total_seconds() > store.MAX_DEADLINE_AHEAD:
        # The server's own limit for a deadline (Extend, Set the deadline): its time left, once
        # paused, would not fit the column; near the year 9999, Extend failed.
        raise Invalid(
            f"{where}.deadline_at: {deadline_at.isoformat()} is more than {store.MAX_DEADLINE_AHEAD:,} seconds (68 years) "
            "from now, which no deadline the server sets is; import the export as 'sevens export' wrote it"
        )
    if secret:
        _kinds([(f"{where}.secret", secret)], {"organiser_link_hash": (str,)})
    game = GameRow(
        public_id=public_id,
        name=_field(data, "name", str, where),
        status=status,
        visibility=visibility,
        players=_field(data, "players", int, where),
        teams=_field(data, "teams", int, where),
        teams_per_player=_field(data, "teams_per_player", int, where),
        turn_seconds=data.get("turn_seconds"),
        default_bot=default_bot,
        # Backups made before the two were apart (schema 0010) have none: the default bot played both.
        default_autopilot=_bot(data.get("default_autopilot", default_bot), f"{where}.default_autopilot"),
        seed_hex=seed,
        seed_sha256=commitment,
        current_turn=_field(data, "current_turn", int, where),
        deadline_at=deadline_at,
        paused_remaining=data.get("paused_remaining"),
        # Not in a backup (the server's own note): a game being played is looked at by the next
        # poll, whose orders may all be ready (a turn left so when the backup was made).
        ready_check_at=now if status in (GameStatus.RUNNING, GameStatus.PAUSED) else None,
        record_json=record_json,
        seat_bots_json=_seat_bots(data.get("seat_bots"), f"{where}.seat_bots"),
        champion=data.get("champion"),
        created_at=_parse_time(data.get("created_at"), f"{where}.created_at"),
        started_at=_parse_time(data.get("started_at"), f"{where}.started_at"),
        ended_at=_parse_time(data.get("ended_at"), f"{where}.ended_at"),
        # A shareable export carries no link hashes: the restored game gets fresh, unknown ones
        # (the organiser reissues invites if anyone still needs one).
        organiser_link_hash=secret["organiser_link_hash"] if secret else hash_token(new_token()),
    )
    db.add(game)
    db.flush()
    invites = secret.get("invite_hashes", {}) if secret else {}
    if not isinstance(invites, dict):
        raise Invalid(f"{where}.secret.invite_hashes: expected an object, found {_json_kind(invites)}")
    _kinds([(f"{where}.secret.invite_hashes", invites)], dict.fromkeys(invites, (str,)))
    for seat in _kinds(_objects(_field(data, "seats", list, where), f"{where}.seats"), _SEAT):
        joined_at = _parse_time(seat.get("joined_at"), f"{where}.seats")
        if "joined_at" not in seat and seat.get("joined") is True:
            # A shareable export says that a seat was taken, not when (no page shows it): the
            # game's creation stands in.
            joined_at = game.created_at
        # Exports from before invites were used once: a joined seat's invite is used.
        used_at = _parse_time(seat["invite_used_at"], f"{where}.seats") if "invite_used_at" in seat else joined_at
        expires_at = _parse_time(seat.get("invite_expires_at"), f"{where}.seats")
        carried = invites.get(seat["player"])
        if carried and used_at is None and expires_at is None:
            # An open invite made before invites expired (schema 0003) would open its seat for
            # ever: it expires as migration 0008 gives such invites, counted from the import.
            expires_at = now + store.INVITE_LIFETIME
        db.add(
            SeatRow(
                game_id=game.id,
                player_id=seat["player"],
                name=seat.get("name"),
                invite_hash=carried or hash_token(new_token()),
                joined_at=joined_at,
                invite_used_at=used_at,
                invite_expires_at=expires_at,
            )
        )
    autopilots: dict[str, str | None] = {
        team: None if bot is None else _bot(bot, f"{where}.autopilots.{team}")
        for team, bot in _field(data, "autopilots", dict, where).items()
    }
    if record is not None:
        for team in record["teams"]:
            db.add(
                TeamRow(
                    game_id=game.id,
                    team_id=team["id"],
                    name=team["name"],
                    group=team["group"],
                    player_id=team["manager"],
                    autopilot=autopilots.get(team["id"]),
                )
            )
    # A shareable export holds neither (the organiser's alone); a full backup holds both.
    for turn in _kinds(_objects(_field(data, "turns", list, where), f"{where}.turns"), _TURN) if full or "turns" in data else []:
        db.add(
            TurnRow(
                game_id=game.id,
                number=turn["number"],
                reason=turn["reason"],
                resolved_at=_parse_time(turn["resolved_at"], f"{where}.turns"),
            )
        )
    for event in _kinds(_objects(_field(data, "events", list, where), f"{where}.events"), _EVENT) if full or "events" in data else []:
        db.add(
            EventRow(
                game_id=game.id,
                at=_parse_time(event["at"], f"{where}.events"),
                actor=event["actor"],
                kind=event["kind"],
                detail=event["detail"],
            )
        )
    log = _kinds(_objects(_field(data, "order_log", list, where), f"{where}.order_log"), _LOG_LINE)
    if secret:
        log += _kinds(_objects(secret.get("open_order_log", []), f"{where}.secret.open_order_log"), _LOG_LINE)
        if "discarded_order_log" in secret:
            discarded = _kinds(_objects(secret["discarded_order_log"], f"{where}.secret.discarded_order_log"), _LOG_LINE)
            log += [{**line, "discarded": True} for line in discarded]
        else:
            # A full backup from before the discarded lines were kept apart: they are among the
            # others, and its event log says which they are (as migration 0007 reads it).
            log = _mark_discarded(log, data.get("events") or [], where)
        for order in _kinds(_objects(secret.get("orders", []), f"{where}.secret.orders"), _ORDER):
            db.add(
                OrderRow(
                    game_id=game.id,
                    turn=order["turn"],
                    team_id=order["team"],
                    force=order["force"],
                    flair=order["flair"],
                    ready=order["ready"],
                    updated_at=_parse_time(order["updated_at"], f"{where}.orders"),
                )
            )
    # A shareable export's lines say neither when nor how they were sent (_log_dict): they stay in
    # the export's order, at the game's end (such an export restores only games that are over).
    for line in sorted(log, key=lambda e: (e.get("at") or "", e["turn"])):
        db.add(
            OrderLogRow(
                game_id=game.id,
                turn=line["turn"],
                team_id=line["team"],
                player_id=line["player"],
                force=line["force"],
                flair=line["flair"],
                ready=line["ready"],
                via=line.get("via", ""),
                at=_parse_time(line.get("at"), f"{where}.order_log") or game.ended_at or game.created_at,
                discarded=line.get("discarded", False) is True,
            )
        )
    db.flush()
    return game


_DISCARDED = re.compile(r"(p\d+)\b.*; its \d+ order\(s\) saved for turn (\d+) were discarded")
"""An event's detail saying a seat's saved orders were discarded (store.games writes it)."""


def _mark_discarded(log: list[dict[str, Any]], events: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """The log lines, those of orders discarded with their seat marked so: the seat's lines of the
    turn an event says its orders were discarded in, logged up to that event.

    >>> line = {"turn": 2, "player": "p4", "at": "2026-05-01T12:00:00+00:00"}
    >>> said = {"at": "2026-05-01T12:05:00+00:00", "kind": "seat to bots",
    ...         "detail": "p4 (Ann): 1 browser(s) or token(s) lost it; its teams play their bots; its 1 order(s) saved for turn 2 were discarded"}
    >>> [entry.get("discarded", False) for entry in _mark_discarded([line, {**line, "turn": 1}], [said], "game")]
    [True, False]
    """
    cuts: list[tuple[str, int, datetime]] = []
    for event in events:
        found = _DISCARDED.match(str(event.get("detail") or ""))
        if found and event.get("kind") in ("seat to bots", "seat signed out", "new invite"):
            when = _parse_time(event.get("at"), f"{where}.events")
            if when is not None:
                cuts.append((found.group(1), int(found.group(2)), when))
    marked = []
    for line in log:
        at = _parse_time(line.get("at"), f"{where}.order_log") if cuts else None
        gone = at is not None and any(
            line.get("player") == seat and line.get("turn") == turn and at <= when for seat, turn, when in cuts
        )
        marked.append({**line, "discarded": True} if gone else line)
    return marked


def import_backup(db: Session, *, document: dict[str, Any], now: datetime) -> ImportReport:
    """Restore a backup into an empty database; every record is replayed and checked first.
    ``now``: the import's time, from which an open invite without an expiry (made before
    invites expired) gets one.

    Raises:
        AlreadyImported: the database holds the backup's games already (it was imported before).
        Conflict: the database already holds games or credentials.
        Invalid: the document is not a backup, a record does not verify, or a lobby or running
            game comes from a shareable export (its seed is only in a full backup).
    """
    _check_header(document)
    _check_numbers(document)
    games_held = store.count_games(db)
    # Not the markers of tokens deleted with their game: they open nothing (a database left with
    # only those is as good as empty), and the backup's own replace them.
    credentials_held = int(
        db.scalar(select(func.count()).select_from(ApiPrincipal).where(ApiPrincipal.game_deleted_at.is_(None))) or 0
    )
    if games_held or credentials_held:
        held = set(db.scalars(select(GameRow.public_id)))
        games = document.get("games")
        backed_up = {g.get("id") for g in games if isinstance(g, dict)} if isinstance(games, list) else set()
        if held and held == backed_up:
            # Run again after an import stopped once it had committed (a killed job, a lost terminal).
            raise AlreadyImported(
                f"the database already holds every game of this backup ({_count(games_held, 'game')} and "
                f"{_count(credentials_held, 'credential')}): it is the database the backup was made from, or the backup "
                "was imported into it already (by an import stopped after it was done?); there is nothing to do"
            )
        # Counted, so that whoever named the wrong database sees what is in it.
        raise Conflict(f"the database already holds {_count(games_held, 'game')} and "
                       f"{_count(credentials_held, 'credential')}: import restores into an empty database only")
    full = bool(document.get("full"))
    games = document.get("games")
    if not isinstance(games, list):
        raise Invalid("the backup has no list of games")
    by_public: dict[str, int] = {}
    seats_of: dict[str, set[str]] = {}  # each game's seats, that a player's grant must name one of
    running = 0
    rematches: list[tuple[GameRow, object]] = []
    for index, data in enumerate(games):
        if not isinstance(data, dict):
            raise Invalid(f"games[{index}] is not an object")
        try:
            game = _restore_game(db, data, full=full, index=index, now=now)
        except KeyError as exc:  # a field the reading takes for granted, not there
            raise Invalid(f"games[{index}] ({quoted(str(data.get('id')))}): the field {quoted(str(exc.args[0]))} is missing "
                          "from one of its entries; import the export as 'sevens export' wrote it") from None
        by_public[game.public_id] = game.id
        seats_of[game.public_id] = {seat["player"] for seat in data["seats"]}
        running += game.status in _OPEN
        rematches.append((game, data.get("rematch")))  # absent in backups from before rematches
    for game, rematch in rematches:
        if rematch is None:
            continue
        if not isinstance(rematch, str) or rematch not in by_public:
            raise Invalid(
                f"game {game.public_id}: its rematch {quoted(str(rematch))} is not in the backup; "
                "import the export of both games together"
            )
        game.rematch_id = by_public[rematch]
    entries = [entry for _, entry in _objects(document.get("credentials") or [], "credentials")]
    markers = [isinstance(e, dict) and "game_deleted_at" in e for e in entries]
    for index, (entry, marker) in enumerate(zip(entries, markers, strict=True)):
        if not marker:
            _check_credential(entry, index)
    live = {e.get("token_hash") for e, marker in zip(entries, markers, strict=True) if not marker and isinstance(e, dict)}
    skip = _markers_kept(db, live=live) | live
    credentials = 0
    for index, (entry, marker) in enumerate(zip(entries, markers, strict=True)):  # in the backup's order
        if marker:
            _restore_marker(db, entry, index=index, skip=skip)
            continue
        credentials += 1
        try:
            _restore_credential(db, entry, index=index, by_public=by_public, seats_of=seats_of)
        except KeyError as exc:  # a field the reading takes for granted, not there
            raise Invalid(f"credentials[{index}]: the field {quoted(str(exc.args[0]))} is missing from it or from one of "
                          "its grants; import the export as 'sevens export' wrote it") from None
    db.flush()
    return ImportReport(games=len(games), running=running, credentials=credentials)


def _seat_order(seat: str) -> tuple[int, str]:
    """p2 before p10."""
    digits = seat.removeprefix("p")
    return (int(digits), seat) if digits.isdigit() else (1 << 30, seat)


_TOKEN_HASH = re.compile(r"[0-9a-f]{64}")
"""A token as stored (:func:`~sevens.store.secrets.hash_token`): its SHA-256 in hex."""


def _check_credential(entry: dict[str, Any], index: int) -> None:
    """Refuse, by its path, a live credential's field missing or of a kind :func:`export_backup`
    never writes. A list or an object there stopped the import with "TypeError(...) is missing or of
    the wrong kind", a list as its label or player with "cannot write the database ... check the
    path in --database-url", and a null player or a number as its hash was imported as it was.

    >>> _check_credential({"kind": "bot", "token_hash": "0" * 64, "label": "", "created_at": "2026-01-01T00:00:00+00:00",
    ...                    "grants": [{"game": "g", "role": "player", "player": None}]}, 2)
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: credentials[2].grants[0].player: expected a string, found null; import the export as 'sevens export' wrote it
    """
    where = f"credentials[{index}]"

    def text(data: dict[str, Any], key: str, at: str) -> str:
        if key not in data:
            raise Invalid(f"{at}: the field {quoted(key)} is missing; import the export as 'sevens export' wrote it")
        value = data[key]
        if not isinstance(value, str):
            raise Invalid(f"{at}.{key}: expected a string, found {_json_kind(value)}; "
                          "import the export as 'sevens export' wrote it")
        return value

    kind = text(entry, "kind", where)
    if kind not in {k.value for k in PrincipalKind}:
        kinds = ", ".join(quoted(k.value) for k in PrincipalKind)
        raise Invalid(f"{where}.kind is {quoted(kind)}: a credential is one of {kinds}")
    if not _TOKEN_HASH.fullmatch(text(entry, "token_hash", where)):
        raise Invalid(f"{where}.token_hash: expected the token's SHA-256, 64 hex digits; "
                      "import the export as 'sevens export' wrote it")
    text(entry, "label", where)
    _parse_time(text(entry, "created_at", where), f"{where}.created_at")
    _parse_time(entry.get("expires_at"), f"{where}.expires_at")
    if "grants" not in entry:
        raise Invalid(f"{where}: the field 'grants' is missing; import the export as 'sevens export' wrote it")
    seen: dict[tuple[str, str, str], str] = {}
    for place, grant in _objects(entry["grants"], f"{where}.grants"):
        game = text(grant, "game", place)
        role = text(grant, "role", place)
        if role not in {r.value for r in Role}:
            roles = ", ".join(quoted(r.value) for r in Role)
            raise Invalid(f"{place}.role is {quoted(role)}: a grant's role is one of {roles}")
        # An organiser's grant is stored with the player "" (the API shows it as null): "" is no
        # seat's id, and unlike NULL it keeps a credential to one organiser grant a game (the
        # table's unique constraint treats NULLs as all different, on SQLite and PostgreSQL alike).
        player = "" if role == "organiser" and grant.get("player", "") is None else text(grant, "player", place)
        if role == "organiser" and player:
            raise Invalid(f"{place}.player is {quoted(player)}: an organiser's grant names no seat; write null "
                          "(or \"\", as the export does), or make it a player's grant")
        if not player and role == "player":
            raise Invalid(f"{place}.player is empty: a player's grant names the seat it plays ('p1', 'p2', ...)")
        first = seen.setdefault((game, role, player), place)
        if first != place:
            what = f"seat {player}" if player else "organising"
            raise Invalid(f"{place} repeats {first} ({what} of game {quoted(game)}): a credential holds each grant "
                          "once; remove one")


def _restore_credential(
    db: Session, entry: dict[str, Any], *, index: int, by_public: dict[str, int], seats_of: dict[str, set[str]]
) -> None:
    """One live credential and its grants, as :func:`export_backup` wrote them (checked first:
    :func:`_check_credential`); a player's grant must name a seat its game has (``seats_of``)."""
    principal = ApiPrincipal(
        kind=PrincipalKind(entry["kind"]),
        token_hash=entry["token_hash"],
        label=entry["label"],
        created_at=_parse_time(entry["created_at"], "credentials.created_at"),
        expires_at=_parse_time(entry["expires_at"], "credentials.expires_at"),
    )
    db.add(principal)
    db.flush()
    for place, grant in _objects(entry["grants"], f"credentials[{index}].grants"):
        if grant["game"] not in by_public:
            raise Invalid(f"{place}.game is {quoted(grant['game'])}, which is no game of the backup: import the export "
                          "that holds it with this one, or remove the grant")
        seats = seats_of[grant["game"]]
        if grant["role"] == "player" and grant["player"] not in seats:
            # Imported, it played a seat no page or turn knows of.
            raise Invalid(f"{place}.player is {quoted(grant['player'])}: game {quoted(grant['game'])} has no such seat "
                          f"(its seats are {', '.join(sorted(seats, key=_seat_order))}); name one of them, or remove the grant")
        db.add(
            Grant(
                principal_id=principal.id,
                game_id=by_public[grant["game"]],
                role=Role(grant["role"]),
                player_id=grant.get("player") or "",  # the organiser's null as it is stored
            )
        )


def _markers_kept(db: Session, *, live: set[Any]) -> set[str]:
    """The hashes of the markers the database holds (left by its own deletions: an import goes
    ahead with them), but for those whose token the backup restores live: the token replaces them."""
    rows = db.execute(select(ApiPrincipal.token_hash, ApiPrincipal.id).where(ApiPrincipal.game_deleted_at.is_not(None)))
    held: dict[str, int] = {token_hash: principal_id for token_hash, principal_id in rows}
    stale = [principal_id for token_hash, principal_id in held.items() if token_hash in live]
    if stale:
        db.execute(delete(ApiPrincipal).where(ApiPrincipal.id.in_(stale)))
    return set(held) - live


def _restore_marker(db: Session, entry: dict[str, Any], *, index: int, skip: set[Any]) -> None:
    """The marker of a bot token deleted with its game, as it was (:func:`export_backup`): its hash,
    and when the game was deleted, from which the tidy removes it. None is made twice for a hash."""
    token_hash = entry.get("token_hash")
    if not isinstance(token_hash, str) or not _TOKEN_HASH.fullmatch(token_hash):
        raise Invalid(f"credentials[{index}]: a deleted token's marker needs its token_hash, 64 hex digits; is it from 'sevens export --full'?")
    when = _parse_time(entry["game_deleted_at"], f"credentials[{index}].game_deleted_at")
    if when is None:
        raise Invalid(f"credentials[{index}]: a deleted token's marker needs game_deleted_at, the time its game was deleted")
    if token_hash in skip:
        return
    db.add(ApiPrincipal(kind=PrincipalKind.BOT, token_hash=token_hash, label="", created_at=when, game_deleted_at=when))
    db.flush()
    skip.add(token_hash)


def _count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one.

    >>> _count(1, "game"), _count(0, "credential"), _count(3, "game")
    ('1 game', '0 credentials', '3 games')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
