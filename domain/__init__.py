"""Pure game rules: the game-agnostic kernel (:mod:`domain.core`) and one package per game.

Nothing in this package performs I/O, reads the clock or uses the :mod:`random` module; the same
inputs always give byte-identical outputs.
"""
