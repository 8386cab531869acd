"""CreateGame: validation of seats, seed, ruleset and options, idempotent creation."""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

import grpc
import msgspec
from annales.v1 import annales_pb2 as pb
from eventsourcing.persistence import IntegrityError

from domain.core.errors import MalformedCommand
from domain.registry import GAMES, resolve_ruleset, rulesets_of
from service.api import creation
from service.api.base import ServicerBase
from service.api.convert import read
from service.api.games import BY_TYPE, ApiGame
from service.api.inputs import MAX_NAME, MAX_SEED, invalid, rpc, text
from service.api.messages import field_path, sentence
from service.api.status import ApiError
from service.app.errors import InvalidArgument
from service.app.ledger import SETUP_COMMAND_ID
from service.app.tokens import new_judge_token, new_tokens, token_hash
from service.app.values import CreatedGame


class CreateRpcs(ServicerBase):
    """CreateGame."""

    @rpc
    def CreateGame(
        self, request: pb.CreateGameRequest, context: grpc.ServicerContext
    ) -> pb.CreateGameResponse:
        """Create a game: one secret token per seat and the judge's; idempotent with a key."""
        api = BY_TYPE.get(request.game_type)
        if api is None:
            raise invalid("game_type", "unknown or unspecified game type")
        names = [text(name, "seat_names", MAX_NAME) for name in request.seat_names]
        game = GAMES[api.name]
        if not game.min_seats <= len(names) <= game.max_seats:
            raise invalid(
                "seat_names",
                f"a {api.name} game is played by {game.min_seats} to {game.max_seats} seats "
                f"(one name each), not {len(names)}",
            )
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:  # seats are told apart by name in views, charts and statistics
            raise invalid("seat_names", f"each seat needs its own name; repeated: {repeated}.")
        seed = text(request.seed, "seed", MAX_SEED, required=False)
        ruleset = text(request.ruleset, "ruleset", MAX_NAME, required=False)
        if ruleset and ruleset not in rulesets_of(api.name):
            known = ", ".join(rulesets_of(api.name))
            raise invalid("ruleset", f"unknown ruleset {ruleset!r} of {api.name}; known: {known}")
        options = self._options(request, api, ruleset)
        key = text(request.idempotency_key, "idempotency_key", creation.MAX_KEY, required=False)
        if not key:
            created = self._create(api, options, names, seed, None, ruleset)
            game_id = created.game_id
            tokens = new_tokens(game_id, len(names))
            return self._created(game_id, tokens, new_judge_token(game_id), created.version)
        if len(key) < creation.MIN_KEY:
            raise invalid(
                "idempotency_key", f"use at least {creation.MIN_KEY} characters (a random UUID)"
            )
        fingerprint = creation.fingerprint(api.name, options, names, seed, ruleset)
        held = creation.load_claim(self.service.store, key)
        if held is None:
            game_id = uuid.uuid4().hex
            wanted = creation.Claim(
                fingerprint, game_id, tuple(new_tokens(game_id, len(names))),
                new_judge_token(game_id),
            )  # fmt: skip
            held, _ = creation.claim(self.service.store, key, wanted)
        creation.check_same(held, fingerprint)
        if not self.service.store.last_seq(held.game_id):
            try:  # first attempt, or one that died between claim and creation
                self._create(api, options, names, seed, held.game_id, ruleset)
            except ApiError:
                raise
            except Exception:  # a concurrent identical request created it first
                if not creation.wait_for_game(self.service.store, held.game_id):
                    raise
        return self._created(held.game_id, list(held.seat_tokens), held.judge_token)

    def _create(
        self, api: ApiGame, options: dict[str, Any], names: list[str], seed: str,
        game_id: str | None, ruleset: str,
    ) -> CreatedGame:  # fmt: skip
        """Create the game; a setup the game refuses (e.g. Imperium nations) is INVALID_FIELD
        naming the game's options."""
        try:
            return self.service.create_game(
                api.name, options, names, seed.encode() if seed else None, game_id,
                ruleset=ruleset or None,
            )  # fmt: skip
        except InvalidArgument as error:
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                sentence(error.message),
                {"field": f"options.{api.field}"},
            ) from error

    def _options(self, request: pb.CreateGameRequest, api: ApiGame, ruleset: str) -> dict[str, Any]:
        """The request's options as plain data, checked by the chosen ruleset (INVALID_FIELD
        with the field path, e.g. ``options.rise_and_fall.trophies``, and a sentence)."""
        if not request.HasField("options"):
            return {}
        which = request.options.WhichOneof("game")
        if which not in (None, api.field):
            raise invalid(
                "options", f"sets {which}, but the game is {api.name}: use options.{api.field}."
            )
        if which is None:
            return {}
        options: dict[str, Any] = read(getattr(request.options, which), api.prefix)
        # an empty repeated field is unset in proto3: the ruleset's default, and no key (an
        # option the chosen ruleset lacks is refused only when given)
        options = {key: value for key, value in options.items() if value != []}
        try:
            resolve_ruleset(api.name, ruleset or None).decode_options(options)
        except MalformedCommand as error:  # an option key the ruleset does not know
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                sentence(error.message),
                {"field": f"options.{api.field}"},
            ) from error
        except (msgspec.ValidationError, ValueError) as error:
            path = field_path(str(error))
            field = f"options.{api.field}" + (f".{path}" if path else "")
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                f"options.{api.field}.{sentence(str(error))}" if path else sentence(str(error)),
                {"field": field},
            ) from error
        return options

    def _created(
        self, game_id: str, tokens: list[str], judge: str, version: int | None = None
    ) -> pb.CreateGameResponse:
        """Store the token hashes (once: a retry finds them) and answer CreateGame with the
        version after setup (``version``, or read from the log for a retried creation)."""
        if not self.service.store.load_token_hashes(game_id):
            with contextlib.suppress(IntegrityError):  # a concurrent retry stored them
                self.service.store.save_token_hashes(game_id, [token_hash(t) for t in tokens])
        self.tokens.save_judge_hash(game_id, token_hash(judge))
        header = self.service.header(game_id)
        names = list(header.seat_names)
        if version is None:
            version = 0
            for envelope in self.service.events(game_id, limit=10_000):
                if envelope.command_id != SETUP_COMMAND_ID:
                    break
                version = envelope.seq
        return pb.CreateGameResponse(
            game_id=game_id,
            seed_commitment=header.seed_commitment,
            version=version,
            judge_token=judge,
            seat_tokens=[
                pb.SeatToken(seat=i, name=n, token=t)
                for i, (n, t) in enumerate(zip(names, tokens, strict=True))
            ],
        )
