"""Build msgspec's decoding information for every Struct type once, in one thread, at start.

msgspec builds the information it needs to decode (or ``convert`` to) a ``Struct`` type lazily,
the first time that type is decoded, and that build is not safe against a second thread
doing the same at the same moment: the second thread can read a half-built entry and the
whole process dies with a segmentation fault (msgspec 0.22 on CPython 3.11; the build runs
Python code — annotation evaluation — so the interpreter switches threads in the middle).

A freshly started server meets exactly that case: its cache is empty, and its first
concurrent requests materialise games of the same type from snapshots in several threads at
once. The crash harness (``tests/reliability``) found it — a restarted server died under load
a few times per hundred restarts. :func:`warm_up` builds the information for every Struct
class loaded (the kernel, every registered game's states, events, commands and options, the
envelopes and snapshots) before the server accepts its first call; afterwards decoding only
reads it, from any thread.
"""

from __future__ import annotations

import msgspec


def struct_types() -> list[type[msgspec.Struct]]:
    """Every ``msgspec.Struct`` subclass loaded now, in a stable order (module, name)."""
    found: dict[str, type[msgspec.Struct]] = {}
    stack: list[type[msgspec.Struct]] = [msgspec.Struct]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            name = f"{sub.__module__}.{sub.__qualname__}"
            if name not in found:
                found[name] = sub
                stack.append(sub)
    return [found[name] for name in sorted(found)]


def warm_up() -> int:
    """Build the decoding information of every Struct type of the loaded games and of the
    service (importing them first); return how many types were prepared.

    >>> warm_up() > 0
    True
    """
    import domain.registry  # noqa: F401  (every game's types)
    import service.app.application  # noqa: F401  (snapshots, envelopes, kernel state)

    prepared = 0
    for cls in struct_types():
        try:
            msgspec.msgpack.Decoder(cls)
        except (TypeError, NameError, ValueError):  # e.g. an unresolvable annotation
            continue  # decoding such a type fails anyway, in any thread
        prepared += 1
    return prepared
