"""Bots in tournaments: the job description, the play loop and the in-process job runner.

A :class:`BotGameJob` carries everything needed to create (if missing) and play one all-bot
tournament game, so any process with access to the store can play it — in this process
(:func:`inline_runner`) or in parallel workers (a :data:`JobRunner` is any callable that
plays a list of jobs to the end; ``annales tournament run --workers N`` uses one).

Every bot decision is made by ``make_bot(kind, bot seed + version)`` (the version as 8
big-endian bytes) and stored with the command id and idempotency key ``bot-{seat}-{version}``:
the same seeds give byte-identical games whichever process plays them, and however often
the play is interrupted and resumed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.bots import make_bot
from domain.core.chance import derived_nonce
from domain.tournament import seeds
from domain.tournament.events import EntrantRegistered
from service.app.application import GameService


@dataclass(frozen=True)
class BotGameJob:
    """Everything needed to create (if missing) and play one all-bot tournament game.

    ``bots[seat]`` is the bot kind of the seat; ``bot_seeds[seat]`` its seed (each decision
    uses ``bot_seeds[seat] + version`` as 8 big-endian bytes, see :func:`play_bot_seats`).
    """

    game_id: str
    game_type: str
    options: dict[str, Any]
    seat_names: tuple[str, ...]
    seed: bytes
    bots: tuple[str, ...]
    bot_seeds: tuple[bytes, ...]


#: plays jobs until their games are over (in-process by default; parallel workers may be used).
JobRunner = Callable[[Sequence[BotGameJob]], None]


# -- bots -------------------------------------------------------------------------------------
def bot_seats(
    entrants: Sequence[EntrantRegistered], game_seed: bytes
) -> dict[int, tuple[str, bytes]]:
    """The bot seats of a table (seat → (bot kind, bot seed)), its entrants in seat order;
    each seed derived from the game's (:func:`domain.tournament.seeds.bot_seed`)."""
    return {
        seat: (str(entrant.bot), seeds.bot_seed(game_seed, seat))
        for seat, entrant in enumerate(entrants)
        if entrant.kind == "bot"
    }


def play_bot_seats(games: GameService, game_id: str, bots: dict[int, tuple[str, bytes]]) -> int:
    """Let the bot seats (seat → (kind, seed)) play until the game ends or a person is due.

    Returns the number of commands submitted.
    """
    submitted = 0
    while True:
        match = games.head(game_id)
        game = match.game
        if game.is_over(match.state):
            return submitted
        movers = [seat for seat in game.pending(match.state).seats if seat in bots]
        if not movers:
            return submitted
        seat = movers[0]
        kind, seed = bots[seat]
        version = match.version
        bot = make_bot(kind, seed + version.to_bytes(8, "big"))
        command = bot.choose(game, match.state, seat)
        key = f"bot-{seat}-{version}"
        games.submit(
            game_id, seat, command, expected_version=version, idempotency_key=key, command_id=key
        )
        submitted += 1


def run_job(games: GameService, job: BotGameJob) -> None:
    """Create the job's game if it is not stored yet, then play it to the end."""
    if games.store.last_seq(job.game_id) == 0:
        games.create_game(
            job.game_type,
            job.options,
            list(job.seat_names),
            seed=job.seed,
            game_id=job.game_id,
            nonce=derived_nonce(job.seed, job.game_id),
        )
    bots = {seat: (kind, job.bot_seeds[seat]) for seat, kind in enumerate(job.bots)}
    play_bot_seats(games, job.game_id, bots)


def inline_runner(games: GameService) -> JobRunner:
    """A :data:`JobRunner` playing the jobs one after another in this process."""

    def run(jobs: Sequence[BotGameJob]) -> None:
        for job in jobs:
            run_job(games, job)

    return run
