"""The C.I.V. (Civilisation Interactive Virtuelle): Imperium's solo opponent, played by the rules.

It holds no seat of the service: it sits at the internal index :data:`CIV` of the game state
(so the human's attacks and "each other player" effects reach it), and its turns are events
decided inside the human's commands. Modules: ``content`` (solo.json), ``state``, ``events``,
``fold``, ``setup``, ``turn``, ``steps``, ``hooks``, ``scoring``, ``view``.
"""

#: the internal seat index of the C.I.V. in a solo game's state.
CIV = 1
