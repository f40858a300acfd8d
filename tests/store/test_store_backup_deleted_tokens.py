"""A full backup carries the markers of bot tokens deleted with their game (their hash and when,
nothing else), so a bot calling with one after a move is told its game was deleted, as before the
move; and a database left holding only such markers counts as empty for an import (they are not
credentials: they open nothing)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from sevens.store import games as store
from sevens.store.auth import add_grant, create_principal, deleted_with_its_game, find_principal, grants_of
from sevens.store.backup import export_backup, import_backup
from sevens.store.models import PrincipalKind, Role, Visibility
from sevens.store.retention import delete_game
from sevens.store.testing import clear_tables

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
DELETED = NOW + timedelta(hours=1)


def _organised(db: Session, name: str) -> tuple[str, str]:
    """A game organised by a new bot token: the game's public id and the token."""
    game = store.create_game(db, spec=store.NewGame(name, 4, 8, 2, 3600, "even", Visibility.PRIVATE), now=NOW).game
    principal, token = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="organiser")
    add_grant(db, principal_id=principal.id, game_id=game.id, role=Role.ORGANISER)
    db.commit()
    return game.public_id, token


def _delete(db: Session, public_id: str) -> None:
    delete_game(db, game_id=store.game_by_public_id(db, public_id=public_id).id, now=DELETED)
    db.commit()


def test_a_full_backup_carries_the_marker_of_a_token_deleted_with_its_game(
    factory: sessionmaker[Session], store_engine: Engine
) -> None:
    with factory() as db:
        gone, dead = _organised(db, "Secret cup")
        _organised(db, "Kept cup")
        _delete(db, gone)
        document = export_backup(db, full=True, now=DELETED)
    markers = [c for c in document["credentials"] if "game_deleted_at" in c]
    assert len(markers) == 1 and set(markers[0]) == {"kind", "token_hash", "game_deleted_at"}
    text = json.dumps(document)
    assert gone not in text and "Secret cup" not in text
    clear_tables(store_engine)
    with factory() as db:
        report = import_backup(db, document=document, now=DELETED)
        db.commit()
    assert report.credentials == 1  # the live token only: a marker is no credential
    with factory() as db:
        assert deleted_with_its_game(db, token=dead) == DELETED
        assert find_principal(db, token=dead, kind=PrincipalKind.BOT, now=DELETED) is None


def test_an_import_into_a_database_holding_only_markers_goes_ahead(factory: sessionmaker[Session]) -> None:
    with factory() as db:
        gone, dead = _organised(db, "Gone cup")
        kept, live = _organised(db, "Kept cup")
        document = export_backup(db, full=True, now=NOW)  # both tokens live in it
        _delete(db, gone)
        _delete(db, kept)
        # Nothing is left but the two markers: the database the backup may be restored into.
        report = import_backup(db, document=document, now=DELETED)
        db.commit()
    assert (report.games, report.credentials) == (2, 2)
    with factory() as db:
        for token, public_id in ((dead, gone), (live, kept)):
            principal = find_principal(db, token=token, kind=PrincipalKind.BOT, now=DELETED)
            assert principal is not None and deleted_with_its_game(db, token=token) is None
            grants = grants_of(db, principal_id=principal.id)
            assert [store.game_by_id(db, game_id=g.game_id).public_id for g in grants] == [public_id]
