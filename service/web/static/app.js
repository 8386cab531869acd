// The Annales web app: lobby, game (board, live, play, replay, log, export), judge, stats.
// Plain ES modules, no build step. Seat tokens live only in the URL fragment (#…&token=),
// which browsers never send to a server, and travel to the API as Authorization headers.
import { call, stream, RpcError } from "./rpc.js";
import { render, el, SEAT_COLOURS, words } from "./boards.js";
import { checkRecord } from "./judge.js";

const $ = (sel, root = document) => root.querySelector(sel);
const main = () => $("#main");
let names = {};
let cleanup = [];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function route() {
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  return { parts: path.split("/").filter(Boolean), params: new URLSearchParams(query) };
}

function showError(error) {
  const box = $("#error");
  box.textContent = error instanceof RpcError ? `${error.code}${error.reason ? ` (${error.reason})` : ""}: ${error.message}` : String(error);
  box.hidden = false;
}

const TYPES = { GAME_TYPE_RISE_AND_FALL: "Rise & Fall", GAME_TYPE_TAPESTRY: "Tapestry", GAME_TYPE_IMPERIUM: "Imperium" };
const STATUSES = { GAME_STATUS_SETUP: "setup", GAME_STATUS_RUNNING: "running", GAME_STATUS_FINISHED: "finished", GAME_STATUS_ABANDONED: "abandoned" };

// Scores of the seats, then of the parties that hold no seat (Tapestry's Automa, …)
function scoresText(g) {
  const parts = [(g.scores || []).join(" / ") || (g.seatNames || []).map(() => "0").join(" / ")];
  for (const p of g.parties || []) parts.push(`${p.name} ${p.score || 0}${p.winner ? " (won)" : ""}`);
  return parts.filter(Boolean).join(" · ");
}

// The rulesets each game offers (CreateGameRequest.ruleset; empty = the newest), newest first,
// from the server's registry (names.json "rulesets"), and the variants of tapestry/2 and later
// (TapestryOptions 1600-1604)
const GAME_NAMES = { GAME_TYPE_RISE_AND_FALL: "riseandfall", GAME_TYPE_TAPESTRY: "tapestry", GAME_TYPE_IMPERIUM: "imperium" };
const rulesetsOf = (gameType) => ((names.rulesets || {})[GAME_NAMES[gameType]] || []);
const TAPESTRY_VARIANTS = [
  ["drawTwoTapestry", "Income turn 1 draws 2 tapestry cards, keep 1"],
  ["drawTwoCivilizations", "Civilizations gained are drawn 2 at a time, keep 1"],
  ["nanotechnologyTwoCards", "Nanotechnology discards 2 tech cards (not 3)"],
];

// ------------------------------------------------------------------------------- lobby
async function lobby(params) {
  const filters = h("form", { class: "filters", id: "filters" },
    h("label", {}, "Game ", h("select", { name: "gameType" }, h("option", { value: "" }, "any"),
      ...Object.entries(TYPES).map(([k, v]) => h("option", { value: k }, v)))),
    h("label", {}, " Status ", h("select", { name: "status" }, h("option", { value: "" }, "any"),
      ...Object.entries(STATUSES).map(([k, v]) => h("option", { value: k }, v)))),
    h("button", { type: "submit" }, "Filter"));
  const table = h("table", { id: "games" });
  const create = createForm();
  main().replaceChildren(h("h1", {}, "Games"), filters, table, create);
  const load = async () => {
    const form = new FormData(filters);
    const request = { pageSize: 100 };
    if (form.get("gameType")) request.gameType = form.get("gameType");
    if (form.get("status")) request.status = form.get("status");
    const answer = await call("GameService", "ListGames", request);
    table.replaceChildren(h("tr", {}, ...["game", "type", "ruleset", "status", "players", "scores", "version", ""].map((t) => h("th", {}, t))));
    for (const g of answer.games || []) {
      table.append(h("tr", { "data-game": g.gameId },
        h("td", {}, h("code", {}, g.gameId.slice(0, 8))), h("td", {}, TYPES[g.gameType] || g.gameType),
        h("td", {}, g.ruleset || ""), h("td", {}, STATUSES[g.status] || g.status || ""),
        h("td", {}, (g.seatNames || []).join(", ")), h("td", { class: "scores" }, scoresText(g)),
        h("td", {}, g.version || "0"), h("td", {}, h("a", { href: `#/game/${g.gameId}` }, "watch"))));
      // ListGames answered from the read models carries no `parties` (GameSummary.parties is
      // filled by GetGame): a solo Tapestry game's row asks GetGame for its Automa's score
      if (!(g.parties || []).length && g.gameType === "GAME_TYPE_TAPESTRY" && (g.seatNames || []).length === 1) {
        call("GameService", "GetGame", { gameId: g.gameId }).then((answer) => {
          const cell = table.querySelector(`tr[data-game="${g.gameId}"] td.scores`);
          if (cell) cell.textContent = scoresText({ ...g, parties: answer.game.parties || [] });
        }).catch(() => {});
      }
    }
  };
  filters.addEventListener("submit", (e) => { e.preventDefault(); load().catch(showError); });
  await load();
}

function createForm() {
  const options = h("div", { id: "options" });
  const type = h("select", { name: "gameType", id: "new-type" }, ...Object.entries(TYPES).map(([k, v]) => h("option", { value: k }, v)));
  const showOptions = () => {
    const t = type.value;
    const ruleset = h("select", { name: "ruleset", id: "new-ruleset" }, h("option", { value: "" }, "newest"),
      ...rulesetsOf(t).map((r) => h("option", { value: r }, r)));
    const perType = t === "GAME_TYPE_RISE_AND_FALL"
      ? [h("label", {}, " Trophies to win ", h("input", { name: "trophies", type: "number", min: 4, placeholder: "default" })),
         h("label", {}, " Scoring (riseandfall/2) ", h("select", { name: "scoring", id: "new-scoring" }, h("option", { value: "" }, "full"), h("option", { value: "RISE_AND_FALL_SCORING_QUICK" }, "quick")))]
      : t === "GAME_TYPE_TAPESTRY"
        ? [h("label", {}, " Civilizations dealt ", h("input", { name: "civilizationsDealt", type: "number", min: 1, placeholder: "default" })),
           h("label", {}, " Automa level (solo: one player) ", h("input", { name: "automaLevel", id: "new-automa-level", type: "number", min: 1, max: 6, placeholder: "2" })),
           h("label", {}, " ", h("input", { name: "shadowEmpire", type: "checkbox", id: "new-shadow-empire" }), " Shadow Empire (2 players)"),
           h("fieldset", { id: "variants" }, h("legend", {}, "Variants (tapestry/2 and later)"),
             ...TAPESTRY_VARIANTS.map(([k, label]) => h("label", {}, h("input", { type: "checkbox", name: k, class: "variant", id: `variant-${k}` }), ` ${label} `)),
             h("label", {}, " Tapestry cards removed ", h("input", { name: "removedTapestryCards", id: "variant-removedTapestryCards", placeholder: "keys or names, comma-separated" })),
             h("label", {}, " Tech cards removed ", h("input", { name: "removedTechCards", id: "variant-removedTechCards", placeholder: "names, comma-separated" })))]
        : [h("label", {}, " Box ", h("input", { name: "box", placeholder: "default" })),
           h("label", {}, " Nations (comma-separated) ", h("input", { name: "nations", placeholder: "dealt" }))];
    options.replaceChildren(h("label", {}, "Ruleset ", ruleset), ...perType);
    const variants = options.querySelector("#variants");
    if (variants) {
      // the variants are options of tapestry/2 and later (a tapestry/1 game refuses them)
      const sync = () => { variants.disabled = ruleset.value === "tapestry/1"; };
      ruleset.addEventListener("change", sync);
      sync();
    }
  };
  type.addEventListener("change", showOptions);
  showOptions();
  const links = h("div", { id: "seat-links" });
  const form = h("form", { id: "create" }, h("h2", {}, "New game"), h("label", {}, "Game ", type),
    h("label", {}, " Players (names, comma-separated) ", h("input", { name: "seats", value: "Ada, Brahe", id: "new-seats" })),
    options, h("button", { type: "submit", id: "create-game" }, "Create"), links);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const gameType = data.get("gameType");
    const opts = {};
    const list = (k) => String(data.get(k) || "").split(",").map((s) => s.trim()).filter(Boolean);
    if (gameType === "GAME_TYPE_RISE_AND_FALL") {
      opts.riseAndFall = data.get("trophies") ? { trophies: Number(data.get("trophies")) } : {};
      if (data.get("scoring")) opts.riseAndFall.scoring = data.get("scoring");
    }
    if (gameType === "GAME_TYPE_TAPESTRY") {
      opts.tapestry = data.get("civilizationsDealt") ? { civilizationsDealt: Number(data.get("civilizationsDealt")) } : {};
      if (data.get("automaLevel")) opts.tapestry.automaLevel = Number(data.get("automaLevel"));
      if (data.get("shadowEmpire")) opts.tapestry.shadowEmpire = true;
      for (const [k] of TAPESTRY_VARIANTS) if (data.get(k)) opts.tapestry[k] = true; // disabled fields are not in the form data
      for (const k of ["removedTapestryCards", "removedTechCards"]) if (list(k).length) opts.tapestry[k] = list(k);
    }
    if (gameType === "GAME_TYPE_IMPERIUM") {
      opts.imperium = {};
      if (data.get("box")) opts.imperium.box = data.get("box");
      if (data.get("nations")) opts.imperium.nations = data.get("nations").split(",").map((s) => s.trim()).filter(Boolean);
    }
    try {
      const seatNames = String(data.get("seats")).split(",").map((s) => s.trim()).filter(Boolean);
      const request = { gameType, options: opts, seatNames };
      if (data.get("ruleset")) request.ruleset = data.get("ruleset");
      const answer = await call("GameService", "CreateGame", request);
      const base = `${location.origin}${location.pathname}`;
      links.replaceChildren(h("p", {}, `Game ${answer.gameId} created. Send each player their link (the token is in the fragment, never sent to a server):`),
        ...(answer.seatTokens || []).map((t) => h("p", {}, `${t.name}: `, h("a", { href: `${base}#/game/${answer.gameId}?token=${encodeURIComponent(t.token)}`, class: "seat-link", "data-seat": t.seat || 0 }, `play as seat ${t.seat || 0}`))),
        h("p", {}, h("a", { href: `#/game/${answer.gameId}` }, "watch as a spectator")));
    } catch (error) { showError(error); }
  });
  return form;
}

// ------------------------------------------------------------------------------- game page
function eventWords(e) {
  const body = e.kernel || e.riseAndFall || e.tapestry || e.imperium || {};
  const detail = words(JSON.stringify(Object.values(body)[0] ?? body));
  const who = (e.seat ?? 0) < 0 ? "system" : `seat ${e.seat || 0}`;
  return `${e.seq}. ${who}: ${e.kind}${e.redacted ? " (hidden)" : ""} ${detail && detail !== "{}" ? detail.slice(0, 90) : ""}`;
}

function actionLabel(action) {
  const body = action.riseAndFall || action.tapestry || action.imperium || action;
  return words(JSON.stringify(body)).replace(/[{}"]/g, "").slice(0, 80) || "(action)";
}

function cellOf(action) {
  const body = action.riseAndFall ? Object.values(action.riseAndFall)[0] : null;
  if (body && typeof body === "object") {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === "cell") return body.cell;
    if (keys.includes("to") && typeof body.to === "number") return body.to;
  }
  return null;
}

async function gamePage(gameId, params) {
  // the seat token is opaque: the seat it plays is read from GetView's answer (seatLabel)
  let token = params.get("token");
  const state = { version: null, head: 0, history: [], following: true, game: null };
  const board = h("div", { id: "board" });
  const info = h("div", { id: "info" });
  const actions = h("div", { id: "actions" });
  const log = h("ul", { id: "log" });
  const slider = h("input", { type: "range", id: "scrubber", min: 1, max: 1, value: 1 });
  const versionLabel = h("span", { id: "version-label" });
  const step = (label, fn) => h("button", { type: "button", onclick: () => fn() }, label);
  const live = h("label", {}, h("input", { type: "checkbox", id: "follow", checked: "" }), " follow live");
  const chart = h("div", { id: "chart" });
  const roundBack = h("button", { type: "button", id: "round-back", onclick: () => byRound(-1).catch(showError) }, "◀ round");
  const roundNext = h("button", { type: "button", id: "round-next", onclick: () => byRound(1).catch(showError) }, "round ▶");
  // whose view is drawn: the seat's (with its token) or the spectator's
  const viewAs = h("select", { id: "view-as" }, h("option", { value: "spectator" }, "spectator"));
  const seatOption = h("option", { value: "seat", selected: "" }, "your seat (your token)");
  if (token) viewAs.append(seatOption);
  viewAs.addEventListener("change", () => draw().catch(showError));
  const viewNote = h("span", { id: "view-note", class: "note" });
  const seatLabel = h("span", { class: "seat", id: "seat-label" }, token ? " — playing (checking the token…)" : " — spectator");
  const liveStatus = h("span", { id: "live-status", class: "note" });
  // a token the server refuses (BAD_TOKEN, WRONG_GAME_TOKEN, …): say so, and go on as a spectator
  const dropToken = (error) => {
    showError(error);
    token = null;
    seatOption.remove();
    seatLabel.textContent = " — spectator (the seat token was refused)";
  };
  state.roundKeys = new Map();
  main().replaceChildren(
    h("h1", {}, `Game ${gameId.slice(0, 8)}`, seatLabel),
    info,
    h("div", { class: "replay" }, step("|◀ first", () => go(1)), step("◀ command", () => byCommand(-1)), step("◀ event", () => go(shown() - 1)),
      slider, step("event ▶", () => go(shown() + 1)), step("command ▶", () => byCommand(1)),
      roundBack, roundNext, step("last ▶|", () => go(state.head)), versionLabel, live, liveStatus,
      h("label", {}, " view as ", viewAs), viewNote),
    h("div", { class: "columns" }, h("div", {}, board,
      h("div", { class: "export" }, h("button", { type: "button", id: "export-svg", onclick: () => exportBoard("svg") }, "Export SVG"),
        h("button", { type: "button", id: "export-png", onclick: () => exportBoard("png") }, "Export PNG")), chart),
      h("div", {}, h("h2", {}, "Actions"), actions, h("h2", {}, "Events"), log)));
  const shown = () => state.version ?? state.head;
  const byCommand = (dir) => {
    const at = shown();
    const current = state.history[at - 1];
    let v = at;
    while (v + dir >= 1 && v + dir <= state.head && state.history[v + dir - 1] && current && state.history[v + dir - 1].commandId === current.commandId) v += dir;
    go(v + dir);
  };
  // "round" steps by the game's own counter in its view (see roundOf): forward to the first
  // version whose counter is higher, back to the first version of the shown round (or of the
  // previous one when already there). The counters never decrease along the log except after
  // an undo, so a binary search over versions (spectator views from GetGame, cached) finds it.
  const roundAt = async (v) => {
    if (!state.roundKeys.has(v)) {
      const answer = await call("GameService", "GetGame", { gameId, version: v });
      state.roundKeys.set(v, roundOf(answer.view || {}));
    }
    return state.roundKeys.get(v);
  };
  const firstAbove = async (lo, hi, key) => { // least v in (lo, hi] with round > key, else hi
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await roundAt(mid)) > key) hi = mid; else lo = mid;
    }
    return hi;
  };
  const byRound = async (dir) => {
    const at = shown();
    if (dir > 0) {
      if (at >= state.head) return;
      go(await firstAbove(at, state.head, await roundAt(at)));
      return;
    }
    if (at <= 1) return;
    const key = await roundAt(at);
    let start = await firstAbove(0, at, key - 1); // first version of the shown round
    if (start >= at) start = await firstAbove(0, at - 1, (await roundAt(at - 1)) - 1);
    go(Math.max(1, start));
  };
  const go = (v) => {
    v = Math.max(1, Math.min(state.head, v));
    state.version = v >= state.head ? null : v;
    $("#follow").checked = state.version === null;
    draw().catch(showError);
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("#follow").addEventListener("change", (e) => { if (e.target.checked) go(state.head); });

  const loadHistory = async () => {
    const events = [];
    let pageToken = "";
    do {
      const page = await call("GameService", "GetHistory", { gameId, pageSize: 1000, pageToken }, token);
      events.push(...(page.events || []));
      pageToken = page.nextPageToken || "";
    } while (pageToken);
    for (const e of events) state.history[Number(e.seq) - 1] = e;
  };
  const drawLog = () => {
    log.replaceChildren(...state.history.filter(Boolean).map((e) => h("li", { "data-seq": e.seq, class: Number(e.seq) === shown() ? "current" : "" },
      h("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(Number(e.seq)); } }, eventWords(e)))));
    const current = log.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  };

  // The open undo request, read from the log: the last UndoRequested not followed by an
  // UndoDeclined or an Undone (UndoApproved keeps it open); null when none is open
  const openUndo = () => {
    for (let i = state.history.length - 1; i >= 0; i--) {
      const e = state.history[i];
      if (!e || !e.kernel) continue;
      if (e.kernel.undoDeclined || e.kernel.undone) return null;
      if (e.kernel.undoRequested) return { by: Number(e.kernel.undoRequested.by || 0), toVersion: Number(e.kernel.undoRequested.toVersion || 0) };
    }
    return null;
  };
  const waitingText = (game) => {
    const request = state.version === null ? openUndo() : null;
    if (request) return `undo request open: seat ${request.by} asks to go back to version ${request.toVersion}; play resumes once every other seat has answered`;
    return `waiting for: ${(game.pending && game.pending.seats || []).join(", ") || "—"} — ${(game.pending && game.pending.prompt) || ""}`;
  };

  // draws run one after another, each from fresh answers, so the last drawn is the newest
  let drawing = Promise.resolve();
  const draw = () => (drawing = drawing.then(drawNow, drawNow));

  async function drawNow() {
    const request = { gameId };
    if (state.version !== null) request.version = state.version;
    const seatView = token && viewAs.value === "seat";
    // after the end any seat's view is public: GetView names the seat, no token needed
    const publicSeat = !token && viewAs.value.startsWith("seat:") ? Number(viewAs.value.slice(5)) : null;
    const seatCall = seatView
      ? call("GameService", "GetView", request, token).catch((error) => {
        if (error instanceof RpcError && ["unauthenticated", "permission_denied"].includes(error.code)) {
          dropToken(error);
          return null;
        }
        throw error;
      })
      : publicSeat !== null ? call("GameService", "GetView", { ...request, seat: publicSeat }) : null;
    const [summary, viewAnswer] = await Promise.all([call("GameService", "GetGame", request), seatCall]);
    if (seatView && viewAnswer) {
      const seat = Number(viewAnswer.seat || 0);
      seatLabel.textContent = ` — playing as seat ${seat}`;
      seatOption.textContent = `seat ${seat} (your token)`;
    }
    const game = summary.game;
    state.game = game;
    state.head = Number(game.headVersion || game.version);
    const view = viewAnswer ? viewAnswer.view : summary.view;
    state.viewer = viewAnswer ? Number(viewAnswer.seat || 0) : null; // null: the spectator's view
    slider.max = state.head;
    slider.value = shown();
    versionLabel.textContent = ` version ${shown()} of ${state.head}`;
    info.replaceChildren(h("p", {}, `${TYPES[game.gameType] || game.gameType} · ${game.ruleset} · ${STATUSES[game.status] || ""} · players: `,
      ...(game.seatNames || []).map((n, i) => h("span", { class: "player", style: `color:${SEAT_COLOURS[i % 5]}` }, `${i}:${n} (${(game.scores || [])[i] || 0})  `)),
      ...(game.parties || []).map((p) => h("span", { class: "party" }, `${p.name} (${p.score || 0})${p.winner ? " won" : ""}  `)),
      h("br"), waitingText(game)));
    let targets = new Map();
    if (token && state.version === null && game.status !== "GAME_STATUS_FINISHED") targets = await drawActions();
    else actions.replaceChildren(h("p", {}, state.version !== null ? "Replaying: go to the last version to play." : token ? "The game is over." : "Spectating (open a seat link to play)."));
    board.replaceChildren(render(game, view, names, targets));
    const unit = roundUnit(game);
    roundBack.textContent = `◀ ${unit}`;
    roundNext.textContent = `${unit} ▶`;
    roundBack.title = roundNext.title = `${unit}: ${roundMeaning(game)} (the view's own counter)`;
    if (game.status === "GAME_STATUS_FINISHED" && !token && !state.seatViewProbed) await probeSeatViews();
    drawLog();
    if (state.drawn === undefined) performance.mark("board-drawn"); // first meaningful paint
    state.drawn = state.head;
  }

  // After the end every seat's view is public (GetViewRequest.seat, no token): offer them.
  async function probeSeatViews() {
    state.seatViewProbed = true;
    const seats = (state.game && state.game.seatNames) || [];
    seats.forEach((name, i) => viewAs.append(h("option", { value: `seat:${i}` }, `seat ${i} (${name})`)));
    viewNote.textContent = " the game is over: every seat's view is public";
  }

  async function drawActions() {
    const legal = await call("GameService", "ListLegalActions", { gameId }, token);
    const targets = new Map();
    const submit = async (action) => {
      try {
        await call("GameService", "SubmitAction", { gameId, action, expectedVersion: legal.version }, token);
        await refresh();
      } catch (error) {
        showError(error);
        await resync().catch(() => {}); // the game may have moved on: read it again
      }
    };
    const list = (legal.actions || []).map((a, i) => {
      const cell = cellOf(a);
      const label = actionLabel(a);
      if (cell !== null && !targets.has(cell)) targets.set(cell, { label, run: () => submit(a) });
      return h("li", {}, h("button", { type: "button", class: "action", "data-index": i, onclick: () => submit(a) }, label));
    });
    const undo = [];
    if (legal.canUndo) undo.push(h("button", { type: "button", id: "undo", onclick: async () => {
      try { await call("GameService", "Undo", { gameId, expectedVersion: legal.version }, token); await refresh(); } catch (e) { showError(e); } } }, "Undo my last command"));
    if ((legal.undoVersions || []).length) undo.push(h("button", { type: "button", id: "request-undo", onclick: async () => {
      try { await call("GameService", "RequestUndo", { gameId, toVersion: legal.undoVersions[legal.undoVersions.length - 1] }, token); await refresh(); } catch (e) { showError(e); } } }, `Ask to go back to version ${legal.undoVersions[legal.undoVersions.length - 1]}`));
    const request = openUndo();
    if (request && request.by === state.viewer) undo.push(h("button", { type: "button", id: "withdraw-undo", onclick: async () => {
      try { await call("GameService", "RespondUndo", { gameId, approve: false }, token); await refresh(); } catch (e) { showError(e); } } }, "Withdraw my undo request"));
    if (legal.undoAnswerExpected) for (const approve of [true, false]) undo.push(h("button", { type: "button", class: "respond-undo", onclick: async () => {
      try { await call("GameService", "RespondUndo", { gameId, approve }, token); await refresh(); } catch (e) { showError(e); } } }, approve ? "Approve undo" : "Decline undo"));
    const idle = request ? (request.by === state.viewer ? "Waiting for the other seats to answer your undo request." : "An undo request is open.") : "Not your turn.";
    actions.replaceChildren(h("p", {}, (legal.actions || []).length ? `${legal.actions.length} legal actions${targets.size ? " (yellow cells on the board are clickable)" : ""}:` : idle),
      h("ul", { class: "actions" }, ...list), ...undo);
    return targets;
  }

  // after a refused command: the log and the board read again from the server
  async function resync() {
    await loadHistory();
    await draw();
  }

  async function refresh() {
    // the new events arrive through WatchGame; only the board and actions are redrawn here
    await draw();
    drawChart().catch(() => {});
  }

  async function drawChart() {
    const timeline = await call("ReadModelService", "GetScoreTimeline", { gameId, pageSize: 1000 });
    chart.replaceChildren(lineChart(timeline.points || [], timeline.seatNames || []));
  }

  function exportBoard(kind) {
    const svg = board.querySelector("svg");
    if (!svg) return;
    const source = new XMLSerializer().serializeToString(svg);
    const blob = new Blob([source], { type: "image/svg+xml" });
    const name = `${gameId}-v${shown()}`;
    const download = (href, file) => { const a = h("a", { href, download: file }); document.body.append(a); a.click(); a.remove(); };
    if (kind === "svg") { download(URL.createObjectURL(blob), `${name}.svg`); return; }
    const img = new Image();
    img.onload = () => {
      const canvas = h("canvas", { width: img.width, height: img.height });
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, img.width, img.height); ctx.drawImage(img, 0, 0);
      download(canvas.toDataURL("image/png"), `${name}.png`);
    };
    img.src = URL.createObjectURL(blob);
  }

  // first paint: the board before the (possibly long) event log, which follows (and may show
  // an open undo request: drawn again then)
  try {
    await draw();
  } catch (error) {
    if (error instanceof RpcError && error.code === "not_found") {
      main().replaceChildren(h("h1", {}, "No such game"), h("p", {}, "This server has no game ", h("code", {}, gameId), ". ",
        h("a", { href: "#/" }, "Back to the games")));
    }
    throw error;
  }
  const firstHead = state.head;
  loadHistory().then(() => draw()).catch(showError);
  drawChart().catch(() => {});
  // live: WatchGame from the last version known; when the stream ends or fails (the server
  // restarted, the network dropped) the page says so and follows again after a pause that
  // doubles at each failure (2 s to 30 s), reading the game again only if it moved meanwhile
  let closed = false;
  let watcher = null;
  let pause = 2000;
  const catchUp = async () => {
    const answer = await call("GameService", "GetGame", { gameId });
    if (Number(answer.game.headVersion || answer.game.version) !== state.head) await resync();
  };
  const follow = () => {
    liveStatus.textContent = " · live";
    watcher = stream("GameService", "WatchGame", { gameId, afterVersion: state.head }, token, async (message) => {
      pause = 2000;
      for (const e of message.events || []) state.history[Number(e.seq) - 1] = e;
      state.head = Number(message.version);
      if (state.version === null) await draw().catch(showError);
      else { slider.max = state.head; versionLabel.textContent = ` version ${shown()} of ${state.head}`; drawLog(); }
    });
    watcher.done.then(() => null, (e) => e).then((error) => {
      if (closed || (error && error.name === "AbortError")) return;
      if (state.game && state.game.status === "GAME_STATUS_FINISHED" && !error) { liveStatus.textContent = " · the game is over"; return; }
      liveStatus.textContent = ` · live updates stopped${error ? ` (${error.message})` : ""}: reconnecting…`;
      const wait = pause;
      pause = Math.min(pause * 2, 30000);
      setTimeout(() => { if (!closed) catchUp().then(follow, follow); }, wait);
    });
  };
  state.head = firstHead;
  follow();
  cleanup.push(() => { closed = true; if (watcher) watcher.controller.abort(); });
  window.__annales = { state, ready: true };
}

// The game's own turn counter in its view, stepped by "round": Rise & Fall's `round` (a
// round: every seat's sealed card choice, then the turns in order), Imperium's `round` (every
// seat's turn once, from the first player), Tapestry's `turn` (a turn of one seat: Tapestry has
// no common rounds, each seat advancing through its own eras).
export function roundOf(view) {
  if (view.riseAndFall) return Number(view.riseAndFall.round || 0);
  if (view.imperium) return Number(view.imperium.round || 0);
  if (view.tapestry) return Number(view.tapestry.turn || 0);
  return 0;
}
const roundUnit = (game) => (game.gameType === "GAME_TYPE_TAPESTRY" ? "turn" : "round");
const roundMeaning = (game) => ({
  GAME_TYPE_RISE_AND_FALL: "the view's round number (all seats choose their cards, then each plays its turn)",
  GAME_TYPE_IMPERIUM: "the view's round number (each seat plays one turn, from the first player)",
  GAME_TYPE_TAPESTRY: "the view's turn counter (one seat's turn)",
}[game.gameType] || "round");

// ------------------------------------------------------------------------------- charts
function lineChart(points, seatNames) {
  const width = 420, height = 160;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height + 20}`, width, height: height + 20, class: "chart" });
  if (!points.length) { svg.append(el("text", { x: 4, y: 20 }, "no score timeline yet")); return svg; }
  const maxV = Math.max(...points.map((p) => Number(p.version))), maxS = Math.max(1, ...points.flatMap((p) => p.scores || []));
  const seats = Math.max(...points.map((p) => (p.scores || []).length));
  for (let s = 0; s < seats; s++) {
    const d = points.map((p, i) => `${i ? "L" : "M"}${(Number(p.version) / maxV) * (width - 10) + 5},${height - ((p.scores || [])[s] || 0) / maxS * (height - 10)}`).join(" ");
    svg.append(el("path", { d, fill: "none", stroke: SEAT_COLOURS[s % 5], "stroke-width": 2, "stroke-dasharray": s % 2 ? "5 3" : "" }));
    svg.append(el("text", { x: 5 + s * 100, y: height + 16, fill: SEAT_COLOURS[s % 5], "font-size": 11 }, `${seatNames[s] || `seat ${s}`}`));
  }
  return svg;
}

function barChart(rows, label, value) {
  const width = 520, bar = 18;
  const svg = el("svg", { viewBox: `0 0 ${width} ${rows.length * (bar + 4) + 10}`, width, height: rows.length * (bar + 4) + 10, class: "chart" });
  const max = Math.max(1e-9, ...rows.map(value));
  rows.forEach((r, i) => {
    svg.append(el("rect", { x: 180, y: i * (bar + 4), width: (value(r) / max) * (width - 240), height: bar, fill: SEAT_COLOURS[i % 5] }));
    svg.append(el("text", { x: 0, y: i * (bar + 4) + 13, "font-size": 11 }, label(r).slice(0, 30)));
    svg.append(el("text", { x: 184 + (value(r) / max) * (width - 240), y: i * (bar + 4) + 13, "font-size": 11 }, value(r).toFixed(2)));
  });
  return svg;
}

// A balance row's label: its key, its player count when the row is for one count (0: every
// count summed), and its wins over its games (BalanceStat)
const balanceLabel = (s) => `${s.balanceKey}${s.playerCount ? ` · ${s.playerCount} players` : ""} (${s.wins || 0}/${s.games || 0})`;

// The read models are per game type (GetLeaderboard and GetBalanceStats require one).
const STATS_GAMES = [["GAME_TYPE_RISE_AND_FALL", "Rise & Fall"], ["GAME_TYPE_TAPESTRY", "Tapestry"], ["GAME_TYPE_IMPERIUM", "Imperium"]];

async function stats(params) {
  const gameType = STATS_GAMES.some(([type]) => type === params.get("game")) ? params.get("game") : STATS_GAMES[0][0];
  const tabs = h("p", { id: "stats-games" }, ...STATS_GAMES.map(([type, label]) =>
    type === gameType ? h("strong", {}, `${label} `) : h("a", { href: `#/stats?game=${type}` }, `${label} `)));
  main().replaceChildren(h("h1", {}, "Read models"), tabs, h("p", {}, "Loading…"));
  const parts = [h("h1", {}, "Read models"), tabs];
  const behind = [];
  try {
    const board = await call("ReadModelService", "GetLeaderboard", { gameType, pageSize: 20 });
    if (board.behind) behind.push("leaderboard");
    const entries = board.entries || [];
    parts.push(h("h2", {}, "Leaderboard (win rate)"), entries.length ? barChart(entries, (e) => `${e.player} (${e.games || 0} games)`, (e) => Number(e.winRate || 0)) : h("p", { class: "empty" }, "No finished game yet."));
  } catch (error) { parts.push(h("p", { class: "stats-error" }, `Leaderboard: ${error.message}`)); }
  try {
    const balance = await call("ReadModelService", "GetBalanceStats", { gameType, pageSize: 50 });
    if (balance.behind) behind.push("balance");
    const rows = balance.stats || [];
    parts.push(h("h2", {}, "Balance (win rate by key)"), rows.length ? barChart(rows, balanceLabel, (s) => Number(s.winRate || 0)) : h("p", { class: "empty" }, "No finished game yet."));
  } catch (error) { parts.push(h("p", { class: "stats-error" }, `Balance: ${error.message}`)); }
  if (behind.length) parts.push(h("p", { class: "behind" }, "The read models are still catching up with the latest games: reload in a moment."));
  main().replaceChildren(...parts);
}

// ------------------------------------------------------------------------------- judge
function judge() {
  const input = h("input", { type: "file", id: "record-file", accept: ".jsonl,.json,.txt" });
  const verdict = h("div", { id: "verdict" });
  main().replaceChildren(h("h1", {}, "Judge a game record"),
    h("p", {}, "Load an exported record (annales export, format annales.game/2 or /1). It is checked here in your browser (canonical lines, the hash chain with every envelope recomputed with SHA-256, key digests, seed commitment), then re-executed by this server's VerifyRecord."),
    input, verdict);
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    const raw = await file.text();
    verdict.replaceChildren(h("p", {}, "Checking…"));
    const local = await checkRecord(raw);
    let remote;
    try {
      const bytes = new TextEncoder().encode(raw);
      let binary = "";
      for (const b of bytes) binary += String.fromCharCode(b);
      remote = await call("GameService", "VerifyRecord", { record: btoa(binary) });
    } catch (error) { remote = { ok: false, message: `VerifyRecord failed: ${error.message}` }; }
    const ok = local.ok && remote.ok;
    const rows = [h("h2", { class: ok ? "ok" : "bad", id: "verdict-title" }, ok ? "VERIFIED: the record is intact" : "REJECTED: the record was altered or is invalid")];
    rows.push(h("h3", {}, "In the browser"), h("ul", {}, ...local.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" }, `${c.ok ? "✔" : "✘"} ${c.text}`))));
    if (local.firstBad) {
      const b = local.firstBad;
      rows.push(h("table", { class: "divergence" }, h("tr", {}, h("th", {}, "first problem"), h("td", {}, `line ${b.line}${b.seq ? `, event ${b.seq}` : ""}: ${b.why}`)),
        h("tr", {}, h("th", {}, "field"), h("td", { class: "bad" }, b.field)),
        h("tr", {}, h("th", {}, "expected"), h("td", {}, h("code", {}, String(b.expected)))),
        h("tr", {}, h("th", {}, "found"), h("td", { class: "bad" }, h("code", {}, String(b.found))))));
    }
    rows.push(h("h3", {}, "On the server (VerifyRecord, re-execution)"), h("p", { class: remote.ok ? "ok" : "bad", id: "remote-verdict" }, `${remote.ok ? "✔" : "✘"} ${remote.message || ""}${remote.reexecuted ? " (re-executed)" : ""}`));
    if (remote.divergenceSeq) {
      rows.push(h("table", { class: "divergence" }, h("tr", {}, h("th", {}, "event"), h("td", {}, remote.divergenceSeq)),
        h("tr", {}, h("th", {}, "expected"), h("td", {}, h("code", {}, remote.expected || ""))),
        h("tr", {}, h("th", {}, "found"), h("td", { class: "bad" }, h("code", {}, remote.found || "")))));
    }
    const seq = Number(remote.divergenceSeq || (local.firstBad && local.firstBad.seq) || 0);
    verdict.replaceChildren(...rows);
    if (seq && local.header && local.header.game_id) {
      // the board before and after the first divergence, where this server holds the game
      const gameId = local.header.game_id;
      try {
        const boards = [];
        for (const [label, version] of [["before", Math.max(1, seq - 1)], ["after", seq]]) {
          const answer = await call("GameService", "GetGame", { gameId, version });
          boards.push(h("div", { id: label }, h("h4", {}, `${label}: version ${version} (spectator view, as this server holds it)`), render(answer.game, answer.view, names, new Map())));
        }
        verdict.append(h("h3", {}, "The board around the divergence"), h("div", { class: "columns" }, ...boards),
          h("p", {}, h("a", { href: `#/game/${gameId}` }, "open the game's replay")));
      } catch (error) {
        verdict.append(h("p", {}, `The game is not on this server (${error.message}): no board to show.`));
      }
    }
  });
}

// ------------------------------------------------------------------------------- router
async function show() {
  for (const f of cleanup) f();
  cleanup = [];
  $("#error").hidden = true;
  const { parts, params } = route();
  try {
    if (parts[0] === "game" && parts[1]) await gamePage(parts[1], params);
    else if (parts[0] === "judge") judge();
    else if (parts[0] === "stats") await stats(params);
    else await lobby(params);
  } catch (error) { showError(error); }
}

window.addEventListener("hashchange", show);
fetch("/names.json").then((r) => r.json()).then((n) => { names = n; }).catch(() => {}).finally(show);
