"""The bots' part of the game state (``TapestryState.solo``; ``None`` in games without bots).

Decks hold no order: the decision deck is the known cards ``deck`` plus ``hidden`` progress
cards nobody has seen (put there face down at setup and by income turns), drawn uniformly at
draw time; a hidden card turns into one of the ``progress`` cards not yet seen when it is
drawn. The Automa's tapestry cards are chosen when drawn (``tapestry`` face-down pile, ``mat``
face-down cards on its income board), hidden from every viewer until the game ends.
"""

from __future__ import annotations

import msgspec


class BotBoard(msgspec.Struct, kw_only=True):
    """One bot's tokens: positions per track (``TRACK_IDS`` order) and its favourite track."""

    tracks: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])
    favorite: int = -1
    completed: list[int] = msgspec.field(default_factory=list)


class SoloState(msgspec.Struct, kw_only=True):
    """The Automa and the Shadow Empire.

    Attributes:
        automa: ``False`` in the 2-player Shadow Empire variant (no Automa).
        level: the Automa's difficulty level (1-6).
        civilization: the Automa civilization card (0: none); ``extra_civilizations`` the
            cards added at level 6 (favourite track ignored).
        bots: the Automa's board (index 0) and the Shadow Empire's (index 1).
        vp: the Automa's victory points.
        landmarks: landmarks on the Automa's income board.
        achievements: achievements the Automa fulfilled; ``shadow_achievements`` the Shadow
            Empire's (it scores nothing).
        income_turns: the bots' income turns taken; ``finished`` after the fifth.
        first: the bots play before the human in each round.
        played_turn: the human turn number after which the bots last played.
        deck, hidden, progress, discard, discard_hidden: the decision cards (module doc).
        pair: the decision pair in play (left: track card, right: priority card);
            ``last_pair`` the latest pair drawn (income turns use it).
        tapestry: the Automa's face-down tapestry cards; ``mat`` those on its income board.
        not_hidden: progress cards known to be in the progress deck, so not among the
            decision deck's face-down cards (the first income turn's priority card, levels 5-6,
            until progress cards are added).
    """

    automa: bool = True
    level: int = 2
    civilization: int = 0
    extra_civilizations: list[int] = msgspec.field(default_factory=list)
    bots: list[BotBoard] = msgspec.field(default_factory=lambda: [BotBoard(), BotBoard()])
    vp: int = 0
    landmarks: list[int] = msgspec.field(default_factory=list)
    achievements: list[int] = msgspec.field(default_factory=list)
    shadow_achievements: list[int] = msgspec.field(default_factory=list)
    income_turns: int = 0
    finished: bool = False
    first: bool = False
    played_turn: int = -1
    deck: list[int] = msgspec.field(default_factory=list)
    hidden: int = 0
    progress: list[int] = msgspec.field(default_factory=list)
    discard: list[int] = msgspec.field(default_factory=list)
    discard_hidden: int = 0
    pair: list[int] = msgspec.field(default_factory=list)
    last_pair: list[int] = msgspec.field(default_factory=list)
    tapestry: list[int] = msgspec.field(default_factory=list)
    mat: list[int] = msgspec.field(default_factory=list)
    not_hidden: list[int] = msgspec.field(default_factory=list)

    def deck_size(self) -> int:
        """Cards in the decision deck (known and hidden)."""
        return len(self.deck) + self.hidden

    def cards_out(self) -> list[int]:
        """Tapestry cards the Automa holds (face-down pile and income board)."""
        return [*self.tapestry, *self.mat]
