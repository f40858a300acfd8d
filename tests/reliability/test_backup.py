"""Backup and restore: `sevens export` and `sevens import` between SQLite and PostgreSQL.

The games: one finished, one running with saved and ready orders in its open turn, one ended early,
one in the lobby, and the credentials (a browser session, bot tokens) that play them.
"""

from __future__ import annotations

import json
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import typer
from sqlalchemy import Engine, select
from typer.testing import CliRunner

from reliability.helpers import check_game, database
from sevens.cli import backup as backup_cli
from sevens.store import games as store
from sevens.store.auth import (
    InviteState,
    access_to,
    add_grant,
    create_principal,
    find_principal,
    game_by_organiser_link,
    invite_state,
    seat_by_invite,
)
from sevens.store.backup import export_backup
from sevens.store.db import make_sessionmaker, session_scope
from sevens.store.models import GameRow, GameStatus, OrderLogRow, PrincipalKind, Role, TeamRow, Visibility
from sevens.store.testing import backends
from sevens.tournament.record import dumps
from sevens.tournament.verify import verify_record

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
PAIRS = [("sqlite", "postgresql"), ("postgresql", "sqlite")] if "postgresql" in backends() else [("sqlite", "sqlite")]

cli = typer.Typer()
backup_cli.register(cli)


def _orders_all(db, game_id: int, turn: int, force: int, ready: bool) -> None:  # type: ignore[no-untyped-def]
    for team in db.scalars(select(TeamRow).where(TeamRow.game_id == game_id)):
        state = store.load_game(store.game_by_id(db, game_id=game_id))
        if team.team_id in state.teams_in_play():
            store.save_order(
                db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id,
                turn=turn, force=force, flair=3, ready=ready, via="api", now=NOW,
            )


def _populate(engine: Engine) -> dict[str, object]:
    """Four games in four states, and the secrets a restore must keep working."""
    factory = make_sessionmaker(engine)
    secrets: dict[str, object] = {}
    with session_scope(factory) as db:
        ids = {}
        for name in ("finished", "running", "ended", "lobby"):
            spec = store.NewGame(f"{name} <cup> ☃", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
            created = store.create_game(db, spec=spec, now=NOW)
            ids[name] = created.game.id
            secrets[f"{name}-invite"] = created.invites[0][1]
            secrets[f"{name}-organiser"] = created.organiser_token
            for seat in store.seats_of(db, game_id=created.game.id):
                store.join_seat(db, seat=seat, name=f"Ann {seat.player_id}", now=NOW)
            if name != "lobby":
                store.start_game(db, game_id=created.game.id, now=NOW)
        bot, token = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="bot")
        add_grant(db, principal_id=bot.id, game_id=ids["running"], role=Role.PLAYER, player_id="p1")
        browser, cookie = create_principal(
            db, kind=PrincipalKind.SESSION, now=NOW, ttl=timedelta(days=60)
        )
        add_grant(db, principal_id=browser.id, game_id=ids["running"], role=Role.ORGANISER)
        secrets.update(bot=token, session=cookie, ids=ids)
    with session_scope(factory) as db:
        _orders_all(db, ids["finished"], 1, 5, True)
        store.resolve_turn(db, game_id=ids["finished"], turn=2, reason="organiser", now=NOW)
        store.advance(db, game_id=ids["finished"], now=NOW)
        for turn in range(2, 6):
            store.resolve_turn(db, game_id=ids["finished"], turn=turn, reason="organiser", now=NOW)
        _orders_all(db, ids["running"], 1, 4, True)
        _orders_all(db, ids["running"], 2, 7, False)  # saved, not ready: the open turn's secrets
        _orders_all(db, ids["ended"], 1, 6, True)  # a turn played, so there are dice to check
        _orders_all(db, ids["ended"], 2, 8, False)  # saved in the turn it was ended in: never resolved
        store.end_game(db, game_id=ids["ended"], now=NOW, actor="organiser")
    with factory() as db:
        assert store.game_by_id(db, game_id=ids["finished"]).status == GameStatus.FINISHED
        assert store.game_by_id(db, game_id=ids["running"]).current_turn == 2
    return secrets


def _export(url: str, target: Path | str, *, full: bool) -> str:
    args = ["export", "--database-url", url, str(target)] + (["--full"] if full else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output


def _import(url: str, source: Path) -> CliRunner:  # type: ignore[type-arg]
    return CliRunner().invoke(cli, ["import", "--database-url", url, str(source)])


def _without_time(document: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in document.items() if k != "exported_at"}


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_full_backup_restores_running_games_into_the_other_database(
    source: str, target: str, tmp_path: Path
) -> None:
    """Issue 6: export every game, import into an empty database of the other kind; the restored
    games verify, running games go on with the same dice, and every secret still opens its door."""
    with database(source, tmp_path) as (src_url, src), database(target, tmp_path) as (dst_url, dst):
        secrets = _populate(src)
        ids: dict[str, int] = secrets["ids"]  # type: ignore[assignment]
        backup = tmp_path / "full.json"
        said = _export(src_url, backup, full=True)
        assert said == f"exported 4 games as a full backup (mode 0600) to {backup}\n"
        assert stat.S_IMODE(backup.stat().st_mode) == 0o600
        result = _import(dst_url, backup)
        assert result.exit_code == 0, result.output
        assert "imported 4 games (2 still open) and 2 credentials" in result.output
        # The restored database exports the very same backup.
        with make_sessionmaker(src)() as a, make_sessionmaker(dst)() as b:
            assert _without_time(export_backup(b, full=True, now=NOW)) == _without_time(
                export_backup(a, full=True, now=NOW)
            )
        with make_sessionmaker(dst)() as db:
            games = {g.name.split()[0]: g for g in db.scalars(select(GameRow))}
            finished = verify_record(store.record_of(games["finished"]))
            assert finished.finished and finished.dice_checked
            assert not verify_record(store.record_of(games["running"])).finished
            for game in games.values():
                check_game(dst, game.id)
            restored_seat = seat_by_invite(db, token=str(secrets["running-invite"]))
            assert restored_seat is not None
            # Used invites stay used: a restore opens no seat to a copied link.
            assert invite_state(restored_seat, now=NOW) is InviteState.USED
            assert find_principal(db, token=str(secrets["bot"]), kind=PrincipalKind.BOT, now=NOW)
            assert find_principal(db, token=str(secrets["session"]), kind=PrincipalKind.SESSION, now=NOW)
        # The running game goes on in both databases alike: same saved orders, same seed, same dice.
        records = []
        for engine in (src, dst):
            with session_scope(make_sessionmaker(engine)) as db:
                game = db.scalar(select(GameRow).where(GameRow.name.startswith("running")))
                assert game is not None
                assert store.resolve_turn(db, game_id=game.id, turn=2, reason="deadline", now=NOW)
                records.append(dumps(store.record_of(game)))
        assert records[0] == records[1]
        assert ids  # the source ids are not what the target uses; nothing relies on them


@pytest.mark.parametrize(("source", "target"), PAIRS[:1])
def test_shareable_export_holds_no_secret_and_no_open_order(source: str, target: str, tmp_path: Path) -> None:
    """Issue 6 and R13/R14: the default export is safe to hand to players: no seed of an unfinished
    game, no order of an open turn, no hash of a secret; it restores finished games only."""
    with database(source, tmp_path) as (src_url, src), database(target, tmp_path) as (dst_url, dst):
        _populate(src)
        out = tmp_path / "shared"
        assert _export(src_url, f"{out}/", full=False) == f"exported 4 games as a shareable export to 4 files in {out}/\n"
        text = "".join(p.read_text() for p in sorted(out.glob("*.json")))
        with make_sessionmaker(src)() as db:
            rows = {g.name.split()[0]: g for g in db.scalars(select(GameRow))}
            assert rows["running"].seed_hex not in text and rows["lobby"].seed_hex not in text
            assert rows["finished"].seed_hex in text  # revealed at the end (R14)
            assert rows["ended"].seed_hex in text  # ended early: over too
            for game in rows.values():
                assert game.organiser_link_hash not in text
                for seat in store.seats_of(db, game_id=game.id):
                    assert seat.invite_hash not in text
        documents = [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]
        running = next(g for d in documents for g in d["games"] if g["name"].startswith("running"))
        assert "secret" not in running and {e["turn"] for e in running["order_log"]} == {1}
        # The turn the organiser ended the game in was never resolved: its orders stay out (R13).
        ended = next(g for d in documents for g in d["games"] if g["name"].startswith("ended"))
        assert ended["current_turn"] == 2 and {e["turn"] for e in ended["order_log"]} == {1}
        with make_sessionmaker(src)() as db:
            full = next(g for g in export_backup(db, full=True, now=NOW)["games"] if g["name"].startswith("ended"))
        assert {e["turn"] for e in full["secret"]["open_order_log"]} == {2}
        assert not any(d["credentials"] for d in documents)
        refused = _import(dst_url, out)
        assert refused.exit_code == 2 and "full backup" in refused.output and "Traceback" not in refused.output
        # Finished and ended games alone restore from it, and verify.
        for path in out.glob("*.json"):
            status = json.loads(path.read_text())["games"][0]["status"]
            if status not in ("finished", "ended"):
                path.unlink()
        assert _import(dst_url, out).exit_code == 0
        with make_sessionmaker(dst)() as db:
            games = list(db.scalars(select(GameRow)))
            assert sorted(g.status.value for g in games) == ["ended", "finished"]
            for game in games:
                # The export says that each seat was taken (not when): the restore keeps them taken.
                assert all(seat.joined_at is not None for seat in store.seats_of(db, game_id=game.id))
                report = verify_record(store.record_of(game))
                assert report.dice_checked and report.turns == len(json.loads(game.record_json or "{}")["turns"]) > 0


def test_a_shareable_export_says_not_when_each_order_was_sent_nor_through_what(tmp_path: Path) -> None:
    """A shareable export's order log gave each line's time to the second and "via": "api" or
    "web": when each person sat at their orders, and which seats a program plays, which no page
    shows a player or spectator. It now gives the drafts alone; the full backup keeps both, and a
    finished game still restores from the shareable export, its lines in order at the game's end."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        _populate(src)
        with make_sessionmaker(src)() as db:
            shared, full = export_backup(db, full=False, now=NOW), export_backup(db, full=True, now=NOW)
        lines = [line for game in shared["games"] for line in game["order_log"]]
        assert lines and {tuple(line) for line in lines} == {("turn", "team", "player", "force", "flair", "ready")}
        kept = [line for game in full["games"] for line in game["order_log"]]
        assert {line["via"] for line in kept} == {"api"} and all(line["at"] for line in kept)
        out = tmp_path / "shared"
        _export(src_url, f"{out}/", full=False)
        for path in out.glob("*.json"):
            if json.loads(path.read_text())["games"][0]["status"] != "finished":
                path.unlink()
        assert _import(dst_url, out).exit_code == 0
        with make_sessionmaker(dst)() as db:
            (again,) = export_backup(db, full=False, now=NOW)["games"]
            (game,) = db.scalars(select(GameRow))
            logged = db.scalars(select(OrderLogRow).order_by(OrderLogRow.id)).all()
        (before,) = [g for g in shared["games"] if g["status"] == "finished"]
        assert again["order_log"] == before["order_log"]
        assert {(line.via, line.at) for line in logged} == {("", game.ended_at)}


@pytest.mark.parametrize("status", ["lobby", "running"])
def test_a_shareable_export_of_a_game_not_over_says_where_it_stands_in_words(status: str, tmp_path: Path) -> None:
    """The refusal said 'game X is lobby and its seed is not in this export'."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, _dst):
        _populate(src)
        out = tmp_path / "shared"
        _export(src_url, f"{out}/", full=False)
        for path in out.glob("*.json"):
            if json.loads(path.read_text())["games"][0]["status"] != status:
                path.unlink()
        refused = _import(dst_url, out)
        said = {"lobby": "is still in its lobby", "running": "is running"}[status]
        assert refused.exit_code == 2 and f"{said} and its seed is not in this export" in refused.output, refused.output


def test_full_backup_directory_is_private_and_import_needs_an_empty_database(tmp_path: Path) -> None:
    """A full backup split into a directory: files 0600 in a 0700 folder; import refuses a database
    that already holds games, and a file that is no backup, each with a one-line error."""
    with database("sqlite", tmp_path) as (url, engine), database("sqlite", tmp_path) as (url2, _engine2):
        _populate(engine)
        out = tmp_path / "full"
        _export(url, f"{out}/", full=True)
        assert stat.S_IMODE(out.stat().st_mode) == 0o700
        files = sorted(out.glob("*.json"))
        assert len(files) == 5 and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
        assert _import(url2, out).exit_code == 0
        again = _import(url2, out)
        assert again.exit_code == 2 and "empty database" in again.output
        bogus = tmp_path / "bogus.json"
        bogus.write_text('{"format": "something-else"}')
        wrong = _import(url2, bogus)
        assert wrong.exit_code == 2 and "not a Sevens backup" in wrong.output


@pytest.mark.parametrize(("source", "target"), PAIRS[:1])
def test_full_backup_keeps_a_new_organiser_link(source: str, target: str, tmp_path: Path) -> None:
    """After a new organiser link, a full backup restores it: the new link opens the game, the old
    one nothing, and the organiser rights it took away stay taken."""
    with database(source, tmp_path) as (src_url, src), database(target, tmp_path) as (dst_url, dst):
        with session_scope(make_sessionmaker(src)) as db:
            spec = store.NewGame("Rotated", 4, 8, 2, 3600, "even", Visibility.PRIVATE)
            created = store.create_game(db, spec=spec, now=NOW)
            game_id = created.game.id
            keeper, keeper_cookie = create_principal(db, kind=PrincipalKind.SESSION, now=NOW, ttl=timedelta(days=60))
            lost, lost_cookie = create_principal(db, kind=PrincipalKind.SESSION, now=NOW, ttl=timedelta(days=60))
            for principal in (keeper, lost):
                add_grant(db, principal_id=principal.id, game_id=game_id, role=Role.ORGANISER)
            new_link = store.new_organiser_link(db, game_id=game_id, now=NOW, keep=keeper.id)
        backup = tmp_path / "rotated.json"
        _export(src_url, backup, full=True)
        assert new_link not in backup.read_text()  # only its hash
        result = _import(dst_url, backup)
        assert result.exit_code == 0, result.output
        with make_sessionmaker(dst)() as db:
            restored = game_by_organiser_link(db, token=new_link)
            assert restored is not None and restored.name == "Rotated"
            assert game_by_organiser_link(db, token=created.organiser_token) is None
            for cookie, organiser in ((keeper_cookie, True), (lost_cookie, False)):
                principal = find_principal(db, token=cookie, kind=PrincipalKind.SESSION, now=NOW)
                assert principal is not None
                assert access_to(db, principal_id=principal.id, game_id=restored.id).organiser is organiser
            assert store.events_of(db, game_id=restored.id)[-1].kind == "organiser link"


def test_backup_from_before_single_use_invites_marks_joined_seats_used(tmp_path: Path) -> None:
    """A backup written before invites were used once has no invite times: a joined seat's invite
    is restored as used (at its joining), an unjoined one stays open, until 14 days after the
    import (as schema revision 0008 gives such invites: without an expiry it opened its seat for ever)."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        with session_scope(make_sessionmaker(src)) as db:
            spec = store.NewGame("Old backup", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
            created = store.create_game(db, spec=spec, now=NOW)
            seat = store.seats_of(db, game_id=created.game.id)[0]
            store.join_seat(db, seat=seat, name="Ann", now=NOW + timedelta(hours=1))
        backup = tmp_path / "old.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        for game in document["games"]:
            for row in game["seats"]:
                del row["invite_used_at"], row["invite_expires_at"]
        backup.write_text(json.dumps(document))
        before = datetime.now(UTC)
        assert _import(dst_url, backup).exit_code == 0
        after = datetime.now(UTC)
        with make_sessionmaker(dst)() as db:
            game = db.scalar(select(GameRow))
            assert game is not None
            seats = store.seats_of(db, game_id=game.id)
            assert seats[0].invite_used_at == NOW + timedelta(hours=1)
            assert [invite_state(s, now=after) for s in seats] == [InviteState.USED] + [InviteState.OPEN] * 3
            later = after + timedelta(days=14)
            assert [invite_state(s, now=later) for s in seats] == [InviteState.USED] + [InviteState.EXPIRED] * 3
            assert seats[0].invite_expires_at is None
            assert all(before + timedelta(days=14) - timedelta(seconds=1) <= s.invite_expires_at <= later for s in seats[1:])  # type: ignore[operator]


def test_a_full_backup_from_the_first_versions_restores_though_its_records_have_no_draw(tmp_path: Path) -> None:
    """The first versions' full backups hold records without ``draw`` (their groups were not drawn
    from the seed). Importing one was refused: 'its record does not verify: draw: expected null,
    found nothing'. Now it restores, and the running game plays on with its saved orders."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        secrets = _populate(src)
        backup = tmp_path / "first.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        for game in document["games"]:
            if game["record"] is not None:
                del game["record"]["draw"]
        backup.write_text(json.dumps(document))
        result = _import(dst_url, backup)
        assert result.exit_code == 0, result.output
        with make_sessionmaker(src)() as db:
            running = store.game_by_id(db, game_id=secrets["ids"]["running"]).public_id  # type: ignore[index]
        with session_scope(make_sessionmaker(dst)) as db:
            game = store.game_by_public_id(db, public_id=running)
            assert store.resolve_turn(db, game_id=game.id, turn=2, reason="organiser", now=NOW)
            record = store.record_of(game)
        check_game(dst, game.id)
        assert record["draw"] is None
        assert {o["force"] for m in record["turns"][1]["matches"] for o in (m["home_order"], m["away_order"])} == {7}


def test_backup_keeps_weighted_bots_and_refuses_a_bot_the_server_does_not_offer(tmp_path: Path) -> None:
    """A game's default bot and a team's autopilot with knockout weights survive export and import;
    a backup naming a bot the server does not offer (here a module path) is refused where it says
    so, before anything is written, rather than failing when a turn resolves."""
    with (
        database("sqlite", tmp_path) as (src_url, src),
        database("sqlite", tmp_path) as (dst_url, dst),
        database("sqlite", tmp_path) as (bad_url, bad),
    ):
        with session_scope(make_sessionmaker(src)) as db:
            spec = store.NewGame("Weights", 4, 8, 2, 3600, "field-reader@ 1", Visibility.PUBLIC)
            created = store.create_game(db, spec=spec, now=NOW)
            for seat in store.seats_of(db, game_id=created.game.id):
                store.join_seat(db, seat=seat, name=f"Ann {seat.player_id}", now=NOW)
            store.start_game(db, game_id=created.game.id, now=NOW)
            team = next(t for t in store.teams_of(db, game_id=created.game.id) if t.player_id == "p1")
            store.set_autopilot(
                db, game_id=created.game.id, player_id="p1", team_id=team.team_id, strategy="equilibrium@0.4", now=NOW
            )
        backup = tmp_path / "weights.json"
        _export(src_url, backup, full=True)
        assert _import(dst_url, backup).exit_code == 0
        with make_sessionmaker(dst)() as db:
            game = db.scalar(select(GameRow))
            assert game is not None and game.default_bot == "field-reader@1"
            pilots = {t.team_id: t.autopilot for t in store.teams_of(db, game_id=game.id)}
            assert pilots[team.team_id] == "equilibrium@0.4" and list(pilots.values()).count(None) == 7

        document = json.loads(backup.read_text())
        document["games"][0]["autopilots"][team.team_id] = "os:system"
        backup.write_text(json.dumps(document))
        refused = _import(bad_url, backup)
        assert refused.exit_code == 2
        assert f"autopilots.{team.team_id}: R13: unknown bot 'os:system'" in " ".join(refused.output.split())
        with make_sessionmaker(bad)() as db:
            assert db.scalar(select(GameRow)) is None


def test_backup_keeps_the_default_autopilot_and_an_older_backup_gets_its_default_bot(tmp_path: Path) -> None:
    """A game's default autopilot (the bot of its players' missed orders, apart from its default
    bot since schema 0010) survives export and import; a backup made before has none, and its
    game gets its default bot, which played both then. A bot the server does not offer is refused
    there as in the other bot fields."""
    with (
        database("sqlite", tmp_path) as (src_url, src),
        database("sqlite", tmp_path) as (dst_url, dst),
        database("sqlite", tmp_path) as (old_url, old),
        database("sqlite", tmp_path) as (bad_url, bad),
    ):
        with session_scope(make_sessionmaker(src)) as db:
            spec = store.NewGame("Two bots", 4, 8, 2, 3600, "table-reader", Visibility.PUBLIC, "field-reader@ 1")
            store.create_game(db, spec=spec, now=NOW)
        backup = tmp_path / "two-bots.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        assert document["games"][0]["default_autopilot"] == "field-reader@1"
        assert _import(dst_url, backup).exit_code == 0
        with make_sessionmaker(dst)() as db:
            game = db.scalar(select(GameRow))
            assert game is not None and (game.default_bot, game.default_autopilot) == ("table-reader", "field-reader@1")

        del document["games"][0]["default_autopilot"]
        backup.write_text(json.dumps(document))
        assert _import(old_url, backup).exit_code == 0
        with make_sessionmaker(old)() as db:
            game = db.scalar(select(GameRow))
            assert game is not None and (game.default_bot, game.default_autopilot) == ("table-reader", "table-reader")

        document["games"][0]["default_autopilot"] = "os:system"
        backup.write_text(json.dumps(document))
        refused = _import(bad_url, backup)
        assert refused.exit_code == 2
        assert ".default_autopilot: R13: unknown bot 'os:system'" in " ".join(refused.output.split())
        with make_sessionmaker(bad)() as db:
            assert db.scalar(select(GameRow)) is None


def test_import_refuses_game_fields_that_disagree_with_the_record(tmp_path: Path) -> None:
    """A backup's champion, status, format and open turn must be what its record says: a restore
    that showed another champion than the verified record would be worse than none."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        _populate(src)
        backup = tmp_path / "full.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        names = [g["name"].split()[0] for g in document["games"]]
        finished, running = names.index("finished"), names.index("running")
        lobby = names.index("lobby")
        champion = document["games"][finished]["champion"]
        other = next(t["id"] for t in document["games"][finished]["record"]["teams"] if t["id"] != champion)
        cases = [
            (finished, "champion", other, f"champion: its record says {champion!r}, the game says {other!r}"),
            (finished, "status", "running", "status: the game says running, but its record is played to its final"),
            (running, "status", "finished", "status: the game says finished, but its record is stopped after turn 1"),
            (running, "players", 5, "players: its record says 4, the game says 5"),
            (running, "current_turn", 5, "current_turn: its record says 2, the game says 5"),
            (lobby, "champion", "fiji", "a game with no record has no open turn (current_turn 0) and no champion"),
            (finished, "revealed_seed", "00" * 32, "revealed_seed: it is not the game's seed"),
        ]
        for index, key, value, words in cases:
            changed = json.loads(json.dumps(document))
            changed["games"][index][key] = value
            path = tmp_path / f"bad-{key}.json"
            path.write_text(json.dumps(changed))
            refused = _import(dst_url, path)
            assert refused.exit_code == 2 and words in " ".join(refused.output.split()), (key, refused.output)
            with make_sessionmaker(dst)() as db:
                assert db.scalar(select(GameRow)) is None


def test_import_throws_a_running_games_dice_again_from_the_full_backups_seed(tmp_path: Path) -> None:
    """A running game's record in a full backup comes with its secret seed, so its dice are thrown
    again too (R14): a die changed where the line stays the same (a 1 made a 2 on FORCE) was
    restored, and the game would have ended with a record that `sevens verify` refuses."""
    with database("sqlite", tmp_path) as (src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        _populate(src)
        backup = tmp_path / "full.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        running = next(g for g in document["games"] if g["name"].startswith("running"))
        assert running["record"]["seed"] is None and running["record"]["turns"]
        found = [
            (m, i, side, face)
            for m, match in enumerate(running["record"]["turns"][0]["matches"])
            for side in ("home", "away")
            for i, face in enumerate(match[f"{side}_dice"]["force"])
            if face in (1, 2, 4, 6)
        ]
        m, i, side, face = found[0]
        other = {1: 2, 2: 1, 4: 6, 6: 4}[face]  # neither scores (R1): the line is the same
        running["record"]["turns"][0]["matches"][m][f"{side}_dice"]["force"][i] = other
        path = tmp_path / "bad-die.json"
        path.write_text(json.dumps(document))
        refused = _import(dst_url, path)
        words = f"turns[0].matches[{m}].{side}_dice.force[{i}]: expected {face}, found {other}"
        assert refused.exit_code == 2 and words in " ".join(refused.output.split()), refused.output
        assert running["secret"]["seed"] not in refused.output
        with make_sessionmaker(dst)() as db:
            assert db.scalar(select(GameRow)) is None


@pytest.mark.parametrize(("source", "target"), PAIRS[:1])
def test_a_backup_keeps_which_game_is_whose_rematch(source: str, target: str, tmp_path: Path) -> None:
    """A full backup restores the link from a game to its rematch; a shareable export names only a
    public rematch (it holds no private game at all); an import whose game names a rematch the
    backup lacks is refused whole."""
    with database(source, tmp_path) as (src_url, src), database(target, tmp_path) as (dst_url, dst):
        with session_scope(make_sessionmaker(src)) as db:
            organiser, _ = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="org")
            for name, visibility in (("Open", Visibility.PUBLIC), ("Closed", Visibility.PRIVATE)):
                spec = store.NewGame(name, 4, 8, 2, 3600, "even", visibility)
                old = store.create_game(db, spec=spec, now=NOW).game
                add_grant(db, principal_id=organiser.id, game_id=old.id, role=Role.ORGANISER)
                store.end_game(db, game_id=old.id, now=NOW, actor="organiser")
                store.start_rematch(db, game_id=old.id, principal_id=organiser.id, now=NOW, actor="organiser")
        with make_sessionmaker(src)() as db:
            shared = {g["name"]: g["rematch"] for g in export_backup(db, full=False, now=NOW)["games"]}
            ids = {g.name: g.public_id for g in db.scalars(select(GameRow))}
        assert shared == {"Open": ids["Open (rematch)"], "Open (rematch)": None}
        backup = tmp_path / "rematches.json"
        _export(src_url, backup, full=True)
        document = json.loads(backup.read_text())
        assert {g["name"]: g["rematch"] for g in document["games"]}["Closed"] == ids["Closed (rematch)"]
        partial = tmp_path / "partial.json"
        partial.write_text(json.dumps({**document, "games": [g for g in document["games"] if g["name"] != "Open (rematch)"]}))
        refused = _import(dst_url, partial)
        assert refused.exit_code != 0
        assert f"game {ids['Open']}: its rematch '{ids['Open (rematch)']}' is not in the backup" in refused.output
        assert _import(dst_url, backup).exit_code == 0
        with make_sessionmaker(dst)() as db:
            games = {g.name: g for g in db.scalars(select(GameRow))}
            for name in ("Open", "Closed"):
                assert games[name].rematch_id == games[f"{name} (rematch)"].id
            assert games["Open (rematch)"].rematch_id is None


def _discarding_game(engine: Engine) -> dict[str, str]:
    """A game whose seat p4 was handed to the bots and p3 signed out for a new link, each with an
    order saved (61 and 67 FORCE), then turn 1 resolved after p3's new holder ordered 11; the
    team of each of the two seats that ordered, by seat."""
    with session_scope(make_sessionmaker(engine)) as db:
        spec = store.NewGame("Discards", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
        game_id = store.create_game(db, spec=spec, now=NOW).game.id
        for seat in store.seats_of(db, game_id=game_id):
            store.join_seat(db, seat=seat, name=f"Ann {seat.player_id}", now=NOW)
        store.start_game(db, game_id=game_id, now=NOW)
    with session_scope(make_sessionmaker(engine)) as db:
        teams = {t.team_id: t.player_id for t in db.scalars(select(TeamRow).where(TeamRow.game_id == game_id))}
        mine = {pid: sorted(t for t, p in teams.items() if p == pid)[0] for pid in ("p3", "p4")}
        for pid, force in (("p3", 61), ("p4", 67)):
            store.save_order(
                db, game_id=game_id, player_id=pid, team_id=mine[pid], turn=1,
                force=force, flair=27, ready=False, via="web", now=NOW,
            )
    later = NOW + timedelta(minutes=5)
    with session_scope(make_sessionmaker(engine)) as db:
        store.release_seat(db, game_id=game_id, player_id="p4", now=later)
        store.reissue_invite(db, game_id=game_id, player_id="p3", now=later, sign_out=True)
    with session_scope(make_sessionmaker(engine)) as db:
        # Whoever took p3 over by the new link orders for the same team in the same turn.
        store.save_order(
            db, game_id=game_id, player_id="p3", team_id=mine["p3"], turn=1,
            force=11, flair=3, ready=False, via="web", now=later + timedelta(minutes=1),
        )
        assert store.resolve_turn(db, game_id=game_id, turn=1, reason="organiser", now=later)
    return mine


def _logged(document: dict[str, object], teams: dict[str, str]) -> list[tuple[str, int]]:
    """The (team, FORCE) lines of ``teams`` in the first game's order log."""
    game = document["games"][0]  # type: ignore[index]
    return sorted((line["team"], line["force"]) for line in game["order_log"] if line["team"] in teams.values())


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_orders_discarded_with_a_seat_stay_out_of_the_shareable_export_after_the_turn(
    source: str, target: str, tmp_path: Path
) -> None:
    """R13 and docs/web.md: the orders a seat saved for the open turn are discarded when the
    organiser hands it to the bots, or signs it out for a new link, and nobody ever sees them. Their
    lines in the order log were kept, and once the turn was resolved the shareable export listed
    them with the turn's public lines (the previous player's 61 and 67 for all to read). The full
    backup keeps them apart, marked, and a restore keeps them out of the shareable export again;
    what the seat's new holder orders afterwards is public once the turn is resolved, as any order."""
    with database(source, tmp_path) as (src_url, src), database(target, tmp_path) as (dst_url, dst):
        mine = _discarding_game(src)
        with make_sessionmaker(src)() as db:
            shared, full = export_backup(db, full=False, now=NOW), export_backup(db, full=True, now=NOW)
        assert _logged(shared, mine) == [(mine["p3"], 11)], "a discarded order is in the shareable export"
        assert _logged(full, mine) == [(mine["p3"], 11)]
        kept = full["games"][0]["secret"]["discarded_order_log"]
        assert sorted((line["team"], line["force"]) for line in kept) == sorted(
            [(mine["p3"], 61), (mine["p4"], 67)]
        )
        backup = tmp_path / "full.json"
        _export(src_url, backup, full=True)
        assert _import(dst_url, backup).exit_code == 0
        with make_sessionmaker(dst)() as db:
            assert _without_time(export_backup(db, full=True, now=NOW)) == _without_time(full)
            assert _logged(export_backup(db, full=False, now=NOW), mine) == [(mine["p3"], 11)]


def test_a_full_backup_from_before_keeps_its_discarded_orders_out_of_the_shareable_export(tmp_path: Path) -> None:
    """A full backup written before discarded lines were kept apart has them among the turn's
    lines; the import marks them by the event log that says they were discarded (as migration 0007
    does), so that a shareable export of the restored database leaves them out."""
    with database("sqlite", tmp_path) as (_src_url, src), database("sqlite", tmp_path) as (dst_url, dst):
        mine = _discarding_game(src)
        with make_sessionmaker(src)() as db:
            full = export_backup(db, full=True, now=NOW)
        game = full["games"][0]
        game["order_log"] = sorted(
            game["order_log"] + game["secret"].pop("discarded_order_log"), key=lambda line: line["at"]
        )
        assert _logged(full, mine) == sorted([(mine["p3"], 11), (mine["p3"], 61), (mine["p4"], 67)])
        older = tmp_path / "older.json"
        older.write_text(json.dumps(full))
        assert _import(dst_url, older).exit_code == 0
        with make_sessionmaker(dst)() as db:
            assert _logged(export_backup(db, full=False, now=NOW), mine) == [(mine["p3"], 11)]
            kept = export_backup(db, full=True, now=NOW)["games"][0]["secret"]["discarded_order_log"]
        assert sorted(line["force"] for line in kept) == [61, 67]
