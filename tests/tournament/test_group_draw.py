"""The seeded group draw (R12) and the set-up it produces."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TypeVar

import pytest
from tournament_helpers import SEED, make_setup, people

from sevens.rules import seed_commitment
from sevens.tournament import (
    DEFAULT_AUTOPILOT,
    DEFAULT_TEAM_NAMES,
    Format,
    GameSetup,
    Player,
    PlayerId,
    Team,
    TeamId,
    draw_game,
    legal_formats,
)

T = TypeVar("T")
COMMIT = seed_commitment(SEED)


class _Documented:
    """The draw stream exactly as setup.py's docstring describes it, written again from the text."""

    def __init__(self, seed: int) -> None:
        self.key = hashlib.sha256(b"sevens/group-draw/v1" + b"i:" + str(seed).encode()).digest()
        self.words = self._words()

    def _words(self) -> Iterator[int]:
        block = 0
        while True:
            digest = hashlib.sha256(self.key + block.to_bytes(8, "big")).digest()
            for i in range(4):
                yield int.from_bytes(digest[8 * i : 8 * i + 8], "big")
            block += 1

    def below(self, n: int) -> int:
        while True:
            w = next(self.words)
            if w < 2**64 - 2**64 % n:
                return w % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def _documented_draw(
    players: list[str], fmt: Format, names: Sequence[str], seed: int
) -> list[tuple[str, str, str | None]]:
    stream = _Documented(seed)
    order = stream.shuffle(players)
    letters = "ABCD"[: fmt.groups]
    shuffled_letters = stream.shuffle(list(letters))
    places: dict[str, list[str | None]] = {letter: [] for letter in letters}
    for slot in range(len(players) * fmt.teams_per_player):
        places[shuffled_letters[slot % fmt.groups]].append(order[slot // fmt.teams_per_player])
    dealt: list[tuple[str, str | None]] = []
    for letter in letters:
        group = places[letter] + [None] * (4 - len(places[letter]))
        dealt.extend((letter, m) for m in stream.shuffle(group))
    return [(name, letter, m) for name, (letter, m) in zip(stream.shuffle(list(names)), dealt, strict=True)]


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (5, 99), (9, 7), (16, 123456)])
def test_draw_follows_the_documented_method(players: int, seed: int) -> None:
    """The draw is reproducible from its seed by anyone following the documented method."""
    setup = make_setup(players, draw_seed=seed)
    got = [(t.name, t.group, t.manager) for t in setup.teams]
    names = DEFAULT_TEAM_NAMES[: setup.format.teams]
    assert got == _documented_draw([p.id for p in setup.players], setup.format, names, seed)


def test_draw_is_reproducible_and_depends_on_the_seed() -> None:
    """A seeded group draw: the same seed gives the same draw, other seeds other draws."""
    assert make_setup(6, draw_seed="spring") == make_setup(6, draw_seed="spring")
    assert make_setup(6, draw_seed=b"\x01") == make_setup(6, draw_seed=b"\x01")
    draws = {tuple((t.id, t.group, t.manager) for t in make_setup(6, draw_seed=s).teams) for s in range(20)}
    assert len(draws) == 20
    # The same number as text and as a number are different seeds (tagged, documented).
    assert make_setup(6, draw_seed=5) != make_setup(6, draw_seed="5")


@pytest.mark.parametrize("players", range(4, 17))
def test_r12_every_player_manages_k_teams_in_different_groups(players: int) -> None:
    """R12: "Each player manages the same number of teams, and no player has two teams in the same
    group. ... Teams nobody manages are house teams"."""
    for fmt in legal_formats(players):
        for seed in range(3):
            setup = make_setup(players, fmt, draw_seed=seed)
            groups = Counter(t.group for t in setup.teams)
            assert groups == dict.fromkeys("ABCD"[: fmt.groups], 4)
            for player in setup.players:
                mine = [t for t in setup.teams if t.manager == player.id]
                assert len(mine) == fmt.teams_per_player
                assert len({t.group for t in mine}) == len(mine)
            assert sum(t.manager is None for t in setup.teams) == fmt.teams - players * fmt.teams_per_player


def test_r12_house_teams_are_played_by_the_default_bot() -> None:
    """R12: "Teams nobody manages are house teams, played by a bot." 5 players x 3 of 16 leaves one."""
    setup = make_setup(5)
    house = [t for t in setup.teams if t.house]
    assert len(house) == 1
    assert setup.autopilot(house[0].id) == DEFAULT_AUTOPILOT == "equilibrium"


def test_draw_is_roughly_uniform_over_groups() -> None:
    """Each team is equally likely in each group: over 400 seeded draws Fiji lands in every group
    about 100 times (a binomial count, 5 standard deviations below is about 57)."""
    counts = Counter(make_setup(9, draw_seed=s).team("fiji").group for s in range(400))
    assert set(counts) == set("ABCD")
    assert min(counts.values()) > 57


def test_default_names_are_sevens_nations_with_slug_ids() -> None:
    """Team names default to real sevens nations; ids are slugs of names."""
    eight = make_setup(4)
    assert sorted(t.name for t in eight.teams) == sorted(DEFAULT_TEAM_NAMES[:8])
    sixteen = make_setup(9)
    assert {t.name: t.id for t in sixteen.teams}["New Zealand"] == "new-zealand"
    assert {"Fiji", "Samoa", "Kenya", "Great Britain"} <= {t.name for t in sixteen.teams}


def test_custom_team_names() -> None:
    names = ["Lions", "Tigers", "Bears", "Wolves", "Eagles", "Sharks", "Hawks", "Côte d'Ivoire"]
    setup = draw_game(people(4), Format(8, 4, 2), seed_sha256=COMMIT, draw_seed=3, team_names=names)
    assert sorted(t.name for t in setup.teams) == sorted(names)
    assert "cote-d-ivoire" in {t.id for t in setup.teams}


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["A"] * 7, "needs 8 team names"),
        (["Fiji", "FIJI", "c", "d", "e", "f", "g", "h"], "appears twice"),
        (["!!!", "b", "c", "d", "e", "f", "g", "h"], "no letters or digits"),
    ],
)
def test_bad_team_names_are_refused(names: list[str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        draw_game(people(4), Format(8, 4, 2), seed_sha256=COMMIT, draw_seed=1, team_names=names)


def test_wrong_number_of_players_or_bad_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="R12: the format is for 4 players"):
        draw_game(people(5), Format(8, 4, 2), seed_sha256=COMMIT, draw_seed=1)
    with pytest.raises(ValueError, match="R12"):
        draw_game(people(5), Format(8, 5, 2), seed_sha256=COMMIT, draw_seed=1)
    with pytest.raises(ValueError, match="R14: seed_sha256"):
        draw_game(people(4), Format(8, 4, 2), seed_sha256="abc", draw_seed=1)
    with pytest.raises(ValueError, match="draw seed"):
        draw_game(people(4), Format(8, 4, 2), seed_sha256=COMMIT, draw_seed=True)
    with pytest.raises(ValueError, match="player id 'p1' appears twice"):
        draw_game([Player(PlayerId("p1"), "A")] * 4, Format(8, 4, 2), seed_sha256=COMMIT, draw_seed=1)


def test_r12_a_hand_built_setup_with_two_teams_in_a_group_is_refused() -> None:
    """R12: "no player has two teams in the same group"."""
    good = make_setup(4)
    teams = list(good.teams)
    # Give the first two teams of group A the same manager, swapping managers to keep counts.
    first, second = teams[0], teams[1]
    swap_with = next(t for t in teams if t.manager == first.manager and t.group != "A")
    i, j = teams.index(second), teams.index(swap_with)
    teams[i] = Team(second.id, second.name, second.group, first.manager)
    teams[j] = Team(swap_with.id, swap_with.name, swap_with.group, second.manager)
    with pytest.raises(ValueError, match="R12: no player may have two teams in one group"):
        GameSetup(good.format, good.players, tuple(teams), good.seed_sha256)


def test_r6_a_hand_built_setup_must_list_teams_group_by_group() -> None:
    """R6: groups of four, listed A, B, ..."""
    good = make_setup(4)
    with pytest.raises(ValueError, match="R6: teams must be listed group by group"):
        GameSetup(good.format, good.players, tuple(reversed(good.teams)), good.seed_sha256)
    with pytest.raises(ValueError, match="not a team of this game"):
        GameSetup(good.format, good.players, good.teams, good.seed_sha256, {TeamId("atlantis"): "even"})


def test_with_autopilot_changes_one_team() -> None:
    """R13: "a bot its manager picked, or the game's default bot"."""
    setup = make_setup(4)
    team = setup.teams[0].id
    changed = setup.with_autopilot(team, "knockout-saver")
    assert changed.autopilot(team) == "knockout-saver"
    assert all(changed.autopilot(t.id) == DEFAULT_AUTOPILOT for t in setup.teams[1:])
    with pytest.raises(KeyError, match="no team 'atlantis'"):
        setup.with_autopilot("atlantis", "even")
