"""Charts of the read models, drawn with matplotlib (Agg backend: no display needed).

Each function writes a PNG file and returns the data it plotted, so tests (and callers)
can check the series rather than the pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, imported on first use (it is slow to import)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@dataclass(frozen=True)
class WinRateBar:
    """One bar of the balance chart: a key's win rate and its 95 % interval."""

    key: str
    games: int
    win_rate: float
    low: float
    high: float


def plot_win_rates(bars: Sequence[WinRateBar], path: str, title: str) -> list[WinRateBar]:
    """Bar chart of win rate per balance key with Wilson 95 % error bars; returns ``bars``."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(bars) + 2), 4.0))
    try:
        keys = [b.key for b in bars]
        rates = [b.win_rate for b in bars]
        errors = [
            [max(0.0, b.win_rate - b.low) for b in bars],
            [max(0.0, b.high - b.win_rate) for b in bars],
        ]
        axes.bar(keys, rates, yerr=errors, capsize=6, color="#4c72b0")
        for index, bar in enumerate(bars):
            axes.annotate(f"n={bar.games}", (index, 0.02), ha="center", fontsize=8)
        axes.set_ylim(0, 1)
        axes.set_ylabel("win rate (95% Wilson interval)")
        axes.set_title(title)
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        plt.close(figure)
    return list(bars)


def plot_score_timeline(
    seat_names: Sequence[str],
    versions: Sequence[int],
    scores: Sequence[Sequence[int]],
    path: str,
    title: str,
) -> dict[str, list[tuple[int, int]]]:
    """One line per seat: score after each turn against the game's version.

    ``scores[i]`` holds every seat's score at ``versions[i]``. Returns the series plotted,
    keyed by seat (``name#seat``, so seats sharing a name never merge into one line):
    ``[(version, score), ...]``.
    """
    series = {
        f"{name}#{seat}": [(v, int(row[seat])) for v, row in zip(versions, scores, strict=True)]
        for seat, name in enumerate(seat_names)
    }
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8.0, 4.5))
    try:
        for name, points in series.items():
            axes.plot([v for v, _ in points], [s for _, s in points], label=name)
        axes.set_xlabel("game version (events)")
        axes.set_ylabel("score")
        axes.set_title(title)
        axes.legend()
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        plt.close(figure)
    return series
