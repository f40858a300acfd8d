"""A sceptic's checker of a whole game record, written from the rules alone.

Nothing here imports :mod:`sevens`: every figure of a record is worked out again from the original
rules (``/work/shared/seed``), the project's decisions R1-R14 and the record's own description
(``docs/record.md``, ``docs/standings.md``, ``docs/fair-dice.md``), then compared with what the
record says. :func:`check_record` returns what it found: the disagreements (empty when the record
agrees in every point) and counts of what was met (ties of each kind, lots, SCRUM run dry, ...).

What is recomputed:

* the seed against its commitment, and when ``draw`` is ``"game-seed"`` the whole group draw
  (players, groups, house places, names) from the seed (record.md, "The group draw from the seed");
* the format for the number of players (R6, R12: teams, groups, turns, stages, teams per player,
  house teams, R12's default arrangement when asked), and that no player has two teams in a group;
* every turn's stage and fixtures (R7 in the groups, R11 and record.md's bracket in the knockouts),
  match ids, groups, who is still in;
* every order against R3 and the team's SCRUM, every turn's orders digest, every die thrown again
  from the seed (fair-dice.md, R14), the shape of the dice (one per FORCE point, one list per FLAIR
  option, re-throws after doubles and only after doubles, R2);
* every line from its dice (original rules 4-5, R1, R2), every winner, ``decided_by`` and summary
  (original rule 6, R9), SCRUM before and after each match (original rule 2, R4);
* every group table with all its tie-breaks (R8: level sets, head-to-head among the set, lots),
  every drawing of lots thrown again (R10), who goes through, and the champion.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

START_SCRUM = 100  # original rule 2
WIN_BONUS = 10  # original rule 2, R4
NAMES = (
    "Fiji", "New Zealand", "South Africa", "Argentina", "Australia", "France", "Great Britain", "Ireland",
    "Spain", "United States", "Samoa", "Kenya", "Canada", "Uruguay", "Japan", "Germany",
)  # fmt: skip
LINE_KEYS = ("tries", "conversions", "penalties", "drop_goals")
# R8, after league points: (record field, best is high?)
TABLE_STEPS = (("tries_for", True), ("points_for", True), ("tries_against", False), ("points_against", False))
# R9's group record, with the words record.md's summaries use.
RECORD_COUNTS = (
    ("league_points", "league points", True),
    ("tries_for", "tries scored", True),
    ("points_for", "points scored", True),
    ("tries_against", "tries conceded", False),
    ("points_against", "points conceded", False),
)

Line = dict[str, int]


class Disagreement(Exception):
    """The record says something the rules do not give (raised where the rest cannot be followed)."""


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    scrum_left: dict[str, int] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    champion: str | None = None


# --- scoring (original rules 4-5, R1, R2) ----------------------------------------------------


def force_line(faces: list[int]) -> Line:
    """Rule 4: a FORCE 5 is a try (never converted), a 3 a penalty."""
    return {"tries": faces.count(5), "conversions": 0, "penalties": faces.count(3), "drop_goals": 0}


def throw_line(a: int, b: int) -> Line:
    """Rule 5 (i)-(ii), R1, R2: a total of 7 is a converted try; else each 5 a try, each 3 a drop goal."""
    if a + b == 7:
        return {"tries": 1, "conversions": 1, "penalties": 0, "drop_goals": 0}
    return {"tries": (a == 5) + (b == 5), "conversions": 0, "penalties": 0, "drop_goals": (a == 3) + (b == 3)}


def add(x: Line, y: Line) -> Line:
    return {k: x[k] + y[k] for k in LINE_KEYS}


def points(line: Line) -> int:
    return 5 * line["tries"] + 2 * line["conversions"] + 3 * line["penalties"] + 3 * line["drop_goals"]


def line_of(dice: dict[str, Any]) -> Line:
    line = force_line(list(dice["force"]))
    for option in dice["flair"]:
        for a, b in option:
            line = add(line, throw_line(a, b))
    return line


# --- the dice (fair-dice.md, R14) and the group draw (record.md) -------------------------------


def stream(seed: bytes, digest: str, name: str) -> Iterator[int]:
    """Block k is HMAC-SHA256(seed, "<digest>/<name>/<k>"); a byte below 252 is the die byte % 6 + 1."""
    k = 0
    while True:
        for byte in hmac.new(seed, f"{digest}/{name}/{k}".encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                yield byte % 6 + 1
        k += 1


def throw_order(dice: Iterator[int], force: int, flair: int) -> dict[str, Any]:
    """FORCE dice first, one per point, then each FLAIR option: two dice, again after every double."""
    out: dict[str, Any] = {"force": [next(dice) for _ in range(force)], "flair": []}
    for _ in range(flair // 3):
        option = []
        while True:
            a, b = next(dice), next(dice)
            option.append([a, b])
            if a != b:
                break
        out["flair"].append(option)
    return out


def orders_digest(commitment: str, turn: int, orders: dict[str, tuple[int, int]]) -> str:
    body = {
        "game": commitment,
        "orders": [{"flair": fl, "force": fo, "team": t} for t, (fo, fl) in sorted(orders.items())],
        "turn": turn,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _DrawStream:
    def __init__(self, seed: bytes) -> None:
        text = hmac.new(seed, b"sevens/draw", hashlib.sha256).hexdigest()
        self.key = hashlib.sha256(b"sevens/group-draw/v1" + b"s:" + text.encode("ascii")).digest()
        self.words: list[int] = []
        self.block = 0

    def below(self, n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while True:
            if not self.words:
                raw = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
                self.words = [int.from_bytes(raw[i : i + 8], "big") for i in range(0, 32, 8)]
                self.block += 1
            w = self.words.pop(0)
            if w < limit:
                return w % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower())


def redraw(seed: bytes, player_ids: list[str], teams: int, per_player: int) -> list[tuple[str, str, str, str | None]]:
    """The record's teams (id, name, group, manager) in order, drawn again from the seed."""
    draw = _DrawStream(seed)
    players = list(player_ids)
    draw.shuffle(players)
    letters = list("ABCD"[: teams // 4])
    draw.shuffle(letters)
    managers: dict[str, list[str | None]] = {g: [] for g in sorted(letters)}
    for s in range(len(players) * per_player):
        managers[letters[s % len(letters)]].append(players[s // per_player])
    places: list[tuple[str, str | None]] = []
    for g in sorted(managers):
        four = managers[g] + [None] * (4 - len(managers[g]))
        draw.shuffle(four)
        places += [(g, m) for m in four]
    names = list(NAMES[:teams])
    draw.shuffle(names)
    return [(slug(n), n, g, m) for n, (g, m) in zip(names, places, strict=True)]


# --- formats (R6, R12) ------------------------------------------------------------------------


def legal_arrangements(players: int) -> list[tuple[int, int]]:
    """(teams, teams per player): 8 or 16 teams in groups of four, each player the same number of teams,
    never two in a group (so at most one per group), at least two each below eight players."""
    out = []
    for teams in (8, 16):
        for k in range(1, teams // 4 + 1):
            if players * k <= teams and (players >= 8 or k >= 2):
                out.append((teams, k))
    return out


def default_arrangement(players: int) -> tuple[int, int]:
    """R12: the largest share of managed teams, the smaller format on a tie."""
    return max(legal_arrangements(players), key=lambda a: (players * a[1] / a[0], -a[0]))


def stages(teams: int) -> list[str]:
    knockouts = ["quarter-final", "semi-final", "final"] if teams == 16 else ["semi-final", "final"]
    return ["group"] * 3 + knockouts


GROUP_ROUNDS = ((0, 1, 2, 3), (2, 0, 3, 1), (0, 3, 1, 2))  # record.md / R7: home, away, home, away


# --- tables (R8) and lots (R10) ---------------------------------------------------------------


def draw_lots(teams: list[str], dice: Iterator[int]) -> tuple[list[str], list[list[list[Any]]]]:
    """Every team throws one die, in id order; highest first; teams level throw again among
    themselves, the higher places first, each taking the next dice of the stream."""
    rounds: list[list[list[Any]]] = []

    def settle(level: list[str]) -> list[str]:
        faces = {t: next(dice) for t in sorted(level)}
        rounds.append([[t, f] for t, f in faces.items()])
        out: list[str] = []
        for face in sorted(set(faces.values()), reverse=True):
            same = [t for t, f in faces.items() if f == face]
            out += same if len(same) == 1 else settle(same)
        return out

    return settle(teams), rounds


def order_from_throws(teams: list[str], rounds: list[list[list[Any]]]) -> list[str] | None:
    """The order a recorded sequence of throws gives, read the same way (None: the throws do not fit)."""
    it = iter(rounds)

    def settle(level: list[str]) -> list[str] | None:
        thrown = next(it, None)
        if thrown is None or sorted(t for t, _ in thrown) != sorted(level) or [t for t, _ in thrown] != sorted(level):
            return None
        out: list[str] = []
        for face in sorted({f for _, f in thrown}, reverse=True):
            same = [t for t, f in thrown if f == face]
            if len(same) == 1:
                out += same
            else:
                sub = settle(same)
                if sub is None:
                    return None
                out += sub
        return out

    got = settle(teams)
    return got if got is not None and next(it, None) is None else None


def team_stats(team: str, matches: list[dict[str, Any]]) -> dict[str, int]:
    s = dict.fromkeys(
        ("played", "won", "drawn", "lost", "tries_for", "tries_against", "points_for", "points_against", "league_points"),
        0,
    )
    for m in matches:
        if team not in (m["home"], m["away"]):
            continue
        mine, theirs = ("home", "away") if m["home"] == team else ("away", "home")
        s["played"] += 1
        s["tries_for"] += m[f"{mine}_line"]["tries"]
        s["tries_against"] += m[f"{theirs}_line"]["tries"]
        s["points_for"] += points(m[f"{mine}_line"])
        s["points_against"] += points(m[f"{theirs}_line"])
        winner = m["winner"]
        if winner is None:
            s["drawn"] += 1
            s["league_points"] += 1
        elif winner == team:
            s["won"] += 1
            s["league_points"] += 2
        else:
            s["lost"] += 1
    return s


def partition(teams: list[str], key: dict[str, int], high: bool) -> list[list[str]]:
    values = sorted({key[t] for t in teams}, reverse=high)
    return [sorted(t for t in teams if key[t] == v) for v in values]


def table_order(
    teams: list[str], stats: dict[str, dict[str, int]], matches: list[dict[str, Any]]
) -> list[tuple[str, Any, Any]]:
    """R8: ('team', id, criterion) in place order, with ('lots', [ids], None) where only lots can split."""
    out: list[tuple[str, Any, Any]] = []

    def split(level: list[str], step: int) -> None:
        if len(level) == 1:
            out.append(("team", level[0], "league_points" if step == 0 else None))
            return
        steps: list[str] = [name for name, _ in TABLE_STEPS] + ["head_to_head"]
        for i in range(step, len(steps)):
            name = steps[i]
            if name == "head_to_head":
                among = [m for m in matches if m["home"] in level and m["away"] in level]
                key = {t: team_stats(t, among)["league_points"] for t in level}
                high = True
            else:
                key = {t: stats[t][name] for t in level}
                high = dict(TABLE_STEPS)[name]
            parts = partition(level, key, high)
            if len(parts) > 1:
                for part in parts:
                    if len(part) == 1:
                        out.append(("team", part[0], name))
                    else:
                        split(part, i + 1)
                return
        out.append(("lots", level, None))

    for part in partition(teams, {t: stats[t]["league_points"] for t in teams}, True):
        if len(part) == 1:
            out.append(("team", part[0], "league_points"))
        else:
            split(part, 0)
    return out


# --- the checker ------------------------------------------------------------------------------


class _Check:
    def __init__(self, record: dict[str, Any], *, default_format: bool) -> None:
        self.r = record
        self.found = Findings()
        self.default_format = default_format
        seed_hex = record.get("seed")
        self.seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else None

    def expect(self, where: str, worked_out: Any, recorded: Any) -> None:
        if worked_out != recorded:
            self.found.problems.append(f"{where}: the rules give {worked_out!r}, the record says {recorded!r}")

    # set-up
    def setup(self) -> None:
        r = self.r
        self.expect("format", "sevens-game-record", r["format"])
        self.expect("version", 1, r["version"])
        if self.seed is None:
            self.found.problems.append("seed: a finished record must reveal its seed")
        else:
            self.expect("seed_sha256", hashlib.sha256(self.seed).hexdigest(), r["seed_sha256"])
        t = r["tournament"]
        players = len(r["players"])
        self.expect("tournament.players", players, t["players"])
        if not 4 <= players <= 16:
            raise Disagreement(f"{players} players: the game is for 4 to 16")
        teams, k = t["teams"], t["teams_per_player"]
        if (teams, k) not in legal_arrangements(players):
            self.found.problems.append(f"tournament: {teams} teams, {k} each is not legal for {players} players (R12)")
        if self.default_format:
            self.expect("tournament (R12 default)", default_arrangement(players), (teams, k))
        self.expect("tournament.groups", teams // 4, t["groups"])
        self.expect("tournament.turns", len(stages(teams)), t["turns"])
        self.expect("tournament.stages", stages(teams), t["stages"])
        self.expect("tournament.house_teams", teams - players * k, t["house_teams"])
        self.teams = {team["id"]: team for team in r["teams"]}
        self.expect("teams (count)", teams, len(r["teams"]))
        self.expect("teams (ids unique)", len(r["teams"]), len(self.teams))
        self.letters = list("ABCD"[: teams // 4])
        self.groups = {g: [team["id"] for team in r["teams"] if team["group"] == g] for g in self.letters}
        for g, ids in self.groups.items():
            self.expect(f"group {g} (R7: four teams)", 4, len(ids))
        self.expect("teams listed group by group", [tid for g in self.letters for tid in self.groups[g]],
                    [team["id"] for team in r["teams"]])  # fmt: skip
        for p in r["players"]:
            mine = [tid for tid, team in self.teams.items() if team["manager"] == p["id"]]
            self.expect(f"players[{p['id']}].teams", sorted(mine), sorted(p["teams"]))
            self.expect(f"players[{p['id']}]: teams managed", k, len(mine))
            groups = [self.teams[tid]["group"] for tid in mine]
            self.expect(f"players[{p['id']}]: one team per group (R12)", len(set(groups)), len(groups))
        house = [tid for tid, team in self.teams.items() if team["manager"] is None]
        self.expect("house teams", teams - players * k, len(house))
        self.found.seen["house teams"] += len(house)
        if r["draw"] == "game-seed" and self.seed is not None:
            again = redraw(self.seed, [p["id"] for p in r["players"]], teams, k)
            written = [(team["id"], team["name"], team["group"], team["manager"]) for team in r["teams"]]
            self.expect("teams (the group draw from the seed)", again, written)
            self.found.seen["group draws redone"] += 1
        self.n_teams = teams

    # turns
    def turns(self) -> None:
        r = self.r
        scrum = dict.fromkeys(self.teams, START_SCRUM)
        self.scrum_low = dict(scrum)
        group_matches: dict[str, list[dict[str, Any]]] = {g: [] for g in self.letters}
        in_play = set(self.teams)
        previous_winners: list[str] = []
        tables: dict[str, list[dict[str, Any]]] = {}
        self.expect("turns (count)", len(stages(self.n_teams)), len(r["turns"]))
        for index, (turn, stage) in enumerate(zip(r["turns"], stages(self.n_teams), strict=False)):
            n = index + 1
            at = f"turns[{index}]"
            self.expect(f"{at}.number", n, turn["number"])
            self.expect(f"{at}.stage", stage, turn["stage"])
            fixtures: list[tuple[str | None, str, str]]
            if stage == "group":
                pairs = [
                    (g, self.groups[g][h1], self.groups[g][a1], self.groups[g][h2], self.groups[g][a2])
                    for g in self.letters
                    for h1, a1, h2, a2 in [GROUP_ROUNDS[index]]
                ]
                fixtures = [(g, h, a) for g, h1, a1, h2, a2 in pairs for h, a in ((h1, a1), (h2, a2))]
            elif index == 3:
                first = {g: tables[g][0]["team"] for g in self.letters}
                second = {g: tables[g][1]["team"] for g in self.letters}
                if len(self.letters) == 2:
                    fixtures = [(None, first["A"], second["B"]), (None, first["B"], second["A"])]
                else:
                    fixtures = [
                        (None, first["A"], second["D"]),
                        (None, first["B"], second["C"]),
                        (None, first["C"], second["B"]),
                        (None, first["D"], second["A"]),
                    ]
                self.check_r11(first, second, fixtures)
                in_play = {t for _, h, a in fixtures for t in (h, a)}
            else:
                w = previous_winners
                fixtures = [(None, w[0], w[2]), (None, w[1], w[3])] if len(w) == 4 else [(None, w[0], w[1])]
                in_play = set(w)
            self.expect(f"{at}.matches (fixtures)", [(g, h, a) for g, h, a in fixtures],
                        [(m["group"], m["home"], m["away"]) for m in turn["matches"]])  # fmt: skip
            if [(m["home"], m["away"]) for m in turn["matches"]] != [(h, a) for _, h, a in fixtures]:
                raise Disagreement(f"{at}: the fixtures differ from the rules'; the rest cannot be followed")
            self.expect(f"{at}: every team still in plays once (R6)", sorted(in_play),
                        sorted(t for m in turn["matches"] for t in (m["home"], m["away"])))  # fmt: skip
            orders = {}
            for m in turn["matches"]:
                for side in ("home", "away"):
                    o = m[f"{side}_order"]
                    orders[m[side]] = (o["force"], o["flair"])
            digest = orders_digest(r["seed_sha256"], n, orders)
            self.expect(f"{at}.orders_digest", digest, turn["orders_digest"])
            winners = []
            lots = list(turn["lots"])
            for k, m in enumerate(turn["matches"]):
                winners.append(self.match(f"{at}.matches[{k}]", n, k + 1, stage, m, digest, scrum, group_matches, lots))
                if stage == "group":
                    group_matches[m["group"]].append(m)
            if index == 2:
                for g in self.letters:
                    tables[g] = self.table(g, group_matches[g], lots, n)
            if lots:
                self.found.problems.append(f"{at}.lots: {len(lots)} draw(s) the rules did not call for")
            previous_winners = winners
        self.found.scrum_left = scrum
        self.found.tables = tables
        self.group_matches = group_matches
        if len(r["turns"]) == len(stages(self.n_teams)):
            self.found.champion = previous_winners[0]
            self.expect("champion", previous_winners[0], r["champion"])
            self.found.seen["champions"] += 1
        for g in self.letters:
            self.expect(f"groups.{g}", tables.get(g), r["groups"].get(g))
        self.found.seen["teams that ran out of SCRUM"] += sum(1 for low in self.scrum_low.values() if low == 0)

    def check_r11(
        self, first: dict[str, str], second: dict[str, str], fixtures: list[tuple[str | None, str, str]]
    ) -> None:
        """R11 itself: winners meet runners-up of another group; a group's two in opposite halves."""
        group_of = {t: g for g in self.letters for t in (first[g], second[g])}
        # Halves: matches 1 and 3 (then 2 and 4) meet next with four; with two, each match is a half.
        halves = [{0, 2}, {1, 3}] if len(fixtures) == 4 else [{0}, {1}]
        for _, h, a in fixtures:
            if h not in first.values() or a not in second.values() or group_of[h] == group_of[a]:
                self.found.problems.append(f"R11: {h} v {a} is not a group winner against another group's runner-up")
        for g in self.letters:
            sides = [next(j for j, hs in enumerate(halves) if any(t in fixtures[i][1:] for i in hs)) for t in (first[g], second[g])]
            if sides[0] == sides[1]:
                self.found.problems.append(f"R11: group {g}'s first two are in the same half")

    def match(
        self,
        at: str,
        n: int,
        k: int,
        stage: str,
        m: dict[str, Any],
        digest: str,
        scrum: dict[str, int],
        group_matches: dict[str, list[dict[str, Any]]],
        lots: list[dict[str, Any]],
    ) -> str:
        mid = f"t{n}-m{k}"
        self.expect(f"{at}.id", mid, m["id"])
        self.found.seen["matches"] += 1
        lines: dict[str, Line] = {}
        for side in ("home", "away"):
            team = m[side]
            o = m[f"{side}_order"]
            force, flair = o["force"], o["flair"]
            held = scrum[team]
            self.expect(f"{at}.scrum.{team}.before", held, m["scrum"][team]["before"])
            ok = (
                isinstance(force, int) and isinstance(flair, int) and force >= 0 and flair >= 0
                and flair % 3 == 0 and force + flair <= held
            )  # fmt: skip
            if not ok:
                self.found.problems.append(f"{at}.{side}_order: FORCE {force}, FLAIR {flair} breaks R3 with {held} SCRUM")
            if force + flair == held and held > 0:
                self.found.seen["orders spending all SCRUM held"] += 1
            if self.teams[team]["manager"] is None and (o["autopilot"] is None or o["missed"]):
                # R12: a house team is played by a bot, so its order names the bot; nobody can miss it.
                self.found.problems.append(f"{at}.{side}_order: a house team's order is its bot's, never missed")
            if o["missed"]:
                self.found.seen["missed orders"] += 1
                if o["autopilot"] is None:
                    self.found.problems.append(f"{at}.{side}_order: a missed order names its autopilot (R13)")
            dice = m[f"{side}_dice"]
            self.expect(f"{at}.{side}_dice.force (count)", force, len(dice["force"]))
            self.expect(f"{at}.{side}_dice.flair (options)", flair // 3, len(dice["flair"]))
            for option in dice["flair"]:
                doubles = [a == b for a, b in option]
                if not option or doubles[-1] or not all(doubles[:-1]):
                    self.found.problems.append(f"{at}.{side}_dice.flair: {option} (R2: again after a double, only then)")
                self.found.seen["FLAIR re-throws after doubles"] += len(option) - 1
            if any(not 1 <= f <= 6 for f in dice["force"]) or any(
                not 1 <= f <= 6 for option in dice["flair"] for throw in option for f in throw
            ):
                self.found.problems.append(f"{at}.{side}_dice: a face off a six-sided die")
            if self.seed is not None:
                again = throw_order(stream(self.seed, digest, f"{mid}/{side}"), force, flair)
                self.expect(f"{at}.{side}_dice (thrown again from the seed)", again, dice)
                self.found.seen["dice thrown again"] += len(again["force"]) + 2 * sum(len(x) for x in again["flair"])
            line = line_of(dice)
            lines[side] = line
            self.expect(f"{at}.{side}_line", {**line, "points": points(line)}, m[f"{side}_line"])
        hp, ap = points(lines["home"]), points(lines["away"])
        home, away = m["home"], m["away"]
        if stage == "group":
            winner = home if hp > ap else away if ap > hp else None
            decided = None if winner is None else "points"
            summary = f"{max(hp, ap)}-{min(hp, ap)}" if winner else f"{hp}-{hp}, a draw"
            self.found.seen["group draws" if winner is None else "group wins"] += 1
            if winner is None and hp == 0:
                self.found.seen["group draws 0-0"] += 1
        else:
            winner, decided, summary = self.knockout(at, n, mid, stage, m, lines, group_matches, lots)
            self.found.seen[f"knockout decided by {decided}"] += 1
        self.expect(f"{at}.winner", winner, m["winner"])
        self.expect(f"{at}.decided_by", decided, m["decided_by"])
        self.expect(f"{at}.summary", summary, m["summary"])
        self.expect(f"{at}.scrum (teams)", sorted({home, away}), sorted(m["scrum"]))
        for side in ("home", "away"):
            team = m[side]
            o = m[f"{side}_order"]
            after = scrum[team] - o["force"] - o["flair"] + (WIN_BONUS if team == winner else 0)
            self.expect(f"{at}.scrum.{team}.after", after, m["scrum"][team]["after"])
            self.scrum_low[team] = min(self.scrum_low[team], scrum[team] - o["force"] - o["flair"])
            scrum[team] = after
        return winner if winner is not None else ""

    def knockout(
        self,
        at: str,
        n: int,
        mid: str,
        stage: str,
        m: dict[str, Any],
        lines: dict[str, Line],
        group_matches: dict[str, list[dict[str, Any]]],
        lots: list[dict[str, Any]],
    ) -> tuple[str, str, str]:
        home, away = m["home"], m["away"]
        hl, al = lines["home"], lines["away"]
        hp, ap = points(hl), points(al)
        if hp != ap:
            return (home if hp > ap else away), "points", f"{max(hp, ap)}-{min(hp, ap)}"
        for key, words in (("tries", "tries"), ("conversions", "conversions"), ("drop_goals", "drop goals")):
            if hl[key] != al[key]:
                w, lo = max(hl[key], al[key]), min(hl[key], al[key])
                return (home if hl[key] > al[key] else away), key, f"{hp}-{hp}, won on {words} {w}-{lo}"
        all_group = [x for ms in group_matches.values() for x in ms]
        rec = {t: team_stats(t, all_group) for t in (home, away)}
        for key, words, high in RECORD_COUNTS:
            a, b = rec[home][key], rec[away][key]
            if a != b:
                home_wins = (a > b) == high
                w, lo = (a, b) if home_wins else (b, a)
                self.found.seen[f"knockout won on group record ({words})"] += 1
                return (
                    (home if home_wins else away),
                    "group_record",
                    f"{hp}-{hp}, level on count-back, won on group record ({words} {w}-{lo})",
                )
        # Lots (R9, R10): the knockout draws come first in the turn's list, in match order.
        what = f"{mid} ({stage}): {home} v {away}, level after count-back and group record"
        order = self.lots(f"{at} lots", lots, f"t{n}/lots/{mid}", what, [home, away], n)
        self.found.seen["knockout lots"] += 1
        return order[0], "lots", f"{hp}-{hp}, level on count-back and group record, won by drawing lots"

    def lots(
        self, at: str, lots: list[dict[str, Any]], name: str, what: str, teams: list[str], n: int,
        dice: Iterator[int] | None = None,
    ) -> list[str]:  # fmt: skip
        if not lots:
            raise Disagreement(f"{at}: the rules call for lots ({what}) and the record has none")
        entry = lots.pop(0)
        self.expect(f"{at}.stream", name, entry["stream"])
        self.expect(f"{at}.what", what, entry["what"])
        self.expect(f"{at}.teams", sorted(teams), entry["teams"])
        follows = order_from_throws(sorted(teams), entry["throws"])
        if follows is None:
            self.found.problems.append(f"{at}.throws: {entry['throws']} is not a drawing of lots among {sorted(teams)}")
        else:
            self.expect(f"{at}.order (from its throws)", follows, entry["order"])
        if self.seed is not None:
            digest = self.r["turns"][n - 1]["orders_digest"]
            source = dice if dice is not None else stream(self.seed, digest, name)
            again, rounds = draw_lots(sorted(teams), source)
            for thrown in rounds:
                faces = Counter(f for _, f in thrown)
                if sum(1 for c in faces.values() if c > 1) > 1:
                    self.found.seen["lots throws leaving two level sets"] += 1
            first = Counter(f for _, f in rounds[0])
            if sum(1 for c in first.values() if c > 1) > 1 and len({f for _, f in rounds[1]}) < len(rounds[1]):
                # Where the two readings of "higher places first" part: the higher set settles
                # before the lower one throws at all, or they take turns.
                self.found.seen["lots: the higher level set tied again before the lower threw"] += 1
            self.expect(f"{at}.throws (thrown again from the seed)", rounds, entry["throws"])
            self.expect(f"{at}.order (thrown again from the seed)", again, entry["order"])
            self.found.seen["lots rounds thrown"] += len(rounds)
            return again
        return list(follows or entry["order"])

    def table(self, g: str, matches: list[dict[str, Any]], lots: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
        ids = self.groups[g]
        stats = {t: team_stats(t, matches) for t in ids}
        for t in ids:
            self.expect(f"group {g}: {t} played (R7)", 3, stats[t]["played"])
        pairs = Counter(frozenset((m["home"], m["away"])) for m in matches)
        self.expect(f"group {g}: every pair meets once (R7)", 6, sum(1 for c in pairs.values() if c == 1))
        placed = table_order(ids, stats, matches)
        rows: list[dict[str, Any]] = []
        digest = self.r["turns"][n - 1]["orders_digest"]
        name = f"t{n}/lots/group-{g}"
        dice = stream(self.seed, digest, name) if self.seed is not None else None
        for item in placed:
            if item[0] == "team":
                rows.append({"team": item[1], "decided_by": item[2]})
                self.found.seen[f"table places by {item[2]}"] += 1
            else:
                level = item[1]
                first = len(rows) + 1
                what = f"group {g}: places {first}-{first + len(level) - 1}"
                order = self.lots(f"group {g} lots", lots, name, what, level, n, dice)
                rows += [{"team": t, "decided_by": "lots"} for t in order]
                self.found.seen["table places by lots"] += len(level)
                self.found.seen["group lots"] += 1
        table = []
        for pos, row in enumerate(rows, 1):
            s = stats[row["team"]]
            table.append({"team": row["team"], "position": pos, **s, "decided_by": row["decided_by"]})
        return table


def check_record(record: dict[str, Any], *, default_format: bool = False) -> Findings:
    """Everything the rules give, compared with ``record``; ``default_format``: the game was set up
    with R12's default arrangement for its number of players."""
    check = _Check(record, default_format=default_format)
    try:
        check.setup()
        check.turns()
    except Disagreement as exc:
        check.found.problems.append(str(exc))
    except (KeyError, IndexError, TypeError, ValueError, StopIteration) as exc:
        check.found.problems.append(f"the record cannot be followed: {type(exc).__name__}: {exc}")
    return check.found


def table_so_far(teams: list[str], matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A group's table before its last round (standings.md, "A group that is not finished"): the same
    steps, head-to-head over the matches played so far, no lots: teams still level share a place
    (the next place skips), listed in id order, ``decided_by`` null."""
    stats = {t: team_stats(t, matches) for t in teams}
    rows: list[dict[str, Any]] = []
    for kind, who, criterion in table_order(teams, stats, matches):
        place = len(rows) + 1
        level = [who] if kind == "team" else sorted(who)
        for t in level:
            rows.append({"team": t, "position": place, **stats[t], "decided_by": criterion})
    return rows
