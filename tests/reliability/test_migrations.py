"""Migrations applied forward from the first schema on a database holding data; SQLite in WAL mode."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, MetaData, inspect, select, text
from sqlalchemy.orm import Session, sessionmaker

from reliability.helpers import check_game
from sevens.store import games as store
from sevens.store import migrations
from sevens.store.auth import InviteState, invite_state
from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
from sevens.store.models import Base, GameRow, OrderRow, SeatRow, TeamRow, Visibility
from sevens.store.ratelimit import count_failure
from sevens.store.secrets import keyed_hash
from sevens.store.testing import backends, throwaway_database
from sevens.web.app import create_app
from sevens.web.scheduler import resolve_all_ready
from sevens.web.settings import Settings

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _dump(engine: Engine) -> dict[str, list[dict[str, object]]]:
    """Every row of every table the database has now (its own columns), in primary-key order."""
    tables = MetaData()
    tables.reflect(bind=engine)
    with engine.connect() as connection:
        return {
            name: [dict(r._mapping) for r in connection.execute(t.select().order_by(*t.primary_key.columns))]
            for name, t in tables.tables.items()
            if name != "alembic_version"
        }


def _copy(source: Engine, target: Engine) -> None:
    """Every row of ``source`` into ``target``, keeping the columns ``target``'s older schema has."""
    columns = {name: {c["name"] for c in inspect(target).get_columns(name)} for name in inspect(target).get_table_names()}
    with source.connect() as read, target.begin() as write:
        for table in Base.metadata.sorted_tables:
            rows = [dict(r._mapping) for r in read.execute(table.select())]
            if not rows:
                continue
            assert table.name in columns, f"{table.name} has rows but no table in the old schema"
            write.execute(table.insert(), [{k: v for k, v in row.items() if k in columns[table.name]} for row in rows])
            if target.dialect.name == "postgresql":  # ids were given: move each sequence past them
                write.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), (SELECT max(id) FROM {table.name}))")
                )


def _head() -> str:
    """The newest revision shipped (migration files are numbered)."""
    versions = Path(migrations.__file__).parent / "versions"
    return max(p.name[:4] for p in versions.glob("[0-9][0-9][0-9][0-9]_*.py"))


def _down_to(engine: Engine, revision: str) -> None:
    """Take the database down to ``revision`` with Alembic, as an operator going back would."""
    from alembic import command

    from sevens.store.db import _alembic_config

    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _started_with_orders(factory: sessionmaker[Session], name: str) -> int:
    """A 4-player game with every seat taken, started, and every team's order saved for turn 1."""
    with session_scope(factory) as db:
        spec = store.NewGame(name, 4, 8, 2, 3600, "even", Visibility.PUBLIC)
        game_id = store.create_game(db, spec=spec, now=NOW).game.id
        for seat in store.seats_of(db, game_id=game_id):
            store.join_seat(db, seat=seat, name=f"Name {seat.player_id}", now=NOW)
        store.start_game(db, game_id=game_id, now=NOW)
    with session_scope(factory) as db:
        for team in db.scalars(select(TeamRow).where(TeamRow.game_id == game_id)):
            store.save_order(
                db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id,
                turn=1, force=4, flair=3, ready=False, via="api", now=NOW,
            )
    return game_id


def _play_some(engine: Engine) -> int:
    factory = make_sessionmaker(engine)
    game_id = _started_with_orders(factory, "Old schema cup")
    with session_scope(factory) as db:
        assert store.resolve_turn(db, game_id=game_id, turn=1, reason="organiser", now=NOW)
    with session_scope(factory) as db:  # an open turn with a saved order, too
        team = db.scalars(select(TeamRow).where(TeamRow.game_id == game_id)).first()
        assert team is not None
        store.save_order(
            db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id,
            turn=2, force=2, flair=6, ready=True, via="web", now=NOW + timedelta(minutes=1),
        )
    return game_id


@pytest.mark.parametrize("backend", backends())
def test_migrations_forward_from_first_schema_keep_data(backend: str, tmp_path: Path) -> None:
    """Issue 6: the migrations run forward from revision 0001 on a database holding a game in play;
    every row survives, the schema then matches the models, and the game goes on."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0001")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0001"
        # The game is played on the newest schema, then its rows are copied into the old one.
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        game_id = _play_some(played)
        _copy(played, engine)
        played.dispose()
        before = _dump(engine)
        assert before["orders"] and before["order_log"] and before["turns"]
        run_migrations(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == _head()
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        after = _dump(engine)
        for name, rows in before.items():
            assert [{k: row[k] for k in rows[0]} for row in after[name]] == rows if rows else after[name] == [], name
        # 0003: a seat joined before invites were single-use has its invite used at its joining.
        assert all(seat["invite_used_at"] == seat["joined_at"] for seat in after["seats"])
        assert all(seat["invite_used_at"] is not None for seat in after["seats"])
        # 0005: no game migrated knows a rematch (nothing recorded one before).
        assert [game["rematch_id"] for game in after["games"]] == [None]
        # 0006: no turn resolved before it says who played a seat nobody held (nothing kept it);
        # the next turn resolved does (every seat is taken here: no team is noted).
        assert [game["seat_bots_json"] for game in after["games"]] == [None]
        check_game(engine, game_id)
        with session_scope(make_sessionmaker(engine)) as db:
            assert store.resolve_turn(db, game_id=game_id, turn=2, reason="organiser", now=NOW)
            game = db.get(GameRow, game_id)
            assert game is not None and store.seat_bots(game) == {2: {}}
        check_game(engine, game_id)
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_games_of_the_first_versions_play_on_though_their_records_have_no_draw(backend: str, tmp_path: Path) -> None:
    """The first versions (schema 0001 and 0002) wrote each game's record without ``draw``: their
    groups were not drawn from the seed. With such a database every page of a game started then
    failed after the upgrade ('draw: expected null, found nothing'), and its open turn could not be
    resolved. Now the game plays on, its saved orders count, and its record reads as drawn otherwise."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0001")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        game_id = _play_some(played)
        _copy(played, engine)
        played.dispose()
        with engine.begin() as connection:  # as the first versions wrote it
            stored = connection.execute(text("SELECT record_json FROM games WHERE id = :id"), {"id": game_id}).scalar()
            record = json.loads(stored)
            del record["draw"]
            connection.execute(
                text("UPDATE games SET record_json = :r WHERE id = :id"), {"r": json.dumps(record), "id": game_id}
            )
        run_migrations(engine)
        factory = make_sessionmaker(engine)
        with session_scope(factory) as db:
            saved = db.scalars(select(OrderRow).where(OrderRow.game_id == game_id, OrderRow.turn == 2)).one()
            assert store.resolve_turn(db, game_id=game_id, turn=2, reason="organiser", now=NOW)
        check_game(engine, game_id)
        with factory() as db:
            game = db.get(GameRow, game_id)
            assert game is not None
            record = store.record_of(game)
        assert record["draw"] is None
        orders = {m[f"{side}"]: m[f"{side}_order"] for m in record["turns"][1]["matches"] for side in ("home", "away")}
        assert orders[saved.team_id] == {"force": 2, "flair": 6, "missed": False, "autopilot": None}
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0007_marks_the_order_lines_discarded_before_it(backend: str, tmp_path: Path) -> None:
    """R13: orders discarded with their seat before 0007 left plain lines in the order log, which a
    shareable export would list once their turn was resolved. The migration marks them from the
    event log that said so (that seat's lines of that turn, up to the event), and no other line:
    not the seat's new holder's order after it, nor another seat's."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0006")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        factory = make_sessionmaker(played)
        game_id = _started_with_orders(factory, "Discarded cup")
        later = NOW + timedelta(minutes=1)
        with session_scope(factory) as db:
            store.reissue_invite(db, game_id=game_id, player_id="p2", now=later, sign_out=True)
        with session_scope(factory) as db:
            for team in db.scalars(select(TeamRow).where(TeamRow.game_id == game_id, TeamRow.player_id == "p2")):
                store.save_order(  # the seat's new holder, after the discard
                    db, game_id=game_id, player_id="p2", team_id=team.team_id,
                    turn=1, force=9, flair=0, ready=False, via="web", now=later + timedelta(minutes=1),
                )
        _copy(played, engine)
        played.dispose()
        run_migrations(engine)
        lines = _dump(engine)["order_log"]
        marked = sorted((line["player_id"], line["force"]) for line in lines if line["discarded"])
        assert marked == [("p2", 4), ("p2", 4)], lines
        assert sum(not line["discarded"] for line in lines) == len(lines) - 2
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0008_gives_the_invites_made_before_0003_an_expiry(backend: str, tmp_path: Path) -> None:
    """Invites made before 0003 had no expiry, and 0003 gave them none: an open one opened its seat
    for ever. 0008 gives each unused one 14 days from the upgrade (a new invite's default), so it
    still opens its seat now and no longer after; a seat already taken keeps its used invite as it
    was, and an invite that had an expiry keeps it."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0002")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        factory = make_sessionmaker(played)
        with session_scope(factory) as db:
            spec = store.NewGame("Old invites cup", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
            game_id = store.create_game(db, spec=spec, now=NOW).game.id
            store.join_seat(db, seat=store.seats_of(db, game_id=game_id)[0], name="Ann", now=NOW)
        _copy(played, engine)  # without the invites' two columns, as before 0003
        played.dispose()
        run_migrations(engine, revision="0007")
        with engine.begin() as connection:  # one invite reissued after 0003: it has its expiry
            # Written as the store's reissue_invite does, on the seats table alone: the models
            # are the newest schema's, which 0007's games table is not.
            seats = SeatRow.__table__
            connection.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.player_id == "p4")
                .values(invite_expires_at=NOW + timedelta(days=2), invite_used_at=None)
            )
        before = datetime.now(UTC)
        run_migrations(engine)
        after = datetime.now(UTC)
        with session_scope(make_sessionmaker(engine)) as db:
            seats = {seat.player_id: seat for seat in store.seats_of(db, game_id=game_id)}
            assert seats["p1"].invite_expires_at is None and seats["p1"].invite_used_at == NOW
            assert invite_state(seats["p1"], now=after) is InviteState.USED
            assert seats["p4"].invite_expires_at == NOW + timedelta(days=2)
            for seat in (seats["p2"], seats["p3"]):
                expires = seat.invite_expires_at
                assert expires is not None
                assert before + timedelta(days=14) - timedelta(seconds=1) <= expires <= after + timedelta(days=14)
                assert invite_state(seat, now=after) is InviteState.OPEN
                assert invite_state(seat, now=after + timedelta(days=14)) is InviteState.EXPIRED
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0009_widens_the_name_columns_and_keeps_the_names(backend: str, tmp_path: Path) -> None:
    """Names are counted in characters as shown, up to four code points each: 0009 widens the
    columns (40 and 80 code points, which PostgreSQL enforced) and keeps every row as it was; a game
    of 0008 then takes a name of 40 flags (80 code points)."""
    flags = "\U0001f1eb\U0001f1ef" * 40
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0008")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        with session_scope(make_sessionmaker(played)) as db:
            spec = store.NewGame("Jos\u00e9's cup", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
            game_id = store.create_game(db, spec=spec, now=NOW).game.id
            store.join_seat(db, seat=store.seats_of(db, game_id=game_id)[0], name="Ann", now=NOW)
        _copy(played, engine)
        played.dispose()
        before = _dump(engine)
        run_migrations(engine)
        after = _dump(engine)
        assert {name: [{k: row[k] for k in rows[0]} for row in after[name]] for name, rows in before.items() if rows} == {
            name: rows for name, rows in before.items() if rows
        }
        with session_scope(make_sessionmaker(engine)) as db:
            store.join_seat(db, seat=store.seats_of(db, game_id=game_id)[1], name=flags, now=NOW)
        with session_scope(make_sessionmaker(engine)) as db:
            assert [seat.name for seat in store.seats_of(db, game_id=game_id)][:2] == ["Ann", flags]
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0010_gives_each_game_its_default_bot_as_its_default_autopilot(backend: str, tmp_path: Path) -> None:
    """A game's default bot played both its house teams and its managers' missed orders before
    0010 split them: the games there then get their default bot as their default autopilot, so
    they play on as before (a missed order in play is still its default bot's), every other row
    kept. Going down drops the column and keeps the rest; going up again fills it again."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0009")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        factory = make_sessionmaker(played)
        with session_scope(factory) as db:
            spec = store.NewGame("Hard field", 4, 8, 2, 3600, "table-reader", Visibility.PUBLIC, "even")
            lobby = store.create_game(db, spec=spec, now=NOW).game.id
        game_id = _started_with_orders(factory, "Old bots cup")
        with session_scope(factory) as db:  # every game there had one setting for both
            for game in db.scalars(select(GameRow)):
                game.default_bot = "field-reader@1" if game.id == game_id else "table-reader"
        _copy(played, engine)  # without default_autopilot, as before 0010
        played.dispose()
        before = _dump(engine)
        assert "default_autopilot" not in before["games"][0]
        run_migrations(engine)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        after = _dump(engine)
        assert [{k: row[k] for k in before[name][0]} for name in before if before[name] for row in after[name]] == [
            row for name in before if before[name] for row in before[name]
        ]
        assert {g["id"]: (g["default_bot"], g["default_autopilot"]) for g in after["games"]} == {
            lobby: ("table-reader", "table-reader"),
            game_id: ("field-reader@1", "field-reader@1"),
        }
        factory = make_sessionmaker(engine)
        with session_scope(factory) as db:  # p1's seat taken, its turn-2 orders missed: the default bot's
            assert store.resolve_turn(db, game_id=game_id, turn=1, reason="organiser", now=NOW)
            assert store.resolve_turn(db, game_id=game_id, turn=2, reason="organiser", now=NOW)
            game = db.get(GameRow, game_id)
            assert game is not None
            record = store.record_of(game)
        bots = {o["autopilot"] for m in record["turns"][1]["matches"] for o in (m["home_order"], m["away_order"])}
        assert bots == {"field-reader@1"}
        check_game(engine, game_id)

        _down_to(engine, "0009")
        down = _dump(engine)
        assert "default_autopilot" not in down["games"][0]
        assert [g["default_bot"] for g in down["games"]] == ["table-reader", "field-reader@1"]
        with engine.begin() as connection:  # the older version plays both by the default bot again
            connection.execute(text("UPDATE games SET default_bot = 'even'"))
        run_migrations(engine)
        assert [(g["default_bot"], g["default_autopilot"]) for g in _dump(engine)["games"]] == [("even", "even")] * 2
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0011_forgets_the_plain_hashes_of_addresses_both_ways(backend: str, tmp_path: Path) -> None:
    """Before 0011 the rate-limit rows held each address's plain SHA-256, which anyone with the
    rows could reverse. Going up deletes them (they cannot be rewritten without the addresses) and
    the next count is keyed; going down deletes the keyed rows and the key, and the older version
    counts again with plain hashes; up again works on what that left."""
    plain = hashlib.sha256(b"203.0.113.7").hexdigest()
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0010")
        with engine.begin() as connection:  # as the older version counted
            connection.execute(text("INSERT INTO failed_attempts (client_hash, at) VALUES (:h, 1.0)"), {"h": plain})
        run_migrations(engine)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        assert _dump(engine)["failed_attempts"] == [] and _dump(engine)["server_keys"] == []
        assert count_failure(engine, client="203.0.113.7", at=2.0, window=60) == 1
        (row,) = _dump(engine)["failed_attempts"]
        (key,) = _dump(engine)["server_keys"]
        assert row["client_hash"] == keyed_hash(bytes.fromhex(str(key["key_hex"])), "203.0.113.7") != plain

        _down_to(engine, "0010")
        down = _dump(engine)
        assert "server_keys" not in down and down["failed_attempts"] == []
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO failed_attempts (client_hash, at) VALUES (:h, 3.0)"), {"h": plain})
        run_migrations(engine)
        assert _dump(engine)["failed_attempts"] == []
        assert count_failure(engine, client="203.0.113.7", at=4.0, window=60) == 1
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0013_markers_of_deleted_games_tokens_both_ways(backend: str, tmp_path: Path) -> None:
    """0013 adds principals.game_deleted_at as the models have it; going down removes the markers
    (the older version would take them for live tokens) and keeps every other credential; up again
    works on what that left."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0012")
        insert = text(
            "INSERT INTO principals (kind, token_hash, label, created_at) VALUES ('bot', :h, :label, :at)"
        )
        with engine.begin() as connection:
            connection.execute(insert, {"h": "a" * 64, "label": "Ann", "at": NOW.replace(tzinfo=None)})
        run_migrations(engine)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        assert [(p["label"], p["game_deleted_at"]) for p in _dump(engine)["principals"]] == [("Ann", None)]
        with engine.begin() as connection:  # as Delete game leaves a token that opened only its game
            connection.execute(insert, {"h": "b" * 64, "label": "", "at": NOW.replace(tzinfo=None)})
            connection.execute(
                text("UPDATE principals SET game_deleted_at = :at WHERE token_hash = :h"),
                {"at": NOW.replace(tzinfo=None), "h": "b" * 64},
            )

        _down_to(engine, "0012")
        down = _dump(engine)["principals"]
        assert [p["token_hash"] for p in down] == ["a" * 64] and "game_deleted_at" not in down[0]
        run_migrations(engine)
        assert [(p["token_hash"], p["game_deleted_at"]) for p in _dump(engine)["principals"]] == [("a" * 64, None)]
        engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_migration_0014_makes_every_game_being_played_due_once_and_goes_both_ways(backend: str, tmp_path: Path) -> None:
    """0014 adds games.ready_check_at and its index as the models have them, in place: a game being
    played is due from its start (the first poll looks at it once, as a started server's first poll
    looked at every game before), a game in its lobby is not; the poll then clears it. Going down
    drops the column and keeps every row; up again works on what that left."""
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine, revision="0013")
        played = make_engine(f"sqlite:///{tmp_path / 'played.sqlite3'}")
        run_migrations(played)
        game_id = _play_some(played)
        with session_scope(make_sessionmaker(played)) as db:
            spec = store.NewGame("Lobby", 4, 8, 2, None, "even", Visibility.PUBLIC)
            lobby_id = store.create_game(db, spec=spec, now=NOW).game.id
        _copy(played, engine)
        played.dispose()
        run_migrations(engine)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        factory = make_sessionmaker(engine)
        with session_scope(factory) as db:
            game, lobby = db.get(GameRow, game_id), db.get(GameRow, lobby_id)
            assert game is not None and lobby is not None
            assert game.ready_check_at == game.started_at == NOW and lobby.ready_check_at is None
            assert store.ready_checks_due(db, now=NOW) == [(game_id, NOW)]
        assert resolve_all_ready(factory, now=NOW + timedelta(hours=1)) == 0  # an order is not ready
        with session_scope(factory) as db:
            assert store.ready_checks_due(db, now=NOW + timedelta(days=1)) == []
        before = _dump(engine)
        _down_to(engine, "0013")
        down = _dump(engine)
        assert "ready_check_at" not in down["games"][0]
        assert [{k: v for k, v in row.items() if k != "ready_check_at"} for row in before["games"]] == down["games"]
        run_migrations(engine)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        check_game(engine, game_id)
        engine.dispose()


def test_app_puts_sqlite_in_wal_mode(tmp_path: Path) -> None:
    """Issue 6: SQLite runs in WAL mode (readers go on while a turn resolves; a crash loses no commit),
    with foreign keys on and a busy timeout, on every connection the app opens."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'wal.sqlite3'}", scheduler=False))
    engine: Engine = app.state.engine
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA busy_timeout")).scalar() >= 1000
    with make_sessionmaker(engine)() as db:
        assert db.scalar(select(GameRow.id)) is None and db.scalar(select(SeatRow.id)) is None
    engine.dispose()


@pytest.mark.parametrize(("level", "pragma"), [("normal", 1), ("full", 2)])
def test_sqlite_synchronous_level_is_the_settings(tmp_path: Path, level: str, pragma: int) -> None:
    """WAL with synchronous NORMAL by default (a killed server loses no commit: test_crash), FULL on request."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 's.sqlite3'}", scheduler=False, sqlite_synchronous=level)
    app = create_app(settings)
    with app.state.engine.connect() as connection:
        assert connection.execute(text("PRAGMA synchronous")).scalar() == pragma
    app.state.engine.dispose()
    assert Settings(database_url="sqlite://").sqlite_synchronous == "normal"


def test_unknown_sqlite_synchronous_level_is_refused() -> None:
    with pytest.raises(ValueError, match="sqlite_synchronous must be one of"):
        make_engine("sqlite://", sqlite_synchronous="off")
