"""A server's worth of games at every stage, played through the store as the web app plays them,
for the tests of `sevens export` and `sevens import` (tests/docs, tests/cli)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, select

from sevens.store import games as store
from sevens.store.auth import add_grant, create_principal
from sevens.store.db import make_sessionmaker, session_scope
from sevens.store.models import GameRow, GameStatus, PrincipalKind, Role, TeamRow, Visibility
from sevens.store.retention import delete_game

__all__ = ["NOW", "Played", "play_every_stage"]

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@dataclass
class Played:
    """What a restore must keep working: each game's public id, organiser link and invites by the
    stage's name, the tokens, and the open orders saved (game name: {team: (force, flair, ready)})."""

    ids: dict[str, str] = field(default_factory=dict)
    organiser: dict[str, str] = field(default_factory=dict)
    invites: dict[str, dict[str, str]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    open_orders: dict[str, dict[str, tuple[int, int, bool]]] = field(default_factory=dict)
    deleted: str = ""


def _order(db, game_id: int, team: TeamRow, turn: int, force: int, ready: bool, at: datetime) -> None:  # type: ignore[no-untyped-def]
    store.save_order(db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id, turn=turn,
                     force=force, flair=3 * (force % 4), ready=ready, via="web", now=at)


def _in_play(db, game_id: int) -> list[TeamRow]:  # type: ignore[no-untyped-def]
    state = store.load_game(store.game_by_id(db, game_id=game_id))
    rows = db.scalars(select(TeamRow).where(TeamRow.game_id == game_id).order_by(TeamRow.team_id))
    return [t for t in rows if t.team_id in state.teams_in_play()]


def play_every_stage(engine: Engine) -> Played:
    """Games in the lobby, mid-turn in the groups (some orders saved, one seat handed to the bots
    with its orders discarded), mid-turn in the knock-outs (some saved), paused, over (played to
    the final, and ended early with orders of its last turn saved), a rematch, a private game (its
    first turn open, some orders saved), and one deleted with its bot token; a browser session
    organising and a bot token playing."""
    factory = make_sessionmaker(engine)
    played = Played()
    made: dict[str, int] = {}
    with session_scope(factory) as db:
        for name in ("lobby", "groups", "knockouts", "paused", "finished", "ended", "private", "deleted"):
            seen = Visibility.PRIVATE if name == "private" else Visibility.PUBLIC
            spec = store.NewGame(f"{name} <cup> ☃", 4, 8, 2, 3600, "even", seen)
            created = store.create_game(db, spec=spec, now=NOW)
            made[name] = created.game.id
            played.ids[name] = created.game.public_id
            played.organiser[name] = created.organiser_token
            played.invites[name] = dict(created.invites)
            seats = store.seats_of(db, game_id=created.game.id)
            for seat in seats if name != "lobby" else seats[:2]:  # the lobby still waits for two
                store.join_seat(db, seat=seat, name=f"Ann {seat.player_id}", now=NOW)
            if name != "lobby":
                store.start_game(db, game_id=created.game.id, now=NOW)
        browser, cookie = create_principal(db, kind=PrincipalKind.SESSION, now=NOW, ttl=timedelta(days=60))
        bot, token = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="Ann's bot")
        gone, gone_token = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="Bob's bot")
        for name in ("groups", "knockouts", "ended"):
            add_grant(db, principal_id=browser.id, game_id=made[name], role=Role.ORGANISER)
        add_grant(db, principal_id=bot.id, game_id=made["groups"], role=Role.PLAYER, player_id="p1")
        add_grant(db, principal_id=gone.id, game_id=made["deleted"], role=Role.PLAYER, player_id="p2")
        played.tokens = {"session": cookie, "bot": token, "deleted bot": gone_token}
    later = NOW + timedelta(minutes=5)
    with session_scope(factory) as db:
        for name in ("groups", "knockouts", "finished", "ended"):
            for i, team in enumerate(_in_play(db, made[name])[:3]):  # the rest left to their autopilots
                _order(db, made[name], team, 1, 7 + i, True, NOW)
    with session_scope(factory) as db:
        for turn in (1, 2, 3):  # the three group turns: the semi-finals are open then
            store.resolve_turn(db, game_id=made["knockouts"], turn=turn, reason="organiser", now=NOW)
        for turn in range(1, 6):
            store.resolve_turn(db, game_id=made["finished"], turn=turn, reason="deadline", now=NOW)
        store.resolve_turn(db, game_id=made["ended"], turn=1, reason="organiser", now=NOW)
        store.resolve_turn(db, game_id=made["groups"], turn=1, reason="organiser", now=NOW)
        store.resolve_turn(db, game_id=made["paused"], turn=1, reason="organiser", now=NOW)
    with session_scope(factory) as db:
        for name, turn in (("groups", 2), ("knockouts", 4), ("ended", 2), ("private", 1)):
            # Not p4's teams: the seat is handed to the bots below, and its orders go with it.
            teams = [team for team in _in_play(db, made[name]) if team.player_id != "p4"]
            saved = {}
            for i, team in enumerate(teams[: len(teams) // 2]):  # some orders, not all
                _order(db, made[name], team, turn, 10 + i, i % 2 == 0, later)
                saved[team.team_id] = (10 + i, 3 * ((10 + i) % 4), i % 2 == 0)
            played.open_orders[name] = saved
        # p4's saved orders go with its seat: never played, never shown.
        p4 = [t for t in _in_play(db, made["groups"]) if t.player_id == "p4"]
        for team in p4:
            _order(db, made["groups"], team, 2, 25, False, later)
        store.release_seat(db, game_id=made["groups"], player_id="p4", now=later)
        store.set_house_bot(db, game_id=made["groups"], team_id=p4[0].team_id, strategy="equilibrium@0.4", now=later)
        p1 = next(t for t in _in_play(db, made["groups"]) if t.player_id == "p1")
        store.set_autopilot(db, game_id=made["groups"], player_id="p1", team_id=p1.team_id, strategy="field-reader@1",
                            now=later)
        store.pause_game(db, game_id=made["paused"], now=later, actor="organiser")
        store.end_game(db, game_id=made["ended"], now=later, actor="organiser")
        rematch = store.start_rematch(db, game_id=made["ended"], principal_id=browser.id, now=later, actor="organiser")
        played.ids["rematch"] = rematch.created.game.public_id
        played.organiser["rematch"] = rematch.created.organiser_token
        delete_game(db, game_id=made["deleted"], now=later)
        played.deleted = played.ids.pop("deleted")
    with factory() as db:
        status = {g.public_id: g.status for g in db.scalars(select(GameRow))}
        assert status[played.ids["finished"]] == GameStatus.FINISHED
        assert status[played.ids["knockouts"]] == GameStatus.RUNNING and played.deleted not in status
        knockouts = store.load_game(store.game_by_public_id(db, public_id=played.ids["knockouts"]))
        assert len(knockouts.turns) == 3 and not knockouts.finished
    return played
