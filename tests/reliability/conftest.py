"""Reliability tests: real uvicorn servers on 127.0.0.1, forked from one zygote per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sevens.web.testing import ServerFarm


@pytest.fixture(scope="module")
def farm() -> Iterator[ServerFarm]:
    with ServerFarm(max_seconds=300) as servers:
        yield servers
