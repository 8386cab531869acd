"""The Tapestry redaction oracle (``test_tapestry_redaction.py``) with the Arts & Architecture
box (the Collectors' face-down shelf) or the Fantasies &
Futures box in play and its civilizations that hold private information: the Psionics' draws
to keep one (``OptionsDrawn`` / ``OptionKept``, ``civ_tokens["psionics_offer"]``), the
Merfolk's submerged cards (``CardsSubmerged``, ``civ_tokens["merfolk_sunk"]``) and the
Illuminati's setup draw."""

from __future__ import annotations

import pytest
from annales.v1 import annales_pb2_grpc

from tests.api.conftest import ServerProcess
from tests.api.tapestry_oracle_games import SHAPES, run_oracle
from tests.api.test_redaction import _report


@pytest.mark.parametrize("index", [1, 2])
def test_tapestry_redaction_oracle_fantasies_and_futures(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, index: int
) -> None:
    """The same oracle with the Fantasies & Futures box in play, seats starting with the
    Psionics (their draws to keep one: the cards drawn and kept stay hidden from others,
    ``OptionsDrawn`` / ``OptionKept``), the Merfolk (their submerged cards, ``CardsSubmerged``
    and ``civ_tokens["merfolk_sunk"]``) and the Illuminati (their setup draw)."""
    seats = SHAPES[index % len(SHAPES)]
    starting = ("psionics", "merfolk", "illuminati", "")[:seats]
    required = frozenset({"OptionsDrawn", "OptionKept", "CardsSubmerged"})
    leaks = run_oracle(stub, server, index, ("fantasies_and_futures",), starting, required=required)
    assert not leaks, _report(leaks)


def test_tapestry_redaction_oracle_arts_and_architecture(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """The same oracle with the Arts & Architecture box in play, seats starting with the
    Collectors (a tapestry card or territory tile shelved face down: ``Collected`` reaches
    the others with ``item`` 0, their view shows -1), the Urban Planners (landmarks parked on
    the mat, public) and the Gamblers."""
    index = 1
    seats = SHAPES[index % len(SHAPES)]
    starting = ("collectors", "urban_planners", "gamblers", "")[:seats]
    required = frozenset({"Collected"})
    leaks = run_oracle(stub, server, index, ("arts_and_architecture",), starting, required=required)
    assert not leaks, _report(leaks)
