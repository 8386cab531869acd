"""Tournament records: one canonical JSON-lines file, and its offline verification.

A record (``annales.tournament/1``) is written once the tournament has ended (before that
the master seed and the unfinished games are secret, so :func:`export_tournament` refuses):

1. the header ``{"record", "tournament_id", "game_type", "format", "seed_commitment",
   "master_seed", "events", "games"}`` — the master seed revealed, in hex;
2. one ``{"type": "tournament_event", ...}`` line per tournament event: sequence number,
   command id, kind, the event as data, its msgpack payload (base64), previous hash, hash;
3. per game, in the order the games were assigned, a ``{"type": "game", "round", "table",
   "game_id", "lines"}`` line followed by the game's own record (``annales.game/2``, or
   ``annales.game/1`` in records written before salted commitments; see
   :mod:`service.audit.records`) — ``lines`` lines;
4. a last ``{"type": "standings", "rows": [...]}`` line: the final standings table.

:func:`verify_tournament` trusts nothing but the rules: it checks canonical form, the
tournament's hash chain and the master seed against its commitment; re-executes every game
from its derived seed and recorded commands (:func:`service.audit.records.verify_record`) and checks
the game's header against its assignment (type, options, seat names in the derived order,
seed commitment); then re-runs the tournament engine on the record's inputs (creation,
registrations, and each game's outcome *recomputed from its events*) and compares every
tournament event byte for byte, and the standings line with the recomputed standings.
Every problem names the round, table and sequence number where it was found.
``annales tournament verify RECORD`` runs it in a fresh process.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from domain.core.chance import LEGACY_COMMITMENT, derived_nonce, seed_commitment
from domain.core.envelope import GENESIS, Envelope, verify_link
from domain.core.game import Event
from domain.core.kernel_events import GameCreated, Undone
from domain.tournament import engine, seeds
from domain.tournament.engine import TournamentState
from domain.tournament.errors import TournamentError
from domain.tournament.events import (
    EntrantRegistered,
    GameAssigned,
    GameResultRecorded,
    TournamentCreated,
    TournamentEvent,
    decode_event,
    encode_event,
    event_to_data,
)
from service.app.ledger import Ledger
from service.audit.records import RecordError, export_lines, parse_lines, verify_record
from service.tournaments.types import TournamentRejected

if TYPE_CHECKING:
    from service.tournaments.service import TournamentService

RECORD_FORMAT = "annales.tournament/1"


def _canonical(data: dict[str, Any]) -> bytes:
    return msgspec.json.encode(data)


def export_tournament(service: TournamentService, tournament_id: str) -> list[bytes]:
    """The record of an ended tournament as canonical JSON lines (no trailing newlines)."""
    envelopes = service.envelopes(tournament_id)
    state = TournamentState()
    for envelope in envelopes:
        engine.evolve(state, decode_event(envelope.kind, envelope.payload))
    if state.ended is None:
        raise TournamentRejected(
            TournamentError(
                "TOURNAMENT_NOT_ENDED",
                "a tournament record is exported once the tournament has ended "
                "(the master seed and unfinished games are secret until then)",
            )
        )
    info = state.info
    assigned = [
        event
        for event in (decode_event(e.kind, e.payload) for e in envelopes)
        if isinstance(event, GameAssigned)
    ]
    lines = [
        _canonical(
            {
                "record": RECORD_FORMAT,
                "tournament_id": tournament_id,
                "game_type": info.game_type,
                "format": info.format,
                "seed_commitment": info.seed_commitment,
                "master_seed": state.ended.master_seed,
                "events": len(envelopes),
                "games": len(assigned),
            }
        )
    ]
    for envelope in envelopes:
        event = decode_event(envelope.kind, envelope.payload)
        lines.append(
            _canonical(
                {
                    "type": "tournament_event",
                    "seq": envelope.seq,
                    "command_id": envelope.command_id,
                    "kind": envelope.kind,
                    "event": event_to_data(event),
                    "payload": base64.b64encode(envelope.payload).decode(),
                    "prev_hash": envelope.prev_hash,
                    "hash": envelope.hash,
                }
            )
        )
    games = service.games
    for game in assigned:
        game_envelopes = games.store.read(game.game_id)
        game_lines = _game_lines(service, game.game_id, game_envelopes)
        lines.append(
            _canonical(
                {
                    "type": "game",
                    "round": game.round,
                    "table": game.table,
                    "game_id": game.game_id,
                    "lines": len(game_lines),
                }
            )
        )
        lines.extend(game_lines)
    rows = [msgspec.to_builtins(row) for row in state.ended.standings]
    lines.append(_canonical({"type": "standings", "rows": rows}))
    return lines


def _game_lines(service: TournamentService, game_id: str, envelopes: list[Envelope]) -> list[bytes]:
    if not envelopes:
        return []

    def decode(envelope: Envelope) -> Event:
        return service.games.decode(game_id, envelope)

    # a spectator's record of the finished game: public, so no idempotency key (their digests
    # keep every link checkable), like any game's public record
    return export_lines(envelopes, decode, viewer=None)


# -- verification -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """One difference found: where (round, table, game, sequence number) and what."""

    reason: str
    round: int | None = None
    table: int | None = None
    game_id: str | None = None
    seq: int | None = None

    def __str__(self) -> str:
        where = []
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.table is not None:
            where.append(f"table {self.table}")
        if self.game_id is not None:
            where.append(f"game {self.game_id}")
        if self.seq is not None:
            where.append(f"seq {self.seq}")
        return f"{', '.join(where) or 'record'}: {self.reason}"


@dataclass
class TournamentReport:
    """The outcome of :func:`verify_tournament`."""

    ok: bool
    message: str
    tournament_id: str = ""
    games: int = 0
    events: int = 0
    problems: list[Problem] = field(default_factory=list)


VerifyProgress = Callable[[int, int], None]
"""``progress(games verified, games in the record)``: once before the first game, then after
each game re-executed."""


def verify_tournament(
    lines: Iterable[bytes], progress: VerifyProgress | None = None
) -> TournamentReport:
    """Verify a tournament record (see the module docstring); never raises on bad input.
    ``progress`` follows the games re-executed (see :data:`VerifyProgress`)."""
    try:
        return _verify(parse_lines(lines), progress)
    except RecordError as error:
        return TournamentReport(False, f"unreadable record: {error}")
    except (KeyError, TypeError, ValueError, IndexError, msgspec.MsgspecError) as error:
        return TournamentReport(False, f"malformed record: {type(error).__name__}: {error}")


#: the keys of each kind of line (the header's, then by ``type``)
_KEYS: dict[str, set[str]] = {
    "header": {"record", "tournament_id", "game_type", "format", "seed_commitment",
               "master_seed", "events", "games"},
    "tournament_event": {"type", "seq", "command_id", "kind", "event", "payload", "prev_hash",
                         "hash"},
    "game": {"type", "round", "table", "game_id", "lines"},
    "standings": {"type", "rows"},
}  # fmt: skip


@dataclass
class _GameSection:
    round: int
    table: int
    game_id: str
    lines: list[bytes]


def _verify(
    items: list[dict[str, Any]], progress: VerifyProgress | None = None
) -> TournamentReport:
    header = items[0]
    if header.get("record") != RECORD_FORMAT:
        return TournamentReport(False, f"not a tournament record ({RECORD_FORMAT} expected)")
    for number, item in enumerate(items, start=1):
        keys = _KEYS["header"] if number == 1 else _KEYS.get(str(item.get("type")))
        if keys is not None and set(item) != keys:
            raise RecordError(f"line {number}: keys {sorted(item)}, expected {sorted(keys)}")
    tid = str(header["tournament_id"])
    problems: list[Problem] = []
    # 1. the tournament's chain
    recorded: list[tuple[Envelope, TournamentEvent]] = []
    sections: list[_GameSection] = []
    standings_line: dict[str, Any] | None = None
    prev = GENESIS
    index = 1
    while index < len(items):
        item = items[index]
        index += 1
        kind = item.get("type")
        if kind == "tournament_event":
            payload = base64.b64decode(item["payload"], validate=True)
            envelope = Envelope(
                tid, int(item["seq"]), str(item["command_id"]), -1, "annales.tournament/1",
                1, str(item["kind"]), payload, str(item["prev_hash"]), str(item["hash"]),
            )  # fmt: skip
            if envelope.seq != len(recorded) + 1 or not verify_link(envelope, prev):
                problems.append(
                    Problem(
                        "tournament hash chain broken: a recorded byte changed", seq=envelope.seq
                    )
                )
                return _failed(tid, problems)
            event = decode_event(envelope.kind, payload)
            if _canonical({"e": event_to_data(event)}) != _canonical({"e": item["event"]}):
                problems.append(
                    Problem("readable tournament event differs from its payload", seq=envelope.seq)
                )
                return _failed(tid, problems)
            recorded.append((envelope, event))
            prev = envelope.hash
        elif kind == "game":
            count = int(item["lines"])
            body = [_canonical(i) for i in items[index : index + count]]
            index += count
            sections.append(
                _GameSection(int(item["round"]), int(item["table"]), str(item["game_id"]), body)
            )
        elif kind == "standings":
            if index != len(items):
                raise RecordError(f"line {index}: the standings line is not the record's last")
            standings_line = item
        else:
            raise RecordError(f"unexpected line type {kind!r}")
    if int(header["events"]) != len(recorded) or int(header["games"]) != len(sections):
        problems.append(Problem("the header's event or game count disagrees with the record"))
        return _failed(tid, problems)
    if not recorded or not isinstance(recorded[0][1], TournamentCreated):
        problems.append(Problem("a tournament starts with TournamentCreated", seq=1))
        return _failed(tid, problems)
    created = recorded[0][1]
    if (header["game_type"], header["format"]) != (created.game_type, created.format):
        problems.append(Problem("the header's game type or format is not TournamentCreated's"))
        return _failed(tid, problems)
    master = bytes.fromhex(str(header["master_seed"]))
    if seeds.commitment(master) != created.seed_commitment or (
        header["seed_commitment"] != created.seed_commitment
    ):
        problems.append(Problem("the master seed does not match its commitment", seq=1))
        return _failed(tid, problems)
    # 2. the games, in assignment order
    assigned = [event for _, event in recorded if isinstance(event, GameAssigned)]
    if len(assigned) != len(sections):
        problems.append(Problem(f"{len(assigned)} games assigned, {len(sections)} recorded"))
        return _failed(tid, problems)
    outcomes: dict[str, tuple[tuple[int, ...], tuple[int, ...], int, str]] = {}
    names = [e.name for _, e in recorded if isinstance(e, EntrantRegistered)]
    if progress is not None:
        progress(0, len(sections))
    for done, (game, section) in enumerate(zip(assigned, sections, strict=True), start=1):
        where = {"round": section.round, "table": section.table, "game_id": section.game_id}
        if (game.round, game.table, game.game_id) != (
            section.round,
            section.table,
            section.game_id,
        ):
            problems.append(
                Problem(
                    f"game record out of order: expected {game.game_id} "
                    f"(round {game.round}, table {game.table}) here",
                    **where,  # type: ignore[arg-type]
                )
            )
            continue
        found = _check_game(created, game, section, names, master)
        if isinstance(found, Problem):
            problems.append(found)
        elif found is not None:
            outcomes[game.game_id] = found
        if progress is not None:
            progress(done, len(sections))
    if problems:
        return _failed(tid, problems)
    # 3. re-run the tournament engine on the record's inputs; compare every event
    replayed = _replay(recorded, master, outcomes)
    if isinstance(replayed, Problem):
        return _failed(tid, [replayed])
    produced, state = replayed
    for position, (envelope, recorded_event) in enumerate(recorded):
        mine = produced[position] if position < len(produced) else None
        if mine is None or encode_event(mine)[1] != envelope.payload:
            return _failed(tid, [_event_problem(envelope.seq, recorded_event, mine)])
    if len(produced) != len(recorded):
        extra = produced[len(recorded)]
        return _failed(tid, [_event_problem(len(recorded) + 1, extra, None)])
    if state.ended is None:
        return _failed(tid, [Problem("the record ends before the tournament ended")])
    expected_rows = [msgspec.to_builtins(r) for r in engine.current_standings(state, master)]
    if standings_line is None or _canonical({"rows": expected_rows}) != _canonical(
        {"rows": standings_line["rows"]}
    ):
        return _failed(tid, [Problem("the standings table differs from the recomputed one")])
    return TournamentReport(
        True,
        f"verified: {len(recorded)} tournament events and {len(sections)} games re-executed "
        "from the derived seeds; standings recomputed byte for byte",
        tid,
        len(sections),
        len(recorded),
    )


def _failed(tid: str, problems: list[Problem]) -> TournamentReport:
    message = "; ".join(str(p) for p in problems[:5])
    if len(problems) > 5:
        message += f"; and {len(problems) - 5} more"
    return TournamentReport(False, message, tid, problems=problems)


def _event_problem(seq: int, recorded: TournamentEvent, mine: TournamentEvent | None) -> Problem:
    round_number = getattr(recorded, "round", None)
    table = getattr(recorded, "table", None)
    game_id = getattr(recorded, "game_id", None)
    kind = type(recorded).__name__
    found = type(mine).__name__ if mine is not None else "nothing"
    return Problem(
        f"tournament event {kind} differs from its recomputation (recomputed: {found})",
        round_number,
        table,
        game_id,
        seq,
    )


def _check_game(
    created: TournamentCreated,
    game: GameAssigned,
    section: _GameSection,
    names: list[str],
    master: bytes,
) -> tuple[tuple[int, ...], tuple[int, ...], int, str] | Problem | None:
    """Verify one game's record; its (scores, winners, events, last hash) or a problem."""
    where: dict[str, Any] = {"round": game.round, "table": game.table, "game_id": game.game_id}
    if not section.lines:
        return None  # never played: no result may refer to it (the replay checks)
    report = verify_record(section.lines)
    if not report.ok or not report.reexecuted:
        seq = report.divergence.seq if report.divergence is not None else None
        return Problem(f"game record fails verification: {report.message}", seq=seq, **where)
    head = msgspec.json.decode(section.lines[0])
    if created.format == "duplicate":
        seed = seeds.duplicate_seed(master, created.tournament_id, game.round)
    else:
        seed = seeds.game_seed(master, created.tournament_id, game.round, game.table)
    # games recorded before salted commitments (record format 1) commit to SHA-256(seed)
    legacy = head.get("seed_commitment_scheme", LEGACY_COMMITMENT) == LEGACY_COMMITMENT
    nonce = None if legacy else derived_nonce(seed, game.game_id)
    expected = {
        "game_id": game.game_id,
        "game_type": created.game_type,
        "options": _recorded_options(created, str(head.get("ruleset", ""))),
        "seats": [names[e] for e in game.seats],
        "seed_commitment": seed_commitment(seed, nonce),
    }
    for key, value in expected.items():
        if head.get(key) != value:
            return Problem(f"the game's {key} is not the one assigned ({value!r})", **where)
    if seeds.commitment(seed) != game.seed_commitment:
        return Problem("the assigned seed commitment is not the derived one", **where)
    return _final_outcome(section.lines)


def _recorded_options(created: TournamentCreated, ruleset: str) -> Any:
    """The options a game of this tournament records under ``ruleset``: the tournament's,
    normalised by the game as at its creation (``None`` for a ruleset this verifier does not
    know: the game's own verification has refused it already)."""
    from domain.registry import RULESETS

    game = RULESETS.get(ruleset)
    if game is None:
        return None
    recorded = game.recorded_options(game.decode_options(dict(created.options)))
    return msgspec.json.decode(msgspec.json.encode(recorded))  # as the record's JSON holds it


def _final_outcome(lines: list[bytes]) -> tuple[tuple[int, ...], tuple[int, ...], int, str] | None:
    """Fold a (verified) game record; its final scores, winners, event count and last hash."""
    ledger: Ledger | None = None
    envelopes: list[Envelope] = []
    command: dict[str, Any] = {}
    for raw in lines[1:]:
        item = msgspec.json.decode(raw)
        if item["type"] == "command":
            command = item
            continue
        envelopes.append(
            Envelope(
                "",
                int(item["seq"]),
                str(command["command_id"]),
                int(command["seat"]),
                str(item["ruleset"]),
                int(item["schema"]),
                str(item["kind"]),
                base64.b64decode(item["payload"]),
                str(item["prev_hash"]),
                str(item["hash"]),
            )
        )
    first = envelopes[0]
    from domain.registry import codec_for, get_ruleset

    codec = codec_for(get_ruleset(str(msgspec.json.decode(lines[0])["ruleset"])))
    header = codec.decode_event(first.kind, first.schema, first.payload)
    assert isinstance(header, GameCreated)
    ledger = Ledger.from_header("", header)
    targets = set()
    for envelope in envelopes:
        if envelope.kind == "Undone":
            undone = codec.decode_event(envelope.kind, envelope.schema, envelope.payload)
            assert isinstance(undone, Undone)
            targets.add(undone.to_version)
    saved: dict[int, bytes] = {}
    game = ledger.game

    def state_at(version: int) -> Any:
        return game.decode_state(saved[version])

    for envelope in envelopes:
        ledger.apply_envelope(envelope, state_at)
        if envelope.seq in targets:
            saved[envelope.seq] = game.encode_state(ledger.match.state)
    outcome = game.outcome(ledger.match.state)
    if outcome is None:
        return None
    return tuple(outcome.scores), tuple(outcome.winners), ledger.version, envelopes[-1].hash


def _replay(
    recorded: list[tuple[Envelope, TournamentEvent]],
    master: bytes,
    outcomes: dict[str, tuple[tuple[int, ...], tuple[int, ...], int, str]],
) -> tuple[list[TournamentEvent], TournamentState] | Problem:
    """The tournament's events recomputed from its inputs (creation, entrants, game outcomes)."""
    state = TournamentState()
    produced: list[TournamentEvent] = []
    try:
        for envelope, event in recorded:
            if len(produced) >= envelope.seq:
                continue  # produced by an earlier input (pairings, round completions)
            if isinstance(event, TournamentCreated):
                produced += engine.create(
                    state,
                    tournament_id=event.tournament_id,
                    name=event.name,
                    game_type=event.game_type,
                    options=event.options,
                    format=event.format,
                    rounds=event.rounds,
                    table_size=event.table_size,
                    master_seed=master,
                    pairing_method=event.pairing,
                )
            elif isinstance(event, EntrantRegistered):
                produced += engine.register(state, event.name, event.kind, event.bot)
            elif type(event).__name__ == "TournamentStarted":
                produced += engine.start(state, master)
            elif isinstance(event, GameResultRecorded):
                outcome = outcomes.get(event.game_id)
                if outcome is None:
                    return Problem(
                        "a result is recorded for a game that has no finished record",
                        event.round,
                        event.table,
                        event.game_id,
                        envelope.seq,
                    )
                scores, winners, events, last_hash = outcome
                produced += engine.record_result(
                    state, master, event.game_id, scores, winners, events, last_hash
                )
            else:
                return _event_problem(envelope.seq, event, None)
    except TournamentError as error:
        return Problem(f"the tournament rules refuse the record: {error.message}")
    return produced, state
