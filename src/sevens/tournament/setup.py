"""Players, teams and the seeded group draw (R6, R12).

The draw is reproducible from its seed and needs nothing but SHA-256, so anyone can redo it:

1. The *draw stream*: ``key = SHA-256(b"sevens/group-draw/v1" + tag + seed)`` where the tag is
   ``b"b:"``, ``b"s:"`` or ``b"i:"`` for a seed given as bytes, text (UTF-8) or a whole number
   (decimal). Block ``i`` is ``SHA-256(key + i as 8 bytes big-endian)``, read as four 8-byte
   big-endian words. A number below ``n`` is the next word ``w`` that is below
   ``2**64 - 2**64 % n``, taken modulo ``n`` (rejection sampling: no bias).
2. Shuffle the players, then the group letters, with Fisher-Yates (``i`` from the end down to 1,
   swap ``i`` with a number below ``i + 1``).
3. Player slots: slot ``s`` (0, 1, ...) belongs to shuffled player ``s // k`` and goes to the
   ``s % groups``-th shuffled group letter, ``k`` being the teams per player. A player's ``k``
   consecutive slots land in ``k`` different groups (R12) and the groups fill evenly, so no group
   gets more than four teams. The remaining places of each group are house teams.
4. Shuffle each group's four places (groups in letter order), then the team names; the names are
   dealt to the places group by group (A first). Team ids are slugs of the names.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NewType, TypeVar

from sevens.rules import parse_seed, seed_commitment
from sevens.tournament.formats import GROUP_SIZE, Format, check_format
from sevens.tournament.quoting import quoted

__all__ = [
    "DEFAULT_AUTOPILOT",
    "DEFAULT_TEAM_NAMES",
    "draw_game_from_seed",
    "draw_seed_for",
    "GameSetup",
    "Player",
    "PlayerId",
    "Team",
    "TeamId",
    "draw_game",
    "slugify",
]

TeamId = NewType("TeamId", str)
PlayerId = NewType("PlayerId", str)

# The default bot's name; sevens.bots.DEFAULT_BOT is this same name (bots depend on us, not back).
# "equilibrium": the lab ranks it with the best fixed pacers; "table-reader" wins more but gives a
# newcomer a little over half a fair share of titles as house teams, and as an autopilot loses on purpose
# the third group match of a manager who is away (docs/strategy.md, which bot plays when nobody
# chooses).
DEFAULT_AUTOPILOT = "equilibrium"

DEFAULT_TEAM_NAMES: tuple[str, ...] = (
    "Fiji",
    "New Zealand",
    "South Africa",
    "Argentina",
    "Australia",
    "France",
    "Great Britain",
    "Ireland",
    "Spain",
    "United States",
    "Samoa",
    "Kenya",
    "Canada",
    "Uruguay",
    "Japan",
    "Germany",
)
"""Real sevens nations; an 8-team game takes the first eight."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_SLUG_SPLIT = re.compile(r"[^a-z0-9]+")

T = TypeVar("T")


def slugify(name: str) -> str:
    """A team id from a team name: lower case ASCII words joined by hyphens.

    >>> slugify("New Zealand"), slugify("Côte d'Ivoire")
    ('new-zealand', 'cote-d-ivoire')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _SLUG_SPLIT.sub("-", ascii_name.lower()).strip("-")


def _check_seed_sha256(value: object) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise ValueError(
            f"R14: seed_sha256 is the SHA-256 of the game seed, 64 lower-case hexadecimal characters; got {value!r}"
        )
    return value


@dataclass(frozen=True, slots=True)
class Player:
    """A person in the game.

    >>> Player(PlayerId("p1"), "Ana")
    Player(id='p1', name='Ana')
    """

    id: PlayerId
    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"a player's id must be a non-empty string, got {self.id!r}")
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"player {self.id!r} needs a name")


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its id (a slug of its name), name, group letter and manager (``None`` = house team).

    >>> Team(TeamId("fiji"), "Fiji", "A", None).house
    True
    """

    id: TeamId
    name: str
    group: str
    manager: PlayerId | None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"a team's id must be a non-empty string, got {self.id!r}")
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"team {self.id!r} needs a name")
        if self.group not in ("A", "B", "C", "D"):
            raise ValueError(f"team {self.id!r}: a group is a letter A to D, got {self.group!r}")
        if self.manager is not None and (not isinstance(self.manager, str) or not self.manager):
            raise ValueError(f"team {self.id!r}: a manager is a player id or None, got {self.manager!r}")

    @property
    def house(self) -> bool:
        """True if nobody manages the team (R12)."""
        return self.manager is None


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything fixed before the first turn: format, players, teams in their groups, the seed's
    commitment, and the autopilot (bot name) of every team (R12, R13, R14).

    ``teams`` are listed group by group (A first) and, within a group, in draw order, which is
    the order the group's fixtures use (R7). ``autopilots`` maps a team to the bot that plays
    it when its order is missing (house teams always); teams not in it use
    :data:`DEFAULT_AUTOPILOT`.
    """

    format: Format
    players: tuple[Player, ...]
    teams: tuple[Team, ...]
    seed_sha256: str
    autopilots: Mapping[TeamId, str] = field(default_factory=dict)
    drawn_from_seed: bool = False

    def __post_init__(self) -> None:
        check_format(self.format)
        _check_seed_sha256(self.seed_sha256)
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "teams", tuple(self.teams))
        fmt = self.format
        player_ids = _unique([p.id for p in self.players], "player id")
        if len(self.players) != fmt.players:
            raise ValueError(
                f"R12: the format is for {fmt.players} players, but {len(self.players)} are listed"
            )
        team_ids = _unique([t.id for t in self.teams], "team id")
        if len(self.teams) != fmt.teams:
            raise ValueError(f"R6: the format has {fmt.teams} teams, but {len(self.teams)} are listed")
        letters = fmt.group_letters
        expected = [letter for letter in letters for _ in range(GROUP_SIZE)]
        if [t.group for t in self.teams] != expected:
            raise ValueError(
                f"R6: teams must be listed group by group, four to a group ({', '.join(letters)}); "
                f"got groups {''.join(t.group for t in self.teams)}"
            )
        for player in self.players:
            groups = [t.group for t in self.teams if t.manager == player.id]
            if len(groups) != fmt.teams_per_player:
                raise ValueError(
                    f"R12: every player manages {fmt.teams_per_player} team(s); "
                    f"{player.id!r} manages {len(groups)}"
                )
            if len(set(groups)) != len(groups):
                raise ValueError(f"R12: no player may have two teams in one group; {player.id!r} does")
        for team in self.teams:
            if team.manager is not None and team.manager not in player_ids:
                raise ValueError(f"team {team.id!r} is managed by {team.manager!r}, who is not a player")
        autopilots: dict[TeamId, str] = {}
        for team_id, name in dict(self.autopilots).items():
            if team_id not in team_ids:
                raise ValueError(f"an autopilot is set for {team_id!r}, which is not a team of this game")
            if not isinstance(name, str) or not name:
                raise ValueError(f"team {team_id!r}: an autopilot is a bot's name, got {name!r}")
            autopilots[team_id] = name
        # Stored in team order so equal setups print alike.
        ordered = {t.id: autopilots[t.id] for t in self.teams if t.id in autopilots}
        object.__setattr__(self, "autopilots", ordered)

    def team(self, team_id: str) -> Team:
        """The team with this id.

        Raises:
            KeyError: no such team, with the ids that exist.
        """
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(f"no team {quoted(team_id)} in this game; teams: {', '.join(t.id for t in self.teams)}")

    def group(self, letter: str) -> tuple[TeamId, ...]:
        """The ids of a group's four teams, in draw order."""
        return tuple(t.id for t in self.teams if t.group == letter)

    def teams_of(self, player_id: str) -> tuple[TeamId, ...]:
        """The teams a player manages, in group order."""
        return tuple(t.id for t in self.teams if t.manager == player_id)

    def autopilot(self, team_id: str) -> str:
        """The bot that plays ``team_id`` when no order comes in (R13)."""
        self.team(team_id)
        return self.autopilots.get(TeamId(team_id), DEFAULT_AUTOPILOT)

    def with_autopilot(self, team_id: str, name: str) -> GameSetup:
        """A copy with ``team_id``'s autopilot set to the bot ``name``."""
        self.team(team_id)
        return GameSetup(
            self.format,
            self.players,
            self.teams,
            self.seed_sha256,
            {**self.autopilots, TeamId(team_id): name},
            self.drawn_from_seed,
        )

    def to_dict(self) -> dict[str, Any]:
        """Players and teams as in the game record (see :mod:`sevens.tournament.record`)."""
        return {
            "players": [
                {"id": p.id, "name": p.name, "teams": list(self.teams_of(p.id))} for p in self.players
            ],
            "teams": [
                {
                    "id": t.id,
                    "name": t.name,
                    "group": t.group,
                    "manager": t.manager,
                    "autopilot": self.autopilot(t.id),
                }
                for t in self.teams
            ],
        }


def _unique(values: list[str], what: str) -> set[str]:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{what} {value!r} appears twice; every {what} must be unique")
        seen.add(value)
    return seen


class _DrawStream:
    """Unbiased whole numbers from SHA-256 blocks (see the module docstring, step 1)."""

    __slots__ = ("_key", "_block", "_words")

    def __init__(self, seed: bytes | str | int) -> None:
        if isinstance(seed, bytes):
            tagged = b"b:" + seed
        elif isinstance(seed, str):
            tagged = b"s:" + seed.encode("utf-8")
        elif isinstance(seed, int) and not isinstance(seed, bool):
            tagged = b"i:" + str(seed).encode("ascii")
        else:
            raise ValueError(f"a draw seed is bytes, text or a whole number, got {type(seed).__name__}")
        self._key = hashlib.sha256(b"sevens/group-draw/v1" + tagged).digest()
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._words.pop()

    def below(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def draw_seed_for(seed: str | bytes) -> str:
    """The draw seed that follows from a game's secret dice seed: HMAC-SHA256(seed, "sevens/draw").

    One-way, so it tells nothing about the dice; once the seed is revealed anyone can redo the draw.

    >>> draw_seed_for("00" * 32) == draw_seed_for(bytes(32))
    True
    """
    return hmac.new(parse_seed(seed), b"sevens/draw", hashlib.sha256).hexdigest()


def draw_game_from_seed(players: Sequence[Player], fmt: Format, *, seed: str | bytes) -> GameSetup:
    """The group draw made from the game's own secret seed, with the default team names, so that
    :func:`sevens.tournament.verify.verify_record` can redo it once the seed is revealed.

    >>> people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 5)]
    >>> setup = draw_game_from_seed(people, Format(8, 4, 2), seed="07" * 32)
    >>> setup.drawn_from_seed, setup == draw_game_from_seed(people, Format(8, 4, 2), seed="07" * 32)
    (True, True)
    """
    drawn = draw_game(players, fmt, seed_sha256=seed_commitment(seed), draw_seed=draw_seed_for(seed))
    return replace(drawn, drawn_from_seed=True)


def draw_game(
    players: Sequence[Player],
    fmt: Format,
    *,
    seed_sha256: str,
    draw_seed: bytes | str | int,
    team_names: Sequence[str] | None = None,
) -> GameSetup:
    """Draw the groups: every player gets ``fmt.teams_per_player`` teams in different groups, the
    rest are house teams (R12); reproducible from ``draw_seed`` (method in the module docstring).

    Args:
        players: The players, as many as ``fmt.players``.
        fmt: A legal arrangement (checked, R12).
        seed_sha256: The published commitment to the game's secret dice seed (R14).
        draw_seed: The seed of the draw; the same seed always gives the same draw.
        team_names: Exactly ``fmt.teams`` names; by default the first ``fmt.teams`` of
            :data:`DEFAULT_TEAM_NAMES`.

    Returns:
        The set-up, every team's autopilot set to :data:`DEFAULT_AUTOPILOT`.

    >>> people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 5)]
    >>> setup = draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=7)
    >>> setup == draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=7)
    True
    >>> sorted(t.group for t in setup.teams if t.manager == "p1")
    ['A', 'B']
    """
    check_format(fmt)
    listed = tuple(players)
    if len(listed) != fmt.players:
        raise ValueError(f"R12: the format is for {fmt.players} players, but {len(listed)} were given")
    names = tuple(DEFAULT_TEAM_NAMES[: fmt.teams] if team_names is None else team_names)
    if len(names) != fmt.teams:
        raise ValueError(f"R6: a game of {fmt.teams} teams needs {fmt.teams} team names, got {len(names)}")
    ids = [slugify(name) for name in names]
    for name, slug in zip(names, ids, strict=True):
        if not slug:
            raise ValueError(f"the team name {name!r} has no letters or digits to make an id from")
    _unique(ids, "team id (made from the team names)")

    stream = _DrawStream(draw_seed)
    order = stream.shuffle(listed)
    letters = stream.shuffle(fmt.group_letters)
    places: dict[str, list[PlayerId | None]] = {letter: [] for letter in fmt.group_letters}
    k = fmt.teams_per_player
    for slot in range(fmt.human_teams):
        places[letters[slot % fmt.groups]].append(order[slot // k].id)
    dealt: list[tuple[str, PlayerId | None]] = []
    for letter in fmt.group_letters:
        group = places[letter] + [None] * (GROUP_SIZE - len(places[letter]))
        dealt.extend((letter, manager) for manager in stream.shuffle(group))
    shuffled_names = stream.shuffle(names)
    teams = tuple(
        Team(TeamId(slugify(name)), name, letter, manager)
        for name, (letter, manager) in zip(shuffled_names, dealt, strict=True)
    )
    autopilots = {team.id: DEFAULT_AUTOPILOT for team in teams}
    return GameSetup(fmt, listed, teams, seed_sha256, autopilots)
