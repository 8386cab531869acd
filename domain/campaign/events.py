"""Campaign events (facts, past tense), one tagged union; the service seals them in the same
SHA-256 hash chain as game events."""

from __future__ import annotations

import msgspec


class CampaignEvent(msgspec.Struct, tag=True, frozen=True, kw_only=True):
    """Base class of the campaign events."""


class CampaignCreated(CampaignEvent, frozen=True, kw_only=True):
    """A campaign began: the player's name and nation (for every game), the mode
    (``standard``: Chef de clan up to Suzerain; ``supreme``: "Maître suprême"), the power-card
    face, the common box, and ``bonus``: the previous campaign was lost, so this one starts
    with twice the resources ("MODE CAMPAGNE")."""

    campaign_id: str
    player: str
    nation: str
    mode: str = "standard"
    side: str = "B"
    box: str = ""
    bonus: bool = False


class CampaignGameStarted(CampaignEvent, frozen=True, kw_only=True):
    """Game ``number`` (from 1) of the campaign was created with these options (derived from
    the campaign's state: level, deck changes, bonus, the C.I.V.'s nation)."""

    number: int
    game_id: str
    civ_nation: str
    level: str
    options: dict[str, object]


class CampaignGameRecorded(CampaignEvent, frozen=True, kw_only=True):
    """The result of game ``number``, read from the finished game: the scores, whether the
    human won, the date (ISO, from the service clock) and, after a win, the deck change
    (``add``: a card won during the game joins the starting deck; ``remove``: a starting-deck
    card leaves it)."""

    number: int
    game_id: str
    score: int
    civ_score: int
    won: bool
    date: str
    change: str = ""
    card: str = ""
    last_hash: str = ""
    #: Maître suprême: the common unrest card removed after this win, or put back after
    #: this loss ("" none).
    unrest_removed: str = ""
    unrest_returned: str = ""


class CampaignEnded(CampaignEvent, frozen=True, kw_only=True):
    """The campaign is over: ``won`` (5 wins) or lost (the fourth loss)."""

    won: bool
    wins: int
    losses: int


CampaignEventType = CampaignCreated | CampaignGameStarted | CampaignGameRecorded | CampaignEnded


#: ruleset and schema stamped on campaign envelopes.
CAMPAIGN_RULESET = "annales.campaign/1"
SCHEMA = 1
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(CampaignEventType)


def encode_event(event: CampaignEvent) -> tuple[str, bytes]:
    """``(kind, msgpack payload)`` of an event."""
    return type(event).__name__, _ENCODER.encode(event)


def decode_event(kind: str, payload: bytes) -> CampaignEventType:
    """The event in ``payload``; raises ``ValueError`` if it is not of ``kind``."""
    event: CampaignEventType = _DECODER.decode(payload)
    if type(event).__name__ != kind:
        raise ValueError(f"payload holds {type(event).__name__}, envelope says {kind}")
    return event
