"""Each nation's own C.I.V. decision tables ("TABLEAUX DE RÉFÉRENCE DES NATIONS"): every row of
the barbarian and the empire table is resolved for a card it names, and every row whose icon
or effect is a reading of the OCR is listed as assumed by the content report."""

from __future__ import annotations

import pytest

from domain.imperium import content as C
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ.content import Row
from domain.imperium.civ.turn import matches, resolvable
from domain.imperium.game import ImperiumGame
from domain.registry import get_ruleset
from tests.imperium.test_solo import _ctx_with_card, _resolve

OWN = sorted(S.TABLES)
#: the first ruleset (the tables without the rows read from imperium/4) and the newest.
RULESETS = ("imperium-classics/1", "imperium/4")


def _card_for(rows: tuple[Row, ...], row: Row, nation: str) -> str | None:
    """A card ``row`` names and no earlier row does: the nation's own cards first."""
    state = _ctx_with_card(next(iter(C.NATIONS[nation].starting_deck)), civ=nation).state
    ordered = sorted(C.CARDS, key=lambda c: (C.CARDS[c].nation != nation, c))
    for card in ordered:
        if "unrest" in C.CARDS[card].suits or not matches(state, card, row.match):
            continue
        if not any(matches(state, card, r.match) for r in rows[: row.index]):
            return card
    return None


def test_every_nation_has_its_printed_tables() -> None:
    """The booklet prints two tables per nation, one for the four whose C.I.V. is only ever on
    one side (Atlanteans: empire; Arthurians, Vikings, Utopians: barbarian): all are in the
    file, and a nation with one table uses it whatever its state card says."""
    assert S.transcribed() == sorted(C.ALL_NATIONS)
    assert len(OWN) == 28
    single = {n: S.sides(n) for n in C.ALL_NATIONS if len(S.sides(n)) == 1}
    assert single == {"atlanteans": ("empire",), "arthurians": ("barbarian",),
                      "vikings": ("barbarian",), "utopians": ("barbarian",)}  # fmt: skip
    for nation, (side,) in single.items():
        assert S.table_for(nation, "barbarian") is S.table_for(nation, "empire")
        assert S.table_for(nation, "empire").side == side


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("nation", "side"), OWN)
def test_every_row_of_the_nation_table_resolves(nation: str, side: str, ruleset: str) -> None:
    """Each row of the nation's own table, for a card it names: the C.I.V. resolves the first
    row that names the card and can be resolved (the row itself when one of its alternatives
    is possible), on the right side, and the card leaves its slot; under the first ruleset
    and under ``imperium/4`` (which adds the rows the OCR had left unreadable)."""
    game = get_ruleset(ruleset)
    assert isinstance(game, ImperiumGame)
    table = S.table_for(nation, side)
    assert table.nation == nation and table.side == side and table.rows[-1].match == "other"
    rows = table.rows_for(4 if ruleset == "imperium/4" else 1)
    resolved_as_itself = set()
    for row in rows:
        card = _card_for(rows, row, nation)
        if card is None:
            continue
        ctx = _ctx_with_card(card, civ=nation, empire=side == "empire", game=game)
        expected = next(
            r for r in rows
            if matches(ctx.state, card, r.match) and resolvable(ctx.state, r) >= 0
        )  # fmt: skip
        result = _resolve(ctx)
        assert (result.side, result.card, result.row) == (side, card, expected.index)
        assert result.text == expected.text
        assert not ctx.state.civ.slots[0]  # type: ignore[union-attr]
        assert card not in ctx.state.seats[CIV].hand
        if expected.index == row.index:
            resolved_as_itself.add(row.match)
    assert "other" in resolved_as_itself
    assert "suit:region" not in {r.match for r in rows} or "suit:region" in resolved_as_itself


def test_row_provenance_is_listed() -> None:
    """Every row whose icon or effect is read (match_assumed / do_assumed) is listed by the
    content report with its nation, side and row."""
    lines = "\n".join(S.assumptions())
    for data in S.SOLO.tables:
        for index, row in enumerate(data.rows):
            if row.match_assumed or row.do_assumed:
                assert f"table {data.nation}/{data.side} row {index} " in lines
