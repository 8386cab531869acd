"""Salted seed commitments.

A game commits to ``SHA-256(nonce || seed)`` with a fresh 32-byte nonce, stored with the seed
and revealed with it; the nonce never changes the game.
"""

from __future__ import annotations

import hashlib

from domain.core.chance import SALTED_COMMITMENT, derived_nonce, seed_commitment
from domain.core.kernel_events import GameCreated, SeedRevealed
from service.app.application import GameService
from service.audit.records import Outcome, verify_record
from tests.audit.helpers import export, play


def test_same_seed_gives_different_commitments_neither_the_bare_hash(
    service: GameService,
) -> None:
    """Two games created with seed ``4821``: different commitments, neither SHA-256(seed)."""
    first = service.create_game("riseandfall", {}, ["a", "b"], b"4821")
    second = service.create_game("riseandfall", {}, ["a", "b"], b"4821")
    bare = hashlib.sha256(b"4821").hexdigest()
    assert first.seed_commitment != second.seed_commitment
    assert bare not in (first.seed_commitment, second.seed_commitment)
    for created in (first, second):
        nonce = service.store.load_nonce(created.game_id)
        assert nonce is not None and len(nonce) == 32
        assert seed_commitment(b"4821", nonce) == created.seed_commitment
        header = service.decode(created.game_id, service.events(created.game_id)[0])
        assert isinstance(header, GameCreated)
        assert header.seed_commitment_scheme == SALTED_COMMITMENT and header.key_digests
    assert service.store.load_nonce(first.game_id) != service.store.load_nonce(second.game_id)


def test_same_seed_replays_identical_events(service: GameService) -> None:
    """The nonce changes the commitment only: two games from one seed and the same commands
    give byte-identical events after the header (payloads, kinds), up to the seed reveal,
    which carries each game's own nonce."""
    one = play(service, b"same-seed")
    two = play(service, b"same-seed")
    first, second = service.events(one), service.events(two)
    assert len(first) == len(second)
    assert [e.payload for e in first[1:-1]] == [e.payload for e in second[1:-1]]
    reveals = [service.decode(g, e[-1]) for g, e in ((one, first), (two, second))]
    assert all(isinstance(r, SeedRevealed) for r in reveals)
    assert reveals[0].seed == reveals[1].seed == b"same-seed".hex()  # type: ignore[union-attr]
    assert reveals[0].nonce != reveals[1].nonce  # type: ignore[union-attr]


def test_revealed_pair_verifies_and_a_wrong_nonce_is_tampering(service: GameService) -> None:
    """The record reveals seed and nonce; verify checks the pair against the commitment."""
    game_id = play(service, b"pair")
    lines = export(service, game_id, None)
    report = verify_record(lines)
    assert report.outcome is Outcome.VERIFIED, report.message
    # a judge's record with the header's nonce changed: the pair no longer matches
    import msgspec

    from service.audit.format import canonical
    from service.audit.records import judge_record

    judge = judge_record(service, game_id, 30)
    header = msgspec.json.decode(judge[0])
    header["nonce"] = "00" * 32
    report = verify_record([canonical(header), *judge[1:]])
    assert report.outcome is Outcome.TAMPERED
    assert report.divergence is not None and report.divergence.line == 1
    assert "commitment" in report.message


def test_derived_nonce_is_per_game() -> None:
    """A deterministic driver's nonce depends on the game id: same seed, other commitment."""
    seed = bytes(32)
    assert derived_nonce(seed, "g1") != derived_nonce(seed, "g2")
    assert seed_commitment(seed, derived_nonce(seed, "g1")) != seed_commitment(seed)
