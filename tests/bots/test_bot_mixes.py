"""What a bot mixes over (sevens.bots.mixes): every built-in bot says, its mix is the distribution
of its draws, it is worked out from the public view alone, and odds against it average exactly."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from types import SimpleNamespace

import pytest

from sevens.bots import MIX_MOST, STRATEGIES, EvenSpread, MixRefused, get_strategy, order_mix, shown_mix
from sevens.bots.mixes import share_mix
from sevens.odds import knockout_odds, match_odds, mix_odds
from sevens.rules import Order, seed_commitment
from sevens.tournament import (
    Format,
    ManagerView,
    Player,
    PlayerId,
    autopilot_orders,
    default_format,
    draw_game,
    new_game,
)

SEED = "5e" * 32


def _view(players: int = 4) -> ManagerView:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(players)]
    game = new_game(draw_game(people, default_format(players), seed_sha256=seed_commitment(SEED), draw_seed=0))
    return game.view_for(game.teams_in_play()[0])


def _knockout_view(scrum: int) -> ManagerView:
    view = _view(4)
    fmt: Format = view.format
    return dataclasses.replace(view, turn=4, stage=fmt.stages[3], scrum=scrum, turns_left=fmt.turns - 3)


VIEWS = {"group": _view(4), "group-16": _view(16), "knockout": _knockout_view(57)}


@pytest.mark.parametrize("where", sorted(VIEWS))
@pytest.mark.parametrize("name", [*STRATEGIES, "even@1.5", "equilibrium@1.2"])
def test_a_bots_mix_is_how_often_it_gives_each_order(name: str, where: str) -> None:
    """Drawn 4,000 times with random sources of its own, a bot gives only orders of its mix, each
    about as often as the mix says (within 3 points); for "random", whose 1,751 orders are too
    many to count so, its mean total and mean FLAIR agree with the mix's."""
    view = VIEWS[where]
    bot = get_strategy(name)
    mix = order_mix(bot, view)
    assert mix is not None
    assert abs(sum(chance for _, chance in mix) - 1) < 1e-9
    draws = Counter(bot.order(view, random.Random(i)) for i in range(4000))
    assert set(draws) <= {order for order, _ in mix}
    if name == "random":
        for side in ("total", "flair"):
            expected = sum(getattr(order, side) * chance for order, chance in mix)
            drawn = sum(getattr(order, side) * n for order, n in draws.items()) / 4000
            assert abs(drawn - expected) < 1.5, (side, drawn, expected)
        return
    for order, chance in mix:
        assert abs(draws[order] / 4000 - chance) < 0.03, (order, draws[order], chance)


def test_the_pacing_bots_mix_two_or_three_orders_and_their_fixed_shares_one() -> None:
    """The jitter of "even" (FLAIR half, give or take a tenth) makes 20 points 11+9 5/8 of the time
    and 8+12 3/8: 20 x share / 3 runs uniformly from 2.67 to 4 options, and 3.5 is where they part."""
    def chances(mix: object) -> dict[Order, float]:
        assert isinstance(mix, tuple)
        return {order: pytest.approx(chance, abs=1e-12) for order, chance in mix}

    assert chances(share_mix(20, 0.4, 0.6, scrum=100)) == {Order(11, 9): 0.625, Order(8, 12): 0.375}
    view = VIEWS["group"]  # 4 players: 5 matches, 20 a match
    assert chances(order_mix(get_strategy("even"), view)) == {Order(11, 9): 0.625, Order(8, 12): 0.375}
    assert order_mix(get_strategy("even-flair"), view) == ((Order(2, 18), 1.0),)
    assert order_mix(get_strategy("even-force"), view) == ((Order(20, 0), 1.0),)


def test_the_mix_is_worked_out_from_the_view_alone_never_the_secret_seed() -> None:
    """Two games alike but for their secret seed: the bot's real orders differ (each drawn from its
    game's seed, R14) while its mix, worked out from what its manager may see, is the same, and
    holds both real orders. order_mix takes no random source to leak one through."""
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    real: set[Order] = set()
    mixes = []
    for secret in ("5e" * 32, "a7" * 32, "0c" * 32, "d2" * 32):
        game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment(secret), draw_seed=0))
        team = game.teams_in_play()[0]
        view = game.view_for(team)
        mixes.append(order_mix(get_strategy("even"), dataclasses.replace(view, game_id="the same")))
        real.add(autopilot_orders(game, [team], lambda _: get_strategy("even"), seed=secret)[team].order)
    assert len(real) == 2  # the seed decides which order it plays...
    assert all(mix == mixes[0] for mix in mixes)  # ...and nothing of it shows in the mix
    assert mixes[0] is not None and real == {order for order, _ in mixes[0]}


def test_a_subclass_that_changes_how_a_built_in_orders_says_no_mix_unless_it_says_its_own() -> None:
    """A user's bot made from "even" with an order of its own (or a FLAIR share of its own) would
    inherit even's mix, which is not how it plays: it says none, and gets one typical order. One that
    only renames it, or says its own mix, keeps a mix."""
    view = VIEWS["group"]

    class Fixed(EvenSpread):
        def order(self, view: ManagerView, rng: random.Random) -> Order:
            return Order(force=10, flair=9)

    class Shares(EvenSpread):
        def flair_share(self, view: ManagerView, rng: random.Random) -> float:
            return 0.0

    class Renamed(EvenSpread):
        pass

    class Said(Fixed):
        def order_mix(self, view: ManagerView) -> tuple[tuple[Order, float], ...]:
            return ((Order(force=10, flair=9), 1.0),)

    assert order_mix(Fixed(), view) is None and order_mix(Shares(), view) is None
    assert order_mix(Renamed(), view) == order_mix(EvenSpread(), view)
    assert order_mix(Said(), view) == ((Order(10, 9), 1.0),)


class _OrderOnly:
    """A user's strategy as the protocol asks: a name and an order."""

    name = "mine"

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        return Order(force=10, flair=9)


class _BadMix(_OrderOnly):
    def __init__(self, mix: object) -> None:
        self.mix = mix

    def order_mix(self, view: ManagerView) -> object:
        return self.mix


def test_a_strategy_with_only_an_order_says_no_mix_and_a_bad_mix_is_refused_saying_why() -> None:
    view = VIEWS["group"]
    assert order_mix(_OrderOnly(), view) is None
    assert order_mix(_BadMix([(Order(10, 9), 3), (Order(10, 9), 1), (Order(20, 0), 0)]), view) == ((Order(10, 9), 1.0),)
    with pytest.raises(MixRefused, match=r"^a chance of -0\.5 for Order\(force=10, flair=9\); each chance must be a number of 0 or more$"):
        order_mix(_BadMix([(Order(10, 9), -0.5)]), view)
    # float() would take these, so a mix of them was taken as chances of 0.5 and 1.
    for chance in ("0.5", True):
        with pytest.raises(MixRefused, match=rf"^a chance of {chance!r} for .*; each chance must be a number of 0 or more$"):
            order_mix(_BadMix([(Order(10, 9), chance), (Order(20, 0), 0.5)]), view)
    with pytest.raises(MixRefused, match=r"^no order with a chance above 0; a mix needs at least one$"):
        order_mix(_BadMix([]), view)
    with pytest.raises(MixRefused, match=r"R3: FLAIR points must be a multiple of 3.*; a mix is \(Order, chance\) pairs"):
        order_mix(_BadMix([(Order(10, 9), 0.5), (SimpleNamespace(force=0, flair=5), 0.5)]), view)
    with pytest.raises(MixRefused, match=r"a mix is \(Order, chance\) pairs, each order legal \(R3\)$"):
        order_mix(_BadMix([Order(10, 9)]), view)


@pytest.mark.parametrize("knockout", [False, True])
def test_odds_against_a_mix_are_the_weighted_odds_against_each_order(knockout: bool) -> None:
    """Drawn once, 11+9 or 8+12; against the mix, the odds weigh each by its chance (R9's
    count-back in a knockout)."""
    mine, mix = Order(10, 9), ((Order(11, 9), 0.625), (Order(8, 12), 0.375))
    odds = mix_odds(mine, mix, knockout=knockout)
    each = [knockout_odds(mine, o) if knockout else match_odds(mine, o) for o, _ in mix]
    assert odds.win == pytest.approx(sum(c * e.win for (_, c), e in zip(mix, each, strict=True)), abs=1e-15)
    assert odds.loss == pytest.approx(sum(c * e.loss for (_, c), e in zip(mix, each, strict=True)), abs=1e-15)
    assert min(e.win for e in each) < odds.win < max(e.win for e in each)


def test_a_mix_of_too_many_orders_is_stood_in_for_by_an_even_sample() -> None:
    """"random" at 100 SCRUM mixes 1,751 orders: its knockout odds against each took 110 s, so a
    knockout's are against an even sample of 12 (a group's, of 400), fixed by the mix alone."""
    mix = order_mix(get_strategy("random"), VIEWS["group"])
    assert mix is not None and len(mix) == 1751
    for knockout in (False, True):
        shown = shown_mix(mix, knockout=knockout)
        assert shown.size == 1751 and shown.sampled
        assert len(shown.orders) <= MIX_MOST[knockout]
        assert abs(sum(c for _, c in shown.orders) - 1) < 1e-9
        assert shown == shown_mix(mix, knockout=knockout)
        mean = sum(o.total * c for o, c in shown.orders)
        assert abs(mean - 50) < 5  # spread over the totals as the mix is (its mean total is 50)
    small = order_mix(get_strategy("even"), VIEWS["group"])
    assert small is not None and shown_mix(small, knockout=True).orders == small


def test_a_sampled_mix_shows_the_whole_mixs_likeliest_order() -> None:
    """The odds' ``order`` is the mix's likeliest. For "random" in a knockout it was the sample's,
    4+0, which the bot gives 0.37 times in 101: every order of a sample counts alike, so which came
    out on top said nothing of the bot. Now 0+0, as likely as any order it gives."""
    mix = order_mix(get_strategy("random"), VIEWS["group"])
    assert mix is not None
    most = max(chance for _, chance in mix)
    for knockout in (False, True):
        shown = shown_mix(mix, knockout=knockout)
        assert dict(mix)[shown.likeliest] == most, (knockout, shown.likeliest, dict(mix)[shown.likeliest])


@pytest.mark.parametrize("pull", [0.0, 0.5, 1.0])
def test_a_field_readers_mix_moves_as_far_as_its_pull(pull: float) -> None:
    """A field-reader made with another ``pull`` (the guide's pulls.py) gives only orders of the mix
    it says: its mix had been worked out with the default pull whatever its own."""
    from sevens.bots.smart import FieldReader
    from sevens.rules import SeededDice
    from sevens.tournament.game import play_turn

    people = [Player(PlayerId(f"p{k}"), f"P{k}") for k in range(16)]
    setup = draw_game(people, Format(16, 16, 1), seed_sha256="0" * 64, draw_seed=3)
    for t, team in enumerate(setup.teams):  # a field heavy on FORCE early, so the reading moves
        setup = setup.with_autopilot(team.id, ("group-blitz", "even", "random")[t % 3])
    game = new_game(setup)
    for n in (1, 2):
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=f"{n:064x}")
        game = play_turn(game, orders, lambda stream, n=n: SeededDice(random.Random(f"{n}/{stream}")))
    bot, usual = FieldReader(pull=pull), FieldReader()
    moved = 0
    for team in game.teams_in_play():
        view = game.view_for(team)
        mix = dict(order_mix(bot, view) or ())
        draws = Counter(bot.order(view, random.Random(i)) for i in range(400))
        assert set(draws) <= set(mix), (team, draws, mix)
        moved += mix != dict(order_mix(usual, view) or ())
    assert moved > 0  # another pull changes some team's mix here
