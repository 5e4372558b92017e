// @ts-check
// The board as an SVG picture, built from the engine's own board data
// (`boardJson()`: territories with their sectors and kinds) and one viewer's
// view (`viewJson()`): so it shows exactly what that viewer may see, never
// more. No artistic fidelity: the 18 sectors are wedges around the Polar
// Sink, and each territory is a band of rings across the sectors it spans.
// The bands are laid out here from the data (strongholds first, then the
// widest territories, each in the innermost rings free in all its sectors),
// so no two territories sharing a sector overlap.

const SVG = "http://www.w3.org/2000/svg";
const CX = 430;
const CY = 430;
const POLAR = 62;
const OUTER = 410;
const RINGS = 8;
const RING = (OUTER - POLAR) / RINGS;

/** Faction colours (display only). */
export const COLOURS = {
  atreides: "#2f7d32",
  harkonnen: "#222222",
  emperor: "#b71c1c",
  fremen: "#c77c02",
  guild: "#e65100",
  beneGesserit: "#5e35b1",
  ixians: "#546e7a",
  tleilaxu: "#827717",
  choam: "#ad1457",
  richese: "#00838f",
  ecaz: "#6d4c41",
  moritani: "#1565c0",
};

const FILL = { stronghold: "#f6e7b0", polar: "#e8eef4", sand: "#f3e2c4", rock: "#d2b48c" };

/**
 * @typedef {{ territory: string, name: string, kind: string, sectors: number[], stormProof: string, neighbours: string[] }} Territory
 * @typedef {{ territories: Territory[], factions: { id: string, name: string, elite: string | null }[], leaders: { id: string, name: string }[], phases: { id: string, name: string }[] }} Board
 * @typedef {{ inner: number, outer: number }} Band
 */

/**
 * The ring band of every ring territory (not the Polar Sink or the HMS).
 * @param {Board} board
 * @returns {Map<string, Band>}
 */
export function layout(board) {
  /** @type {Map<number, boolean[]>} */
  const used = new Map();
  for (let s = 1; s <= 18; s++) used.set(s, Array(RINGS).fill(false));
  const ring = board.territories.filter((t) => !t.sectors.includes(0));
  const order = [...ring].sort(
    (a, b) =>
      Number(b.kind === "stronghold") - Number(a.kind === "stronghold") ||
      b.sectors.length - a.sectors.length ||
      a.territory.localeCompare(b.territory),
  );
  /** @param {Territory} t @param {number} r */
  const free = (t, r) => r >= 0 && r < RINGS && t.sectors.every((s) => !used.get(s)?.[r]);
  /** @param {Territory} t @param {number} r */
  const take = (t, r) => t.sectors.forEach((s) => ((used.get(s) ?? [])[r] = true));
  /** @type {Map<string, Band>} */
  const bands = new Map();
  for (const t of order) {
    // Strongholds go to the middle rings, where their wedges are wide enough to read.
    const first = t.kind === "stronghold" ? 3 : 0;
    const rings = [...Array(RINGS).keys()];
    const r = [...rings.slice(first), ...rings.slice(0, first).reverse()].find((k) => free(t, k));
    if (r === undefined) throw new Error(`no room for ${t.territory}`);
    take(t, r);
    bands.set(t.territory, { inner: r, outer: r + 1 });
  }
  // Share the empty rings out: one ring at a time to every territory in turn,
  // outwards then inwards, while the ring is free in all its sectors.
  for (let grown = true; grown; ) {
    grown = false;
    for (const t of order) {
      const band = bands.get(t.territory);
      if (!band) continue;
      if (free(t, band.outer)) {
        take(t, band.outer++);
        grown = true;
      } else if (free(t, band.inner - 1)) {
        take(t, --band.inner);
        grown = true;
      }
    }
  }
  return bands;
}

/** Screen angle (radians) of the start of sector `s`: sectors run counter-clockwise from the bottom. */
function angle(s) {
  return ((90 - (s - 1) * 20) * Math.PI) / 180;
}

/** A point at radius `r`, angle `a`. */
function at(r, a) {
  return [CX + r * Math.cos(a), CY + r * Math.sin(a)];
}

/** The wedge of sector `s` between radii r0 and r1. */
function wedge(s, r0, r1) {
  const a0 = angle(s);
  const a1 = angle(s + 1);
  const [x0, y0] = at(r0, a0);
  const [x1, y1] = at(r1, a0);
  const [x2, y2] = at(r1, a1);
  const [x3, y3] = at(r0, a1);
  return `M${x0.toFixed(1)},${y0.toFixed(1)} L${x1.toFixed(1)},${y1.toFixed(1)} A${r1},${r1} 0 0 0 ${x2.toFixed(1)},${y2.toFixed(1)} L${x3.toFixed(1)},${y3.toFixed(1)} A${r0},${r0} 0 0 1 ${x0.toFixed(1)},${y0.toFixed(1)}Z`;
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The radius of a band's ring edge. */
const radius = (/** @type {number} */ ring) => POLAR + ring * RING;

/**
 * Where things in (territory, sector) are drawn: the middle of its cell.
 * @param {Map<string, Band>} bands
 * @param {string} territory
 * @param {number} sector
 * @param {{ x: number, y: number }} hms
 */
function cellCentre(bands, territory, sector, hms) {
  if (territory === "polar_sink") return [CX, CY];
  if (territory === "hidden_mobile_stronghold") return [hms.x, hms.y];
  const band = bands.get(territory);
  if (!band) return [CX, CY];
  const mid = (angle(sector) + angle(sector + 1)) / 2;
  return at((radius(band.inner) + radius(band.outer)) / 2, mid);
}

/**
 * Short label of a territory for its cell.
 * @param {string} name
 */
function short(name) {
  return name.replace(" (Ridge)", "").replace("Hidden Mobile Stronghold", "HMS");
}

/**
 * The full picture for one viewer.
 * @param {Board} board
 * @param {any} view  the viewer's view (schemas/view.json)
 * @param {Map<string, Band>} bands
 * @returns {SVGSVGElement}
 */
export function draw(board, view, bands) {
  const svg = /** @type {SVGSVGElement} */ (
    el("svg", { viewBox: "0 0 1300 860", width: 1300, height: 860, role: "img", "aria-label": "The board" })
  );
  const names = new Map(board.territories.map((t) => [t.territory, t]));
  const factionName = new Map(board.factions.map((f) => [f.id, f.name]));
  const hms = { x: 850, y: 70 };
  svg.append(el("rect", { x: 0, y: 0, width: 1300, height: 860, fill: "#fbf8f1" }));

  // Territories: each sector cell, then the name in the middle sector.
  const cells = el("g", { id: "territories" });
  for (const t of board.territories) {
    const band = bands.get(t.territory);
    if (!band) continue;
    const wall = t.territory === "shield_wall";
    const fallen = wall && !view.shieldWallStanding;
    const g = el("g", { "data-territory": t.territory, class: `territory ${t.kind}` });
    g.append(el("title", {}, `${t.name} — ${t.kind}, sectors ${t.sectors.join(", ")}`));
    for (const s of t.sectors) {
      g.append(
        el("path", {
          d: wedge(s, radius(band.inner), radius(band.outer)),
          fill: fallen ? "#fbf8f1" : (FILL[t.kind] ?? "#eee"),
          stroke: t.kind === "stronghold" ? "#7a5a00" : "#9c8a6c",
          "stroke-width": t.kind === "stronghold" ? 2 : 0.8,
          "stroke-dasharray": fallen ? "5 3" : "none",
          "data-sector": s,
        }),
      );
    }
    const mid = t.sectors[Math.floor(t.sectors.length / 2)] ?? 1;
    const [x, y] = at((radius(band.inner) + radius(band.outer)) / 2, angle(mid) + (angle(mid + 1) - angle(mid)) * 0.5);
    const label = wall ? `Shield Wall (${view.shieldWallStanding ? "standing" : "fallen"})` : short(t.name);
    g.append(
      el(
        "text",
        {
          x: x.toFixed(1),
          y: (y - 9).toFixed(1),
          "text-anchor": "middle",
          "font-size": t.kind === "stronghold" ? 10 : 7.5,
          "font-weight": t.kind === "stronghold" ? "bold" : "normal",
          fill: "#3b2f1e",
          class: wall ? "shield-wall-label" : "territory-label",
        },
        label,
      ),
    );
    cells.append(g);
  }
  svg.append(cells);

  // Polar Sink, sector numbers, the storm.
  svg.append(
    el("circle", { cx: CX, cy: CY, r: POLAR, fill: FILL.polar, stroke: "#9c8a6c", "data-territory": "polar_sink" }),
    el("text", { x: CX, y: CY - 30, "text-anchor": "middle", "font-size": 10 }, names.get("polar_sink")?.name ?? ""),
  );
  for (let s = 1; s <= 18; s++) {
    const [x, y] = at(OUTER + 12, (angle(s) + angle(s + 1)) / 2);
    svg.append(el("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle", "font-size": 11, fill: "#666" }, String(s)));
  }
  if (view.storm >= 1) {
    svg.append(
      el("path", {
        d: wedge(view.storm, POLAR, OUTER + 22),
        fill: "rgba(200,40,20,0.22)",
        stroke: "#c62828",
        "stroke-width": 2,
        id: "storm",
        "data-sector": view.storm,
      }),
    );
    const [x, y] = at(OUTER + 30, (angle(view.storm) + angle(view.storm + 1)) / 2);
    svg.append(el("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle", "font-size": 11, fill: "#c62828", "font-weight": "bold" }, "storm"));
  }

  // The Hidden Mobile Stronghold and where it points.
  if (view.hms) {
    const [px, py] = cellCentre(bands, view.hms.territory, view.hms.sector, hms);
    svg.append(
      el("line", { x1: hms.x, y1: hms.y, x2: px.toFixed(1), y2: py.toFixed(1), stroke: "#7a5a00", "stroke-width": 2, "stroke-dasharray": "6 3", id: "hms-pointer" }),
      el("rect", { x: hms.x - 60, y: hms.y - 28, width: 120, height: 56, rx: 8, fill: FILL.stronghold, stroke: "#7a5a00", "stroke-width": 2, "data-territory": "hidden_mobile_stronghold" }),
      el("text", { x: hms.x, y: hms.y - 12, "text-anchor": "middle", "font-size": 10, "font-weight": "bold" }, "Hidden Mobile Stronghold"),
      el("text", { x: hms.x, y: hms.y + 22, "text-anchor": "middle", "font-size": 8 }, `→ ${names.get(view.hms.territory)?.name ?? view.hms.territory} (sector ${view.hms.sector})`),
    );
  }

  // Placed Ambassadors, face up.
  const tokens = el("g", { id: "ambassadors" });
  for (const t of view.ambassadors.tokens) {
    if (t.zone.kind !== "placed") continue;
    const sector = names.get(t.zone.territory)?.sectors[0] ?? 0;
    const [x, y] = cellCentre(bands, t.zone.territory, sector, hms);
    const g = el("g", { class: "ambassador", "data-ambassador": t.token, "data-territory": t.zone.territory });
    g.append(
      el("title", {}, `${factionName.get(t.token)} Ambassador in ${names.get(t.zone.territory)?.name}`),
      el("polygon", { points: hexagon(x, y + 2, 11), fill: "#fff", stroke: COLOURS[t.token] ?? "#333", "stroke-width": 3 }),
      el("text", { x: x.toFixed(1), y: (y + 6).toFixed(1), "text-anchor": "middle", "font-size": 9, "font-weight": "bold", fill: COLOURS[t.token] ?? "#333" }, (factionName.get(t.token) ?? "?").slice(0, 3)),
    );
    tokens.append(g);
  }

  // Forces: one badge per faction and sector.
  const forces = el("g", { id: "forces" });
  /** @type {Map<string, number>} */
  const crowd = new Map();
  for (const f of view.factions) {
    for (const s of f.board) {
      const key = `${s.territory}/${s.sector}`;
      const n = crowd.get(key) ?? 0;
      crowd.set(key, n + 1);
      const [x0, y0] = cellCentre(bands, s.territory, s.sector, hms);
      const x = x0 - 14 + (n % 3) * 14;
      const y = y0 + 14 + Math.floor(n / 3) * 13;
      const parts = [];
      if (s.normal) parts.push(String(s.normal));
      if (s.elite) parts.push(`${s.elite}★`);
      if (s.advisors) parts.push(`${s.advisors}a`);
      const g = el("g", {
        class: "forces",
        "data-faction": f.faction,
        "data-territory": s.territory,
        "data-sector": s.sector,
        "data-normal": s.normal ?? 0,
        "data-elite": s.elite ?? 0,
        "data-advisors": s.advisors ?? 0,
      });
      g.append(
        el("title", {}, `${factionName.get(f.faction)}: ${s.normal ?? 0} forces, ${s.elite ?? 0} elite, ${s.advisors ?? 0} advisors in ${names.get(s.territory)?.name} (sector ${s.sector})`),
        el("rect", { x: x - 7, y: y - 6, width: 14, height: 12, rx: 3, fill: COLOURS[f.faction] ?? "#333", stroke: s.advisors ? "#fff" : "none" }),
        el("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 7, fill: "#fff" }, parts.join("+")),
      );
      forces.append(g);
    }
  }
  svg.append(tokens, forces);
  svg.append(panel(board, view, factionName));
  return svg;
}

/** @param {number} x @param {number} y @param {number} r */
function hexagon(x, y, r) {
  return [...Array(6).keys()]
    .map((k) => {
      const a = (Math.PI / 3) * k + Math.PI / 6;
      return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
    })
    .join(" ");
}

/**
 * Duke Vidal's custody in words.
 * @param {any} duke
 * @param {Map<string, string>} factionName
 */
export function dukeText(duke, factionName) {
  switch (duke.kind) {
    case "controlled":
      return `with ${factionName.get(duke.by)} (${duke.source})`;
    case "captured":
      return `captured by ${factionName.get(duke.by)}`;
    case "ghola":
      return `a ghola of ${factionName.get(duke.by)}`;
    case "tanks":
      return "in the Tanks";
    default:
      return "set aside";
  }
}

/**
 * The right-hand panel: turn, Duke, and each faction as this viewer sees it.
 * @param {Board} board
 * @param {any} view
 * @param {Map<string, string>} factionName
 */
function panel(board, view, factionName) {
  const g = el("g", { id: "panel" });
  const x = 880;
  let y = 150;
  const line = (/** @type {string} */ text, /** @type {Record<string, string|number>} */ attrs = {}) => {
    g.append(el("text", { x, y, "font-size": 12, ...attrs }, text));
    y += 16;
  };
  const phase = board.phases.find((p) => p.id === view.phase)?.name ?? view.phase;
  line(`Turn ${view.turn}, ${phase} — storm in sector ${view.storm}`, { "font-weight": "bold" });
  line(`Seen as: ${view.viewer === "host" || view.viewer === "spectator" ? view.viewer : factionName.get(view.viewer)}`);
  line(`Duke Vidal: ${dukeText(view.duke, factionName)}`, { id: "duke" });
  const a = view.ambassadors;
  const cohort = a.cohort ? a.cohort.map((/** @type {string} */ t) => factionName.get(t)).join(", ") : "hidden";
  line(`Ambassadors: ${a.supplyCount} in supply, ${a.poolCount} in the pool; cohort: ${cohort}`, { "font-size": 10, id: "cohort" });
  y += 6;
  const catalog = view.treachery.catalog;
  for (const f of view.factions) {
    const hand = f.hand
      ? f.hand.map((/** @type {number} */ c) => `${catalog[c] ?? "?"} (${c})`).join(", ") || "no cards"
      : `${f.handCount} card${f.handCount === 1 ? "" : "s"} (hidden)`;
    const fg = el("g", { class: "faction", "data-faction": f.faction });
    fg.append(el("rect", { x: x - 4, y: y - 12, width: 400, height: 50, fill: "none", stroke: COLOURS[f.faction] ?? "#333", rx: 4 }));
    fg.append(el("text", { x, y, "font-size": 12, "font-weight": "bold", fill: COLOURS[f.faction] ?? "#333" }, `${factionName.get(f.faction)}${f.ally ? ` (ally: ${factionName.get(f.ally)})` : ""}`));
    fg.append(el("text", { x, y: y + 14, "font-size": 10, class: "spice" }, `spice: ${f.spice ?? "?"} · reserves ${f.reserves.normal}+${f.reserves.elite}★ · tanks ${f.tanks.normal}+${f.tanks.elite}★`));
    fg.append(el("text", { x, y: y + 28, "font-size": 10, class: "hand" }, `hand: ${hand}`));
    g.append(fg);
    y += 56;
  }
  return g;
}
