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
const values = (x) => (Array.isArray(x) ? x : (x && x.values) || []);

// ---------------------------------------------------------------- Rise & Fall
// riseandfall/1: 40 × 40 square cells, cell id = y * 40 + x.
// riseandfall/2: hexagonal cells; drawn from the coordinates the view gives for each cell
// (world.cells[i].q / .r when present), else from the cell id in odd-r offset rows.
export function riseAndFall(view, ruleset, targets = new Map()) {
  const world = view.world || {};
  const terrain = world.terrain || [];
  const hex = !String(ruleset).endsWith("/1");
  const width = Math.round(Math.sqrt(terrain.length)) || 40;
  const coords = (i) => {
    const given = world.cells && world.cells[i];
    if (given) return [given.q || 0, given.r || 0];
    return [i % width, Math.floor(i / width)];
  };
  const size = hex ? 11 : 18;
  const centre = (i) => {
    const [c, r] = coords(i);
    if (!hex) return [c * size + size / 2, r * size + size / 2];
    const q = world.cells ? c : c - (r - (r & 1)) / 2; // offset → axial when ids are offsets
    return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
  };
  const used = [];
  terrain.forEach((t, i) => { if (t !== -1 && t !== undefined) used.push(i); });
  const tileOf = new Map();
  (world.tiles || []).forEach((tile, n) => (tile.cells || []).forEach((c) => tileOf.set(c, n)));
  const pts = used.map(centre);
  if (!pts.length) pts.push([0, 0]);
  const minX = Math.min(...pts.map((p) => p[0])) - size, minY = Math.min(...pts.map((p) => p[1])) - size;
  const maxX = Math.max(...pts.map((p) => p[0])) + size, maxY = Math.max(...pts.map((p) => p[1])) + size;
  const svg = svgRoot(Math.max(maxX - minX, 420), Math.max(maxY - minY, 100) + 40);
  const g = el("g", { transform: `translate(${-minX},${-minY})` });
  svg.append(g);
  const shape = (i, attrs) => {
    const [x, y] = centre(i);
    if (!hex) return el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, ...attrs });
    const corners = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (60 * k - 30);
      corners.push(`${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`);
    }
    return el("polygon", { points: corners.join(" "), ...attrs });
  };
  for (const i of used) {
    const level = terrain[i];
    const cell = shape(i, { fill: TERRAIN[level] || "#ccc", stroke: "#888", "stroke-width": 0.3, "data-cell": i });
    cell.append(el("title", {}, `cell ${i}: ${TERRAIN_NAME[level] || level} (level ${level})`));
    g.append(cell);
  }
  if (!hex) {
    // region borders (between tiles) and cliffs (a level difference of 2 or more)
    for (const i of used) {
      const [x, y] = [i % width, Math.floor(i / width)];
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const j = (y + dy) * width + (x + dx);
        if (x + dx >= width || terrain[j] === undefined || terrain[j] === -1) continue;
        const cliff = Math.abs(terrain[i] - terrain[j]) >= 2;
        const border = tileOf.get(i) !== tileOf.get(j);
        if (!cliff && !border) continue;
        const x1 = (x + dx) * size, y1 = (y + dy) * size;
        const line = dx ? { x1, y1: y * size, x2: x1, y2: y * size + size } : { x1: x * size, y1, x2: x * size + size, y2: y1 };
        g.append(el("line", { ...line, stroke: cliff ? "#000" : "#555", "stroke-width": cliff ? 2.5 : 0.8,
          "stroke-dasharray": cliff ? "" : "2 1", class: cliff ? "cliff" : "region" }));
      }
    }
  }
  for (const piece of view.pieces || []) {
    const [x, y] = centre(piece.cell || 0);
    const seat = seatOf(piece);
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    const mark = el("g", { class: "piece" },
      el("circle", { cx: x, cy: y, r: size * 0.38, fill: colour, stroke: "#000", "stroke-width": 0.8 }),
      text(x, y + 3.5, seat, { "text-anchor": "middle", fill: "#fff", "font-size": size * 0.5, "font-weight": "bold" }));
    mark.append(el("title", {}, `${piece.piece} of seat ${seat}`));
    g.append(mark);
  }
  for (const [cell, action] of targets) {
    const target = shape(cell, { fill: "#F0E442", "fill-opacity": 0.55, stroke: "#000", "stroke-width": 1.5, class: "target" });
    target.append(el("title", {}, action.label));
    target.addEventListener("click", action.run);
    g.append(target);
  }
  svg.append(text(4, maxY - minY + 16, `round ${view.round || 0} · ${view.phase || ""} · ${hex ? "hexagonal" : "square"} cells (${ruleset})`));
  svg.append(text(4, maxY - minY + 32, "thick black lines: cliffs · dashed: region borders · numbered discs: seats' pieces"));
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
  const width = Math.max(mapW, 420) + seats.length * capW + 20;
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
      map.append(el("circle", { cx: x - 6 + k * 8, cy: y, r: 5, fill: SEAT_COLOURS[seat % 5], stroke: "#000" }));
      map.append(text(x - 6 + k * 8, y + 3.5, seat, { "font-size": 8, fill: "#fff", "text-anchor": "middle" }));
    });
  });
  // capitals: one 9 × 9 grid per seat (blocked plots dark, buildings letters)
  seats.forEach((seat, s) => {
    const ox = Math.max(mapW, 420) + 10 + s * capW, oy = 10;
    svg.append(text(ox, oy + 4, `seat ${s}: ${n("capitals", seat.capital || 0)}`, { "font-weight": "bold", fill: SEAT_COLOURS[s % 5] }));
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
  const display = (view.techDisplay || []).map((c) => n("tech_cards", c)).join(", ");
  svg.append(text(0, ty + 4 * 22 + 16, `tech cards face up: ${display || "—"} · turn ${view.turn || 0} · ${view.decision || ""}`));
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
