"""Many threads decode every game's state for the first time at once, in a fresh process —
what a freshly restarted server does when its first requests materialise games from
snapshots (see :mod:`service.app.warmup`).

``python -m tests.reliability.first_decode [--warm]``: without ``--warm`` this process
often dies with a segmentation fault (msgspec's lazy type build races); with ``--warm``
(:func:`service.app.warmup.warm_up` first, as ``annales serve`` does) it must print ``ok``.
"""

from __future__ import annotations

import sys
import threading

from domain.registry import GAMES

THREADS = 12


def main(argv: list[str]) -> int:
    """Encode each game's initial state, then decode them from ``THREADS`` threads at once."""
    blobs = []
    for _, game in sorted(GAMES.items()):
        state = game.initial(game.decode_options({}), game.min_seats)
        blobs.append((game, game.encode_state(state)))
    if "--warm" in argv:
        from service.app.warmup import warm_up

        warm_up()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    barrier = threading.Barrier(THREADS)

    def decode(index: int) -> None:
        game, blob = blobs[index % len(blobs)]
        barrier.wait()
        game.decode_state(blob)

    threads = [threading.Thread(target=decode, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
