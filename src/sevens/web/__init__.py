"""The web app: pages and the JSON API for hosting games (build it with :func:`sevens.web.app.create_app`)."""

__all__: list[str] = []
