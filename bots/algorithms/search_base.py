"""What the determinized-search bots share: the variant's parameters, a playout's margin."""

from __future__ import annotations

from arena.api import GameInfo
from arena.engine import Params, ScoreOrder, State, find_game


def params_of(info: GameInfo) -> Params:
    """The variant's parameters, read back from its label (preset and overrides)."""
    game = find_game(info.game)
    preset, *rest = info.variant.split(",")
    overrides = dict(item.split("=", 1) for item in rest)
    return game.variant(preset, overrides).params


def margin(state: State, seat: int) -> float:
    """The seat's score less the mean of the others' (negated where lower wins)."""
    outcome = state.outcome()
    scores = outcome.scores
    others = (sum(scores) - scores[seat]) / max(1, len(scores) - 1)
    value = scores[seat] - others
    return value if outcome.order is ScoreOrder.HIGHER_WINS else -value
