"""Shared helpers of the audit tests: play a seeded Rise & Fall game and export its record."""

from __future__ import annotations

from domain.bots import make_bot
from service.api.redaction import RecordRequest, Redactor
from service.app.application import GameService
from service.app.autoplay import play_with_bots


def play(service: GameService, seed: bytes, commands: int | None = None, seats: int = 3) -> str:
    """A Rise & Fall game of random bots (to the end, or ``commands`` commands); its id."""
    game_id = service.create_game("riseandfall", {}, [f"s{i}" for i in range(seats)], seed).game_id
    bots = {i: make_bot("random", seed + bytes([i])) for i in range(seats)}
    play_with_bots(service, game_id, bots, max_commands=commands)  # type: ignore[arg-type]
    return game_id


def export(service: GameService, game_id: str, viewer: int | None) -> list[bytes]:
    """The record ``viewer`` gets from ExportRecord (through the one redaction function)."""
    record, _ = Redactor(service).outgoing(game_id, viewer, RecordRequest())
    assert isinstance(record, bytes)
    return record.split(b"\n")
