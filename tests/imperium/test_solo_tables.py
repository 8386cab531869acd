"""Each nation's own C.I.V. decision tables ("TABLEAUX DE RÉFÉRENCE DES NATIONS"): every row of
the barbarian and the empire table is resolved for a card it names, and the rows the booklet
does not print for a nation stay listed as assumed by the content report."""

from __future__ import annotations

import pytest

from domain.imperium import content as C
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ.content import Row, Table
from domain.imperium.civ.turn import matches, resolvable
from domain.imperium.game import ImperiumGame
from tests.imperium.test_solo import _ctx_with_card, _resolve

OWN = sorted((nation, side) for (nation, side) in S.TABLES if nation != "*")


def _card_for(table: Table, row: Row, nation: str) -> str | None:
    """A card ``row`` names and no earlier row does: the nation's own cards first."""
    state = _ctx_with_card(next(iter(C.NATIONS[nation].starting_deck)), civ=nation).state
    ordered = sorted(C.CARDS, key=lambda c: (C.CARDS[c].nation != nation, c))
    for card in ordered:
        if "unrest" in C.CARDS[card].suits or not matches(state, card, row.match):
            continue
        if not any(matches(state, card, r.match) for r in table.rows[: row.index]):
            return card
    return None


def test_transcribed_nations() -> None:
    """The nations whose two tables are printed and transcribed, and the ones still on the
    generic table (listed by the content report)."""
    assert S.transcribed() == sorted(
        ["carthaginians", "celts", "egyptians", "greeks", "macedonians", "mauryans", "minoans",
         "olmecs", "persians", "qin", "romans"]
    )  # fmt: skip
    lines = ImperiumGame().assumptions()
    missing = next(line for line in lines if "decision tables not transcribed" in line)
    assert all(nation in missing for nation in C.ALL_NATIONS if nation not in S.transcribed())
    assert not any(nation in missing.split(":")[-1] for nation in S.transcribed())


@pytest.mark.parametrize(("nation", "side"), OWN)
def test_every_row_of_the_nation_table_resolves(nation: str, side: str) -> None:
    """Each row of the nation's own table, for a card it names: the C.I.V. resolves the first
    row that names the card and can be resolved (the row itself when one of its alternatives
    is possible), on the right side, and the card leaves its slot."""
    table = S.table_for(nation, side)
    assert table.nation == nation and table.side == side and table.rows[-1].match == "other"
    resolved_as_itself = set()
    for row in table.rows:
        card = _card_for(table, row, nation)
        if card is None:
            continue
        ctx = _ctx_with_card(card, civ=nation, empire=side == "empire")
        expected = next(
            r for r in table.rows
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
    assert "suit:region" not in {r.match for r in table.rows} or "suit:region" in resolved_as_itself


def test_row_provenance_is_listed() -> None:
    """Every row whose icon or effect is read (match_assumed / do_assumed) is listed by the
    content report with its nation, side and row."""
    lines = "\n".join(S.assumptions())
    for data in S.SOLO.tables:
        for index, row in enumerate(data.rows):
            if row.match_assumed or row.do_assumed:
                assert f"table {data.nation}/{data.side} row {index} " in lines
