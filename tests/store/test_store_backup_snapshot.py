"""An export reads the database as it stood at one moment: a server goes on while it runs, and a
game created midway was half in it (its organiser's grant without the game, which failed the full
backup with a KeyError; a shareable export's count of the private games it left out off by one)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from sevens.store import backup
from sevens.store import games as store
from sevens.store.auth import add_grant, create_principal
from sevens.store.models import PrincipalKind, Role, Visibility

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _organised(db: Session, name: str, visibility: Visibility) -> str:
    """A game organised by a new bot token, committed: its public id."""
    game = store.create_game(db, spec=store.NewGame(name, 4, 8, 2, 3600, "even", visibility), now=NOW).game
    principal, _ = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="organiser")
    add_grant(db, principal_id=principal.id, game_id=game.id, role=Role.ORGANISER)
    db.commit()
    return game.public_id


@pytest.mark.parametrize("full", [True, False])
def test_a_game_created_while_the_export_runs_is_not_half_in_it(
    factory: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch, full: bool
) -> None:
    with factory() as db:
        there = _organised(db, "There before", Visibility.PUBLIC)
    created: list[str] = []
    real = backup._game_dict

    def then_another_server_writes(*args: Any, **kwargs: Any) -> Any:
        if not created:  # another connection, as the web server's would be, commits a new game
            with factory() as other:
                created.append(_organised(other, "Made midway", Visibility.PUBLIC))
        return real(*args, **kwargs)

    monkeypatch.setattr(backup, "_game_dict", then_another_server_writes)
    with factory() as db:
        document = backup.export_backup(db, full=full, now=NOW)
        # What the command says it left out: counted in the same reading as the export.
        left_out = store.count_games(db) - len(document["games"])
    assert created
    assert [g["id"] for g in document["games"]] == [there]
    assert left_out == 0, "a public game created midway was counted as a private game left out"
    if full:
        assert len(document["credentials"]) == 1  # the organiser of the game there before only
