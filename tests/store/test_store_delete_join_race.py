"""*Delete game* crossing a join of the same bot token to another game: the token that opened only
the deleted game is made a marker that opens nothing, unless the join gave it another game first.
Both take the games' locks, then the token's row (games before principals), so neither misses the
other. On SQLite writers queue anyway; on PostgreSQL the delete marked the token dead while the
join was giving it a seat, which it then held with a token refused everywhere."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sevens.store import games as store
from sevens.store.auth import add_grant, create_principal, lock_token
from sevens.store.models import ApiPrincipal, Grant, PrincipalKind, Role, Visibility
from sevens.store.retention import delete_game

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def test_a_join_holding_the_token_keeps_it_live_through_the_delete_of_its_old_game(
    factory: sessionmaker[Session],
) -> None:
    with factory() as db:
        old = store.create_game(db, spec=store.NewGame("Old", 4, 8, 2, 3600, "even", Visibility.PUBLIC), now=NOW).game.id
        new = store.create_game(db, spec=store.NewGame("New", 4, 8, 2, 3600, "even", Visibility.PUBLIC), now=NOW).game.id
        token, _ = create_principal(db, kind=PrincipalKind.BOT, now=NOW, label="Ann")
        add_grant(db, principal_id=token.id, game_id=old, role=Role.PLAYER, player_id="p1")
        token_id = token.id
        db.commit()

    join = factory()  # as api.join: the game's lock, then the token's, then the grant
    store.lock_game(join, game_id=new)
    assert lock_token(join, principal_id=token_id).live
    add_grant(join, principal_id=token_id, game_id=new, role=Role.PLAYER, player_id="p2")
    failed: list[BaseException] = []

    def delete() -> None:
        try:
            with factory() as db:
                delete_game(db, game_id=old, now=NOW)
                db.commit()
        except BaseException as exc:  # reported by the test
            failed.append(exc)

    deleting = threading.Thread(target=delete)
    deleting.start()
    time.sleep(0.5)  # the delete reaches the token's row (PostgreSQL) or SQLite's write lock
    join.commit()
    join.close()
    deleting.join(timeout=30)
    assert not deleting.is_alive() and not failed, failed
    with factory() as db:
        marked = db.scalar(select(ApiPrincipal.game_deleted_at).where(ApiPrincipal.id == token_id))
        games = set(db.scalars(select(Grant.game_id).where(Grant.principal_id == token_id)))
    assert marked is None and games == {new}
