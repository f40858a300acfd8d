"""Database: SQLAlchemy models, Alembic migrations and keyword-only repository functions.

Import the submodules: :mod:`sevens.store.db` (engines, migrations), :mod:`sevens.store.models`,
:mod:`sevens.store.auth` (credentials, grants), :mod:`sevens.store.games` (games, orders, turns).
"""

__all__: list[str] = []
