// Board views drawn as SVG, one renderer per game, from the views the API returns
// (protobuf JSON: fields at their default value — 0, "", false — are absent).
// Colours: the Okabe–Ito palette (colour-blind safe), and every seat's piece also carries
// the seat's number, so nothing is told by colour alone.

export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00"];
const TERRAIN = { "-1": null, 0: "#56B4E9", 1: "#EEE8AA", 2: "#3A9A6E", 3: "#A08C78", 4: "#F4F7FA" };
const TERRAIN_NAME = { 0: "sea", 1: "plain", 2: "forest", 3: "mountain", 4: "glacier" };
const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function text(x, y, content, attrs = {}) {
  return el("text", { x, y, "font-size": 11, "font-family": "sans-serif", ...attrs }, String(content));
}

function svgRoot(width, height) {
  return el("svg", { xmlns: NS, viewBox: `0 0 ${width} ${height}`, width, height, class: "board" });
}

const seatOf = (x) => x.seat || 0;
// Tapestry's bots hold no seat: the Automa is -2, the Shadow Empire -3 (black and grey discs
// marked A and S)
const BOTS = { "-2": { colour: "#000000", mark: "A", name: "Automa" }, "-3": { colour: "#999999", mark: "S", name: "Shadow Empire" } };
export const colourOf = (seat) => (BOTS[seat] ? BOTS[seat].colour : SEAT_COLOURS[((seat % 5) + 5) % 5]);
export const markOf = (seat) => (BOTS[seat] ? BOTS[seat].mark : String(seat));
const values = (x) => (Array.isArray(x) ? x : (x && x.values) || []);

// Rise & Fall names piece types, cards and card actions with enums in actions, events and
// views alike (RISE_AND_FALL_PIECE_NOMAD, RISE_AND_FALL_ACTION_NAME_BUILD_CITY; see
// riseandfall.proto): shown as the rulebook's words ("nomad", "build city").
const ENUM_WORD = /\bRISE_AND_FALL_(?:PIECE|ACTION_NAME|RESOURCE)_([A-Z_]+)\b/g;
export const words = (text) =>
  String(text).replace(ENUM_WORD, (_, word) => word.toLowerCase().replaceAll("_", " "));

// ---------------------------------------------------------------- Rise & Fall
// The view's `world.grid` says the geometry ("square" or "hex"; where a view predates the
// field, the ruleset decides: riseandfall/1 square, any other hex). A cell id is y * 40 + x.
// * square: x the column, y the row; 4 neighbours (sides).
// * hex (riseandfall/2): pointy-topped hexagons in axial coordinates, x = q (east) and
//   y = r (south-east), as proto/annales/v1/riseandfall.proto documents; the centre of (q, r)
//   is (√3·(q + r/2), 3/2·r) cell radii; 6 neighbours.
const WIDTH = 40;
// hex: the three "forward" neighbours (dq, dr) and the two corners (k of 60k − 30 degrees,
// clockwise from the east-north-east corner) of the side shared with each
const HEX_SIDES = [[1, 0, 0, 1], [0, 1, 1, 2], [-1, 1, 2, 3]];

export function riseAndFall(view, ruleset, targets = new Map()) {
  const world = view.world || {};
  const terrain = world.terrain || [];
  const hex = world.grid ? world.grid === "hex" : !String(ruleset).endsWith("/1");
  const size = hex ? 13 : 18;
  const qr = (i) => [i % WIDTH, Math.floor(i / WIDTH)];
  const centre = (i) => {
    const [q, r] = qr(i);
    if (!hex) return [q * size + size / 2, r * size + size / 2];
    return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
  };
  const corner = (x, y, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return [x + size * Math.cos(a), y + size * Math.sin(a)];
  };
  const used = [];
  terrain.forEach((t, i) => { if (t !== -1 && t !== undefined && t !== null) used.push(i); });
  const tileOf = new Map();
  (world.tiles || []).forEach((tile, n) => (tile.cells || []).forEach((c) => tileOf.set(c, n)));
  const pts = used.map(centre);
  if (!pts.length) pts.push([0, 0]);
  const minX = Math.min(...pts.map((p) => p[0])) - size, minY = Math.min(...pts.map((p) => p[1])) - size;
  const maxX = Math.max(...pts.map((p) => p[0])) + size, maxY = Math.max(...pts.map((p) => p[1])) + size;
  const svg = svgRoot(Math.max(maxX - minX, 560), Math.max(maxY - minY, 100) + 40);
  svg.setAttribute("data-grid", hex ? "hex" : "square");
  svg.setAttribute("data-cell-size", size);
  const g = el("g", { transform: `translate(${-minX},${-minY})`, class: "world" });
  svg.append(g);
  const shape = (i, attrs) => {
    const [x, y] = centre(i);
    if (!hex) return el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, ...attrs });
    const corners = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k).map((v) => v.toFixed(1)).join(","));
    return el("polygon", { points: corners.join(" "), ...attrs });
  };
  for (const i of used) {
    const level = terrain[i];
    const [q, r] = qr(i);
    const cell = shape(i, { fill: TERRAIN[level] || "#ccc", stroke: "#888", "stroke-width": 0.3, "data-cell": i });
    cell.append(el("title", {}, `cell ${i} (${hex ? "q" : "x"} ${q}, ${hex ? "r" : "y"} ${r}): ${TERRAIN_NAME[level] || level} (level ${level})`));
    g.append(cell);
    if (hex && level > 0) { // the level, small, in the cell's lower half
      const [x, y] = centre(i);
      g.append(text(x, y + size * 0.75, level, { "text-anchor": "middle", "font-size": size * 0.45, fill: "#333", class: "level" }));
    }
  }
  // region borders (between tiles, dashed) and cliffs (a level difference of 2 or more, thick)
  const edge = (i, j, line) => {
    if (terrain[j] === undefined || terrain[j] === -1 || terrain[j] === null) return;
    const cliff = Math.abs(terrain[i] - terrain[j]) >= 2;
    const border = tileOf.get(i) !== tileOf.get(j);
    if (!cliff && !border) return;
    g.append(el("line", { ...line, stroke: cliff ? "#000" : "#555", "stroke-width": cliff ? 2.5 : 0.8,
      "stroke-dasharray": cliff ? "" : "2 1", class: cliff ? "cliff" : "region" }));
  };
  for (const i of used) {
    const [q, r] = qr(i);
    if (!hex) {
      for (const [dq, dr] of [[1, 0], [0, 1]]) {
        if (q + dq >= WIDTH) continue;
        const x1 = (q + dq) * size, y1 = (r + dr) * size;
        edge(i, (r + dr) * WIDTH + q + dq, dq ? { x1, y1: r * size, x2: x1, y2: r * size + size } : { x1: q * size, y1, x2: q * size + size, y2: y1 });
      }
      continue;
    }
    const [x, y] = centre(i);
    for (const [dq, dr, k1, k2] of HEX_SIDES) {
      if (q + dq < 0 || q + dq >= WIDTH || r + dr >= WIDTH) continue;
      const [x1, y1] = corner(x, y, k1), [x2, y2] = corner(x, y, k2);
      edge(i, (r + dr) * WIDTH + q + dq, { x1: x1.toFixed(1), y1: y1.toFixed(1), x2: x2.toFixed(1), y2: y2.toFixed(1) });
    }
  }
  // pieces: a disc per piece in its seat's colour with the seat's number; several pieces on
  // one cell are spread around its centre
  const onCell = new Map();
  for (const piece of view.pieces || []) {
    const c = piece.cell || 0;
    if (!onCell.has(c)) onCell.set(c, []);
    onCell.get(c).push(piece);
  }
  for (const [c, pieces] of onCell) {
    const [cx, cy] = centre(c);
    pieces.forEach((piece, k) => {
      const spread = pieces.length > 1 ? size * 0.4 : 0;
      const a = (2 * Math.PI * k) / pieces.length;
      const x = cx + spread * Math.cos(a), y = cy + spread * Math.sin(a);
      const seat = seatOf(piece);
      const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      const radius = size * (pieces.length > 1 ? 0.3 : 0.42);
      const mark = el("g", { class: "piece", "data-seat": seat },
        el("circle", { cx: x, cy: y, r: radius, fill: colour, stroke: "#000", "stroke-width": 0.8 }),
        text(x, y + radius * 0.45, seat, { "text-anchor": "middle", fill: "#fff", "font-size": radius * 1.3, "font-weight": "bold" }));
      mark.append(el("title", {}, `${words(piece.piece || "")} of seat ${seat} on cell ${c}`));
      g.append(mark);
    });
  }
  for (const [cell, action] of targets) {
    const target = shape(cell, { fill: "#F0E442", "fill-opacity": 0.55, stroke: "#000", "stroke-width": 1.5, class: "target" });
    target.append(el("title", {}, action.label));
    target.addEventListener("click", action.run);
    g.append(target);
  }
  svg.append(text(4, maxY - minY + 16, `round ${view.round || 0} · ${view.phase || ""} · ${hex ? "hexagonal" : "square"} cells (${ruleset})`));
  svg.append(text(4, maxY - minY + 32, `thick black lines: cliffs · dashed: region borders · numbered discs: seats' pieces${hex ? " · small digits: levels" : ""}`));
  return svg;
}

// ---------------------------------------------------------------- Tapestry
export function tapestry(view, names) {
  const n = (file, id) => ((names.tapestry || {})[file] || {})[String(id)] || `#${id}`;
  const seats = view.seats || [];
  const size = 22;
  const hexes = view.hexes || [];
  const centre = (h) => [size * Math.sqrt(3) * ((h.q || 0) + (h.r || 0) / 2), size * 1.5 * (h.r || 0)];
  const pts = hexes.map(centre);
  const minX = Math.min(0, ...pts.map((p) => p[0])) - size, minY = Math.min(0, ...pts.map((p) => p[1])) - size;
  const mapW = Math.max(0, ...pts.map((p) => p[0])) - minX + size, mapH = Math.max(0, ...pts.map((p) => p[1])) - minY + size;
  const capW = 9 * 12 + 20;
  const width = Math.max(Math.max(mapW, 420) + seats.length * capW + 20, view.solo ? 900 : 0);
  const height = Math.max(mapH, 140) + 200;
  const svg = svgRoot(width, height);
  const map = el("g", { transform: `translate(${-minX},${-minY})` });
  svg.append(map);
  hexes.forEach((h) => {
    const [x, y] = centre(h);
    const corners = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (60 * k - 30);
      corners.push(`${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`);
    }
    const fill = (h.tile ?? 0) >= 0 && h.tile !== undefined && h.tile !== -1 ? "#C9B27C" : h.printed ? "#E8DFC8" : "#F6F1E6";
    const hexEl = el("polygon", { points: corners.join(" "), fill, stroke: "#777", "stroke-width": 0.8 });
    hexEl.append(el("title", {}, `(${h.q || 0}, ${h.r || 0})${h.tile > 0 ? ` territory tile ${h.tile}` : ""}`));
    map.append(hexEl);
    (h.outposts || []).forEach((o, k) => {
      const seat = seatOf(o);
      map.append(el("circle", { cx: x - 6 + k * 8, cy: y, r: 5, fill: colourOf(seat), stroke: "#000", class: "outpost", "data-seat": seat }));
      map.append(text(x - 6 + k * 8, y + 3.5, markOf(seat), { "font-size": 8, fill: "#fff", "text-anchor": "middle" }));
    });
  });
  // capitals: one 9 × 9 grid per seat (blocked plots dark, buildings letters)
  seats.forEach((seat, s) => {
    const ox = Math.max(mapW, 420) + 10 + s * capW, oy = 10;
    svg.append(text(ox, oy + 4, `seat ${s}: ${seat.capital === -1 ? "capital not chosen" : n("capitals", seat.capital || 0)}`, { "font-weight": "bold", fill: SEAT_COLOURS[s % 5] }));
    const grid = seat.capitalGrid || [], blocked = seat.capitalBlocked || [];
    for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) {
      const mark = (grid[r] || "")[c] || ".";
      const isBlocked = (blocked[r] || "")[c] === "1";
      svg.append(el("rect", { x: ox + c * 12, y: oy + 10 + r * 12, width: 11, height: 11,
        fill: isBlocked ? "#555" : mark !== "." ? SEAT_COLOURS[s % 5] : "#fff", stroke: "#999", "stroke-width": 0.5 }));
      if (mark !== ".") svg.append(text(ox + c * 12 + 2, oy + 19 + r * 12, mark, { "font-size": 8, fill: "#fff" }));
    }
    const res = seat.resources || [];
    svg.append(text(ox, oy + 132, `VP ${seat.vp || 0} · coin ${res[0] || 0} wkr ${res[1] || 0} food ${res[2] || 0} cult ${res[3] || 0}`, { "font-size": 9 }));
    svg.append(text(ox, oy + 144, `civ: ${(seat.civilizations || []).map((c) => n("civilizations", c)).join(", ")}`, { "font-size": 9 }));
    svg.append(text(ox, oy + 156, `tech: ${values(seat.techCards || seat.tech).map((c) => n("tech_cards", c.card ?? c)).join(", ") || "—"}`, { "font-size": 9 }));
    svg.append(text(ox, oy + 168, `mat: ${(seat.mat || []).map((m) => (m.faceUp ? n("tapestry_cards", m.card || 0) : "face down")).join(", ") || "—"}`, { "font-size": 9 }));
  });
  // tracks: 4 rows of 13 spaces, a disc per seat at its position
  const trackNames = ["exploration", "science", "technology", "military"];
  const ty = Math.max(mapH, 140) + 20;
  trackNames.forEach((t, k) => {
    svg.append(text(0, ty + k * 22 + 14, n("tracks", t), { "font-size": 10 }));
    for (let space = 0; space <= 12; space++) {
      svg.append(el("rect", { x: 80 + space * 24, y: ty + k * 22, width: 22, height: 20, fill: space % 3 === 0 ? "#EEE" : "#fff", stroke: "#999" }));
    }
    seats.forEach((seat, s) => {
      const pos = (seat.positions || [])[k] || 0;
      svg.append(el("circle", { cx: 80 + pos * 24 + 5 + s * 4, cy: ty + k * 22 + 10, r: 4, fill: SEAT_COLOURS[s % 5], stroke: "#000", "stroke-width": 0.5 }));
    });
  });
  // the bots' boards (solo Automa, 2-seat Shadow Empire): their discs on the tracks, then a
  // panel per bot
  const solo = view.solo;
  const bots = solo ? solo.bots || [] : [];
  bots.forEach((bot, b) => {
    const id = bot.name === "Shadow Empire" ? -3 : -2;
    (bot.tracks || []).forEach((pos, k) => {
      const cx = 80 + (pos || 0) * 24 + 5 + (seats.length + b) * 4;
      svg.append(el("circle", { cx, cy: ty + k * 22 + 10, r: 4, fill: colourOf(id), stroke: "#fff", "stroke-width": 0.8, class: "bot-disc" }));
    });
  });
  const display = (view.techDisplay || []).map((c) => n("tech_cards", c)).join(", ");
  svg.append(text(0, ty + 4 * 22 + 16, `tech cards face up: ${display || "—"} · turn ${view.turn || 0} · ${view.decision || ""}`));
  if (solo) {
    const panel = el("g", { class: "solo", transform: `translate(0,${ty + 4 * 22 + 26})` });
    const civ = ["none", "Explorers", "Scientists", "Conquerors", "Engineers"][solo.civilization || 0] || `#${solo.civilization}`;
    const lines = [];
    if (solo.automa) lines.push(`Automa (level ${solo.level || 0}, civilization ${civ}): ${solo.vp || 0} VP · income turns ${solo.incomeTurns || 0}/5${solo.finished ? " (finished)" : ""}${solo.first ? " · plays first" : ""}`);
    else lines.push(`Shadow Empire variant: income turns ${solo.incomeTurns || 0}/5${solo.finished ? " (finished)" : ""}`);
    for (const bot of bots) {
      const tracks = trackNames.map((t, k) => `${t} ${(bot.tracks || [])[k] || 0}`).join(", ");
      lines.push(`${bot.name}: ${tracks} · favourite ${bot.favorite || "—"}${bot.favorite_marker === "two_tokens" ? " (2 tokens)" : ""} · achievements ${(bot.achievements || []).map((a) => n("achievements", a)).join(", ") || "—"}`);
    }
    lines.push(`decision pair ${(solo.pair || []).join(" / ") || "—"} · decision deck ${solo.deckSize || 0}, discard ${solo.discardSize || 0} · progress deck ${solo.progressSize || 0} · tapestry cards ${solo.tapestryCount || 0} · landmarks ${(solo.landmarks || []).map((l) => n("landmarks", l)).join(", ") || "—"}`);
    lines.forEach((line, k) => panel.append(text(0, 12 + k * 14, line, { "font-size": 10, fill: k === 0 ? "#000" : "#333", "font-weight": k === 0 ? "bold" : "normal" })));
    svg.append(panel);
    svg.setAttribute("height", height + lines.length * 14 + 20);
    svg.setAttribute("viewBox", `0 0 ${width} ${height + lines.length * 14 + 20}`);
  }
  return svg;
}

// ---------------------------------------------------------------- Imperium
const CARD_ZONES = ["hand", "play", "inPlay", "history", "discard", "development", "accession", "looked", "submerged"];
export function imperium(view, names) {
  const byId = {};
  for (const table of Object.values(names.imperium || {})) Object.assign(byId, table);
  const name = (id) => byId[id] || id;
  const seats = view.seats || [];
  const rows = [];
  seats.forEach((seat, s) => {
    rows.push({ label: `seat ${s}: ${seat.nation || "?"} — materials ${seat.materials || 0}, population ${seat.population || 0}, progress ${seat.progress || 0}, deck ${seat.deckSize || 0}, nation deck ${seat.nationDeckSize || 0}${seat.state ? `, ${seat.state}` : ""}`, seat: s });
    for (const zone of CARD_ZONES) {
      if (!(zone in seat) && !(`${zone}Size` in seat)) continue;
      const cards = values(seat[zone]);
      const size = seat[`${zone}Size`];
      rows.push({ zone, cards, hidden: cards.length === 0 && size ? size : 0, seat: s });
    }
  });
  rows.push({ label: `market (king of kings: ${view.kingOfKings || "—"})` });
  rows.push({ zone: "market", cards: (view.market || []).map((m) => m.card || m.kind) });
  rows.push({ label: `piles: ${Object.entries(view.pileSizes || {}).map(([k, v]) => `${k} ${v}`).join(", ")}` });
  const cardW = 86, cardH = 30;
  const height = rows.length * (cardH + 8) + 20;
  const widest = Math.max(6, ...rows.map((r) => (r.cards ? r.cards.length : 0)));
  const svg = svgRoot(110 + widest * (cardW + 4), height);
  let y = 10;
  for (const row of rows) {
    if (row.label) {
      svg.append(text(0, y + 18, row.label, { "font-weight": "bold", fill: row.seat !== undefined ? SEAT_COLOURS[row.seat % 5] : "#000" }));
    } else {
      svg.append(text(0, y + 18, row.zone, { "font-size": 10 }));
      row.cards.forEach((id, k) => {
        const x = 100 + k * (cardW + 4);
        const card = el("g", {}, el("rect", { x, y, width: cardW, height: cardH, rx: 4, fill: "#FFF8E7", stroke: "#555" }),
          text(x + 4, y + 13, name(id).slice(0, 14), { "font-size": 10 }), text(x + 4, y + 25, id, { "font-size": 8, fill: "#666" }));
        card.append(el("title", {}, `${name(id)} (${id})`));
        svg.append(card);
      });
      if (row.hidden) svg.append(text(100, y + 18, `${row.hidden} hidden cards`, { fill: "#666" }));
    }
    y += cardH + 8;
  }
  return svg;
}

export function render(game, view, names, targets) {
  if (view.riseAndFall) return riseAndFall(view.riseAndFall, game.ruleset || "riseandfall/1", targets);
  if (view.tapestry) return tapestry(view.tapestry, names);
  if (view.imperium) return imperium(view.imperium, names);
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(view, null, 1);
  return pre;
}
