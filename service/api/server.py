"""Run the gRPC server: ``annales serve --host 127.0.0.1 --port 50051 --db data/annales.db``.

* the synchronous gRPC server with a thread pool (measured no slower than ``grpc.aio`` on these
  machines, see docs/architecture.md; storage calls block a worker thread, never an event loop);
* health checking (``grpc.health.v1``) and server reflection (``grpc.reflection.v1`` and
  ``grpc.reflection.v1alpha``: :mod:`service.api.reflection`);
* message size limits (64 MiB in and out, so that an exported record can be sent back to be
  verified) — larger requests get RESOURCE_EXHAUSTED;
* graceful shutdown on SIGTERM / SIGINT: new calls are refused, in-flight commands finish
  within the grace period, streams end with a clean status;
* one JSON log line per call (method, game id, status, milliseconds) — never tokens or seeds;
  at start one line with the store's durability settings (see README, "Durability");
* on PostgreSQL, several servers may share one database (README, "Several servers on
  PostgreSQL"): a :class:`~service.api.watch.StoreFollower` wakes this server's watchers for
  commits made through the others, and the application checks cached heads against the store.
"""

from __future__ import annotations

import faulthandler
import json
import logging
from concurrent import futures
from dataclasses import dataclass
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc
from annales.v1 import campaign_pb2 as cpb
from annales.v1 import campaign_pb2_grpc as cpb_grpc
from annales.v1 import readmodels_pb2 as rpb
from annales.v1 import readmodels_pb2_grpc as rpb_grpc
from annales.v1 import tournament_pb2 as tpb
from annales.v1 import tournament_pb2_grpc as tpb_grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from projections.process import RunnerProcess
from projections.queries import abandoned_after
from projections.runner import check_owner, path_for
from service.api import reflection
from service.api.campaigns import CampaignServicer
from service.api.readmodels import ReadModels, ReadModelServicer
from service.api.servicer import Diagnostics, Servicer
from service.api.signals import stop_on_signals, wait_for_stop
from service.api.status import ApiError, abort
from service.api.tournaments import TournamentServicer
from service.api.viewcache import ViewCache
from service.api.watch import Broadcaster, StoreFollower
from service.app.application import GameService
from service.app.warmup import warm_up
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

MAX_RECEIVE = 64 * 1024 * 1024
MAX_SEND = 64 * 1024 * 1024
#: seconds of shutdown after which every thread's stack is written to standard error
SHUTDOWN_WATCHDOG_S = 12.0


class ParseInHandler(grpc.ServerInterceptor):  # type: ignore[misc]
    """Parse request bytes inside the handler, so malformed protobuf bytes get a typed
    INVALID_ARGUMENT (reason ``MALFORMED_REQUEST``) instead of gRPC's bare INTERNAL."""

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        """Wrap unary-request handlers with a parser that answers INVALID_ARGUMENT."""
        handler = continuation(details)
        if handler is None or handler.request_deserializer is None:
            return handler
        deserialize = handler.request_deserializer

        def parse(raw: bytes, context: grpc.ServicerContext) -> Any:
            try:
                return deserialize(raw)
            except Exception:
                abort(context, ApiError(grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST",
                                        "The request bytes are not a valid message."))  # fmt: skip

        if handler.unary_unary is not None:
            unary = handler.unary_unary
            return handler._replace(
                request_deserializer=None, unary_unary=lambda raw, ctx: unary(parse(raw, ctx), ctx)
            )
        if handler.unary_stream is not None:
            stream = handler.unary_stream
            return handler._replace(
                request_deserializer=None,
                unary_stream=lambda raw, ctx: stream(parse(raw, ctx), ctx),
            )
        return handler


@dataclass
class RunningServer:
    """A started server and what it needs to stop cleanly."""

    server: grpc.Server
    port: int
    service: GameService
    broadcaster: Broadcaster
    health: health.HealthServicer
    projections: RunnerProcess | None = None
    follower: StoreFollower | None = None
    web: Any = None  # service.web.server.WebServer when --web-port is given
    views: ViewCache | None = None  # the game servicer's GetView cache (its counters)

    def stop(self, grace: float = 5.0) -> None:
        """Refuse new calls, let in-flight ones finish, end streams cleanly."""
        self.health.enter_graceful_shutdown()
        self.broadcaster.close()
        if self.web is not None:
            self.web.stop(grace)
        self.server.stop(grace).wait()
        if self.follower is not None:
            self.follower.stop()
        if self.projections is not None:
            self.projections.stop()
        self.service.store.close()


def _readmodels_path(config: StoreConfig, port: int) -> str:
    """The default read-model file, named after the store (:func:`projections.runner.path_for`:
    ``data/annales.readmodels.db`` next to ``data/annales.db``; for PostgreSQL one file per
    database and port under ``data/``, so several servers on one host never share one)."""
    return path_for(config, port)


def start(
    config: StoreConfig,
    host: str = "127.0.0.1",
    port: int = 50051,
    workers: int = 64,
    projections: bool = True,
    readmodels: str | None = None,
    web_port: int | None = None,
    web_origins: tuple[str, ...] = (),
) -> RunningServer:
    """Start a server on ``host:port`` (port 0: any free port) and return it.

    With ``projections`` the read-model runner follows the log in a child process, woken
    after every commit (``readmodels``: its SQLite file, default named after the store, next
    to it); see :mod:`projections.process` for why it is not a thread.
    With ``web_port`` the same servicers are also served over Connect, with the web app
    (:mod:`service.web.server`; ``web_origins``: the other origins allowed to call them).
    """
    warm_up()  # msgspec's lazy type build is not thread-safe: do it before the first call
    abandoned_after()  # a bad ANNALES_ABANDONED_AFTER stops the start, not a later ListGames
    service = GameService(EventStore(config))
    broadcaster = Broadcaster()
    service.on_commit(broadcaster.committed)
    follower = None
    if config.kind == "postgres":
        follower = StoreFollower(service.store, broadcaster).start()
    path = readmodels or _readmodels_path(config, port)
    check_owner(path, service.store)  # a file of another store is refused, never rebuilt
    runner = RunnerProcess(config, path) if projections else None
    if runner is not None:
        service.on_commit(runner.wake)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="annales-rpc"),
        interceptors=[ParseInHandler()],
        options=[
            ("grpc.max_receive_message_length", MAX_RECEIVE),
            ("grpc.max_send_message_length", MAX_SEND),
            ("grpc.so_reuseport", 0),
        ],
    )
    servicer = Servicer(service, broadcaster)
    readers = ReadModels(path, service.store, runner)
    if runner is not None:
        servicer.readmodels = readers  # type: ignore[attr-defined]
    pb_grpc.add_GameServiceServicer_to_server(servicer, server)
    servicers = (
        servicer, ReadModelServicer(readers), Diagnostics(), TournamentServicer(service),
        CampaignServicer(service),
    )  # fmt: skip
    rpb_grpc.add_ReadModelServiceServicer_to_server(servicers[1], server)
    pb_grpc.add_DiagnosticsServiceServicer_to_server(servicers[2], server)
    tpb_grpc.add_TournamentServiceServicer_to_server(servicers[3], server)
    cpb_grpc.add_CampaignServiceServicer_to_server(servicers[4], server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (
        pb.DESCRIPTOR.services_by_name["GameService"].full_name,
        pb.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name,
        rpb.DESCRIPTOR.services_by_name["ReadModelService"].full_name,
        tpb.DESCRIPTOR.services_by_name["TournamentService"].full_name,
        cpb.DESCRIPTOR.services_by_name["CampaignService"].full_name,
        health.SERVICE_NAME,
    )
    reflection.enable(names, server)
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:  # grpcio raises it when the address cannot be bound
        bound = 0
    if bound == 0:
        raise OSError(
            f"cannot listen on {host}:{port}: the port is taken or the address is not this "
            "machine's"
        )
    web = None
    if web_port is not None:  # listening before SERVING is announced
        from service.web.server import WebServer

        names_ = (
            "GameService", "ReadModelService", "DiagnosticsService", "TournamentService",
            "CampaignService",
        )  # fmt: skip
        files = (pb, rpb, pb, tpb, cpb)
        descriptors = [f.DESCRIPTOR.services_by_name[n] for f, n in zip(files, names_, strict=True)]
        web = WebServer(dict(zip(descriptors, servicers, strict=True)), web_origins)
        web.start(host, web_port)
    server.start()
    for name in (*names[:5], ""):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    running = RunningServer(server, bound, service, broadcaster, health_servicer, runner, follower)
    running.web = web
    running.views = servicer.views
    return running


def serve(
    config: StoreConfig,
    host: str,
    port: int,
    projections: bool = True,
    readmodels: str | None = None,
    web_port: int | None = None,
    web_origins: tuple[str, ...] = (),
) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    running = start(config, host, port, projections=projections, readmodels=readmodels,
                    web_port=web_port, web_origins=web_origins)  # fmt: skip
    where = config.path if config.kind == "sqlite" else f"postgres {config.pg_dbname}"
    logging.getLogger("annales").info(
        '{"event": "serving", "host": "%s", "port": %d, "store": "%s"}',
        host,
        running.port,
        where,
    )
    durability = running.service.store.durability()
    logging.getLogger("annales").info(
        json.dumps({"event": "durability", "store": config.kind, **durability})
    )
    if "off" in (durability.get("synchronous_commit"), durability.get("fsync")) or (
        durability.get("synchronous") == "0"
    ):
        logging.getLogger("annales").warning(
            json.dumps({"event": "warning", "message": "the store does not flush commits: "
                        "acknowledged commands may be lost in a crash"})
        )  # fmt: skip
    stopping = stop_on_signals()
    print(f"annales serving on {host}:{running.port} (store: {where})", flush=True)
    if running.web is not None:
        print(f"annales web app and Connect API on http://{host}:{running.web.port}/", flush=True)
    wait_for_stop(stopping)
    # a shutdown that takes far longer than its grace leaves every thread's stack in the log
    faulthandler.dump_traceback_later(SHUTDOWN_WATCHDOG_S)
    running.stop()
    faulthandler.cancel_dump_traceback_later()
    logging.getLogger("annales").info('{"event": "stopped"}')
