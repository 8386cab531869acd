// What play.js asks for and reports in a Tapestry game: the CreateGame options (solo level,
// expansion boxes, starting civilizations) and, once the game is over, what each seat held.
//
// The client words nothing itself: a decision's name and sentence come from the server
// (`Pending.decision`, `Pending.prompt`), the boxes' missing components from
// `GameSummary.notes`, and a seat's civilizations from its view (`TapestrySeatView`: ids, and
// the keys of the civilizations whose counters are in `civ_tokens`). The API gives no
// civilization names, and this client keeps no copy of the game's content.

import { UsageError } from "./script.js";

/** The expansion box names of the API (`TapestryOptions.expansions`). */
export const BOXES = ["plans_and_ploys", "arts_and_architecture", "fantasies_and_futures"];

/** A comma-separated command-line list: its non-empty items, trimmed (`""` → `[]`). */
export function parseList(text) {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * `--expansions`: box names of BOXES, each at most once (the server would refuse the rest
 * with INVALID_ARGUMENT; refusing here is a usage error, exit 2). `"all"` names every box.
 */
export function parseBoxes(text) {
  const boxes = text.trim() === "all" ? [...BOXES] : parseList(text);
  for (const box of boxes) {
    if (!BOXES.includes(box)) {
      const known = `${BOXES.join(", ")}, all`;
      throw new UsageError(`--expansions: unknown box ${JSON.stringify(box)} (known: ${known})`);
    }
  }
  if (new Set(boxes).size !== boxes.length) throw new UsageError("--expansions: a box named twice");
  return boxes;
}

/**
 * CreateGame fields of a Tapestry game: `level` 1–6 for a solo game against the Automa (0:
 * no Automa), the boxes in play and, per seat, a starting civilization (key or id; the
 * server checks it is implemented and its box in play).
 */
export function tapestryRequest({ level = 0, boxes = [], civilizations = [] }) {
  const tapestry = {};
  if (level) tapestry.automa_level = level;
  if (boxes.length) tapestry.expansions = boxes;
  if (civilizations.length) tapestry.starting_civilizations = civilizations;
  return { gameType: "GAME_TYPE_TAPESTRY", options: { tapestry } };
}

/**
 * Each seat of a Tapestry view (`GetView(...).view.tapestry`) as play.js reports it:
 * `{seat, civilizations, civ_tokens, vp}` — the civilizations held (ids, the starting one
 * first) and the civilization counters by key (`{key: [values]}`), keys sorted.
 */
export function seatCivilizations(view) {
  return (view?.seats ?? []).map((seat) => {
    const tokens = {};
    for (const key of Object.keys(seat.civ_tokens ?? {}).sort()) {
      tokens[key] = seat.civ_tokens[key].values ?? [];
    }
    return { seat: seat.seat, civilizations: seat.civilizations, civ_tokens: tokens, vp: seat.vp };
  });
}

/** `counts` (a Map name → number) as a plain object, names sorted. */
export function sortedCounts(counts) {
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
