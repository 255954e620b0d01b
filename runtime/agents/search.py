"""The search agent: determinized rollouts over worlds its seat cannot tell
from the true one.

At a decision in play (a turn, a claim window) it takes a few candidate
actions, the expert's best ones (pruned so the budget goes where it
matters: a turn's top discards, or in a claim window passing and the
claim), and deals worlds consistent with what its seat has seen
(runtime/agents/worlds.py: the other hands and the wall drawn from the tiles
it has not seen, never the true ones; the other hands as kept by choice,
near a line as their discards say). In each world it plays each candidate
and then the rest of the round with a fast playout policy at every seat
(the greedy agent's, or the expert's), and scores the round by the
variant's own payment formulas: the points its seat gained or lost. Every
candidate is played in the same worlds with the same playout chance, so
they are compared on the same luck; the candidate with the most points on
average is taken when it leads the expert's own choice by more than the
noise (1.64 standard errors of its gains over it, world by world, over
four worlds or more), else the expert's choice. A true Mah Jongg is always
taken, so a false one is never chosen (strict mode).
With `plans`, a turn also weighs the choice of the expert committed to
each of the hand's best lines, played out with that commitment; with
`styles`, the choices of experts of other styles (expert.STYLES), each
played out by its own expert. Before
play (Charleston passes, blind and courtesy counts, the vote, pledges) it
plays as the expert does.

The budget is `rollouts` playouts a decision (spread over the candidates);
`ms` instead stops after that much time, which depends on the machine and
does not replay. Its randomness derives from the seed, so with a rollout
budget a seeded match replays exactly. With `line` it is committed to one
line of the card: the expert's playouts aim for it alone, and a round won
with another line counts nothing.

It reads nothing but its observation and its legal actions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from jongg.runtime.agents.bots import Agent, GreedyAgent
from jongg.runtime.agents.expert import STYLES, ExpertAgent
from jongg.runtime.agents.worlds import IN_PLAY, Memory, Worlds
from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action
from jongg.runtime.game.chance import derived_rng
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import IllegalAction, State
from jongg.runtime.game.view import Observation

ROLLOUTS = 32  # playouts a decision when no budget is given
TOP = 3  # candidates weighed at a turn, at most
NEAR = 0.75  # a discard is weighed when the hand keeps this share of the best one's worth
# a candidate is taken over the expert's choice when it leads it by this many
# standard errors (one-sided 95%), over at least so many worlds
SURE = 1.64
FEWEST = 4
# a safer discard is weighed beside the expert's choice when an opponent's
# exposures say they need that choice this surely (the expert's hazard)
THREAT = 0.1
ROUND_LIMIT = 5_000  # decisions a playout may take before it is given up


class SearchError(JonggError, ValueError):
    """A search agent asked for what it cannot do."""


@dataclass(frozen=True)
class Plan:
    """How a candidate is played on at the searching seat: by the expert
    committed to a line, or of another style (expert.STYLES)."""

    line: str | None = None
    style: str = "usual"

    def __str__(self) -> str:
        return self.line if self.line is not None else self.style


class SearchAgent:
    """Chooses by playing candidate actions out in sampled worlds (see the
    module's doc)."""

    name = "search"

    def __init__(self, seed: int, seat: int, rollouts: int | None = None,
                 ms: int | None = None, line: str | None = None, policy: str = "greedy",
                 top: int = TOP, worlds: str = "kept", plans: int = 0, styles: int = 0):
        self.seat = seat
        self.rollouts = rollouts if rollouts is not None else (None if ms else ROLLOUTS)
        self.ms = ms
        self.line = line
        self.policy = policy
        self.top = max(top, 1)
        self.worlds = worlds  # the other hands dealt as kept by choice, or uniformly
        # plans: the expert committed to each of this many of the hand's best
        # lines offers its own choice, played out with that commitment
        self.plans = plans
        # styles: the choice of the expert of each of this many other styles, so played out
        if styles > len(STYLES) - 1:
            raise SearchError(f"styles={styles}: there are {len(STYLES) - 1} other styles")
        self.styles = styles
        self._planners: dict[Plan, ExpertAgent] = {}
        self.rng = derived_rng(seed, "search", seat)  # the worlds and their chance
        self.ranker = ExpertAgent(seed, seat, line=line)  # candidates, and play before play
        self._seed = seed
        self._players: list[GreedyAgent | ExpertAgent] = []
        self._game: Game | None = None
        self._claim: tuple[int, int, int] | None = None  # (round, giver, exposures) of a claim
        self.playouts = 0  # playouts run so far (for benches)
        self.searched = 0  # decisions searched (more than one candidate) so far
        self.departed = 0  # of those, the ones where it chose other than the expert
        self.weighed: list[Action] = []  # the candidates of the last decision in play
        self.planned: dict[Action, Plan] = {}  # of those, the ones a plan chose: its plan

    # -- deciding ------------------------------------------------------------------

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if seen.step not in IN_PLAY:
            return self.ranker.act(seen, legal)
        won = self.ranker._win(seen, legal) if seen.rules.spec.racks == 1 else None
        if won is not None:
            return won
        memory = self._memory(seen)
        candidates = self.weighed = self._candidates(seen, legal)[:self._most()]
        chosen = candidates[0]
        if len(candidates) > 1:
            chosen = self._search(seen, candidates, memory)
            self.searched += 1
            self.departed += chosen != candidates[0]
        self._remember(seen, chosen)
        return chosen

    def _most(self) -> int | None:
        """The most candidates a decision weighs: with a rollout budget, few
        enough that each is played in FEWEST worlds (else the choice rule
        could never leave the expert's), but always two."""
        if self.rollouts is None:
            return None  # a time budget: as many as found
        return max(2, self.rollouts // FEWEST)

    def _candidates(self, seen: Observation, legal: list[Action]) -> list[Action]:
        """The expert's choice first, then the next best it would play."""
        self.planned = {}
        first = self.ranker.act(seen, legal)
        out = [first]
        kinds = seen.rules.spec.claims
        if first.verb == "declare" or (first.verb == "claim" and not first.tiles
                                       and kinds.kind(first.claim).mahjong):
            return out  # a Mah Jongg (the expert declares and claims true ones only)
        if seen.step == "claims":
            if seen.rules.spec.racks == 1 and not self.ranker.wanted(seen):
                return out  # no line near the hand needs the discard: nothing to weigh
            if first.verb == "claim":
                out.append(next(a for a in legal if a.verb == "pass"))
            else:  # the set claim using the fewest jokers (a Mah Jongg claim is true or no)
                joker = seen.rules.joker
                sets = [a for a in legal if a.verb == "claim" and a.tiles
                        and not kinds.kind(a.claim).mahjong]
                if sets:
                    out.append(min(sets, key=lambda a: (a.tiles.count(joker), len(a.tiles))))
            return out
        # every joker exchange (there are few), then the next best discards
        out += [a for a in legal if a.verb == "exchange" and a != first]
        rest = [a for a in legal if a.verb == "discard" and a != first]
        if not rest or self.top == 1:
            return out + self._plan_candidates(seen, legal, out)
        if seen.rules.spec.racks == 1:  # the next best, if worth nearly as much
            ranked = self.ranker.ranked(seen, [first, *rest] if first.verb == "discard"
                                        else rest)
            least = ranked[0][1] - (1 - NEAR) * abs(ranked[0][1])
            safe = self._safer(seen, first, [a for a, _ in ranked])
            rest = [a for a, worth in ranked if a != first and a != safe and worth >= least]
            if safe is not None:  # defence, weighed first: it matters when it matters most
                rest.insert(0, safe)
        else:  # several racks: the discards that leave the rack plan nearest
            pool = seen.me.concealed()
            planner = self.ranker.racks.planner
            rest.sort(key=lambda a: planner.away(seen, GreedyAgent._less(pool, a.tile)))
        out += rest[:self.top - 1]  # top - 1 discards beside the first choice
        return out + self._plan_candidates(seen, legal, out)

    def _plan_candidates(self, seen: Observation, legal: list[Action],
                         found: list[Action]) -> list[Action]:
        """Plans: for each of the hand's best lines (`plans` of them), the
        expert's choice when committed to that line alone; for each of
        `styles` other styles, the choice of the expert of that style. Each
        is read afresh (an expert that played the playouts keeps their last
        hand), taken when it is not among the candidates already, and
        played out by the expert that chose it."""
        if self.line is not None or seen.rules.spec.racks > 1:
            return []
        plans = [Plan(line=line) for line in self.ranker.best_lines(seen, self.plans)] \
            if self.plans else []
        plans += [Plan(style=name) for name in list(STYLES)[1:1 + self.styles]]
        out: list[Action] = []
        for plan in plans:
            chosen = _expert(self._seed, self.seat, plan).act(seen, legal)
            if chosen not in found and chosen not in out:
                out.append(chosen)
                self.planned[chosen] = plan
        return out

    def _planner(self, plan: Plan) -> ExpertAgent:
        """The playouts' player of a plan: the expert that chose it."""
        planner = self._planners.get(plan)
        if planner is None:
            planner = self._planners[plan] = _expert(self._seed, self.seat, plan)
        return planner

    def _safer(self, seen: Observation, first: Action, ranked: list[Action]) -> Action | None:
        """The discard an opponent's exposures say they need least, the best
        of those (not a joker), when the expert's own choice is needed (a
        hazard of THREAT or more) and this one less: whether defence pays is
        for the playouts to say, in worlds where the others hold what they
        would have kept."""
        danger = self.ranker.hazards(seen)
        if danger is None or first.verb != "discard":
            return None
        joker = seen.rules.joker
        moves = [a for a in ranked if a.tile != joker]
        if not moves:
            return None
        safe = min(moves, key=lambda a: danger[a.tile])  # ranked: the best of the safest
        return safe if danger[first.tile] >= THREAT and danger[safe.tile] < danger[first.tile] \
            else None

    def weigh(self, seen: Observation, candidates: list[Action],
              memory: Memory | None = None, planned: dict[Action, Plan] | None = None
              ) -> list[list[float]]:
        """Per world, each candidate's points over this agent's budget, as
        a decision weighs them (memory: whether the turn began with a claim,
        else none; planned: the candidates a plan chose, with its line, as
        another agent's `planned` says, else none); for looking at a
        decision again with another budget or policy
        (bench/bench_departures.py)."""
        return self._weigh(seen, candidates, memory or Memory(), planned=planned or {})

    def _search(self, seen: Observation, candidates: list[Action], memory: Memory) -> Action:
        """Two candidates: the second is taken if it clearly leads the
        expert's choice. More: half the budget finds the leader, and the
        other half, in fresh worlds, checks it against the expert's choice
        alone. The leader of several is the one luck favoured most, so its
        lead in the worlds that chose it overstates it (on mjcg-card, about
        one in six departures so chosen was clearly worse when weighed
        again: docs/agents.md); fresh worlds do not share that luck."""
        if len(candidates) == 2:
            return candidates[_chosen(self._weigh(seen, candidates, memory))]
        half = rest = None
        if self.rollouts is not None:
            half = self.rollouts // 2
            rest = self.rollouts - half
        ms = None if self.ms is None else self.ms / 2
        best = _leader(self._weigh(seen, candidates, memory, half, ms))
        if best == 0:
            return candidates[0]
        pair = [candidates[0], candidates[best]]
        return pair[_chosen(self._weigh(seen, pair, memory, rest, ms))]

    def _weigh(self, seen: Observation, candidates: list[Action], memory: Memory,
               rollouts: int | None = None, ms: float | None = None,
               planned: dict[Action, Plan] | None = None) -> list[list[float]]:
        """Per world, each candidate's points, over the agent's budget or
        the one given. Every candidate is played in the same world and with
        the same chance: the playout policy's ties go the same way after
        each, so two candidates differ only by what they change (common
        random numbers). A plan's candidate is played on by the expert
        committed to its line at this seat."""
        game = self._game_of(seen)
        worlds = Worlds(game, seen, memory, kept=self.worlds == "kept")
        shared = self._playout_players(seen)
        planned = self.planned if planned is None else planned
        seat = self.seat
        cast = [shared if action not in planned else
                [*shared[:seat], self._planner(planned[action]), *shared[seat + 1:]]
                for action in candidates]
        scored: list[list[float]] = []
        played = 0
        budget = rollouts if rollouts is not None else self.rollouts
        ms = ms if ms is not None else self.ms
        deadline = None if ms is None else time.perf_counter() + ms / 1000
        while True:
            world = worlds.sample(self.rng, self.rng.randrange(1 << 30))
            luck = self.rng.randrange(1 << 30)  # the playout policy's ties in this world
            scores = []
            for action, players in zip(candidates, cast, strict=True):
                for s, player in enumerate(players):
                    player.rng.seed(luck * len(players) + s)
                twin = world.clone()
                try:
                    twin.apply(self.seat, action)
                except IllegalAction:  # a world the observation allows but the rules do not
                    break
                scores.append(self._playout(twin, players))
            if len(scores) == len(candidates):
                scored.append(scores)
            played += len(candidates)
            self.playouts += len(candidates)
            if budget is not None and played + len(candidates) > budget:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return scored

    def _playout(self, state: State, players: Sequence[Agent]) -> float:
        """The rest of the round by the playout policy; the points this seat
        gained in it."""
        me = self.seat
        before = state.scores[me]
        rounds = len(state.results)
        for _ in range(ROUND_LIMIT):
            if state.is_terminal() or len(state.results) > rounds:
                break
            seat = state.current_players()[0]
            # lazy: a playout's seat reads its observation only while it decides
            state.apply(seat, players[seat].act(state.observe(seat, lazy=True),
                                                state.legal_actions(seat)))
        if self.line is not None and len(state.results) > rounds:
            end = state.results[rounds]
            if end.winner == me and end.line != self.line:
                return 0.0  # committed: a win with another line is not the aim
        return float(state.scores[me] - before)

    # -- what it keeps -----------------------------------------------------------

    def _game_of(self, seen: Observation) -> Game:
        if self._game is None or self._game.spec is not seen.rules.spec:
            self._game = Game(seen.rules.spec, seen.rules.judge)
            if self.line is not None and seen.rules.spec.racks > 1:
                raise SearchError(f"line={self.line}: a committed line is played on one rack; "
                                  "this variant has several")
        return self._game

    def _playout_players(self, seen: Observation) -> list[GreedyAgent | ExpertAgent]:
        """The playout policy at every seat (this seat's committed to its line;
        mixed: the expert at this seat, as it will go on playing, greedy at
        the others)."""
        if not self._players:
            for s in range(len(seen.seats)):
                seed = derived_rng(self._seed, "playout", self.seat, s).randrange(1 << 30)
                line = self.line if s == self.seat else None
                expert = self.policy == "expert" or line or (
                    self.policy == "mixed" and s == self.seat)
                self._players.append(ExpertAgent(seed, s, line=line) if expert
                                     else GreedyAgent(seed, s))
        return self._players

    def _memory(self, seen: Observation) -> Memory:
        """Whether this turn began with a discard this seat claimed."""
        claim = self._claim
        if seen.step != "turn" or claim is None or claim[0] != seen.round:
            return Memory()
        if len(seen.me.exposures) > claim[2] or seen.promised:
            return Memory(True, claim[1])
        return Memory()

    def _remember(self, seen: Observation, chosen: Action) -> None:
        if seen.step == "claims" and seen.discard is not None:
            self._claim = (seen.round, seen.discard[0], len(seen.me.exposures)) \
                if chosen.verb == "claim" else None
        elif chosen.verb == "discard":
            self._claim = None


def _expert(seed: int, seat: int, plan: Plan) -> ExpertAgent:
    return ExpertAgent(seed, seat, line=plan.line, style=STYLES[plan.style])


def _leader(scored: list[list[float]]) -> int:
    """The candidate with the most points over the worlds (ties: the earlier)."""
    if not scored:
        return 0
    totals = [sum(w[i] for w in scored) for i in range(len(scored[0]))]
    return max(range(len(totals)), key=lambda i: (totals[i], -i))


def _chosen(scored: list[list[float]]) -> int:
    """The candidate with the most points over the worlds, if it beats the
    expert's choice (the first) by more than the noise: its mean gain over
    the first, world by world, above the one-sided 95% point of Student's t
    in standard errors, over FEWEST worlds or more. Otherwise the first:
    with few worlds a lead is mostly luck, and the playouts' policy is
    weaker than the expert."""
    n = len(scored)
    if n < FEWEST:
        return 0
    best = _leader(scored)
    if best == 0:
        return 0
    gains = [w[best] - w[0] for w in scored]
    mean = sum(gains) / n
    spread = (sum((g - mean) ** 2 for g in gains) / (n - 1)) ** 0.5
    return best if mean > _sure(n - 1) * spread / n ** 0.5 else 0


def _sure(df: int) -> float:
    """Student's t one-sided 95% point for df degrees of freedom, from the
    normal's (SURE) by its Cornish-Fisher expansion: within 2% from three
    degrees of freedom (2.31 for the true 2.35), exact in the limit. Over
    a few worlds the standard error is itself rough, so the normal's point
    would let luck through."""
    z = SURE
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
