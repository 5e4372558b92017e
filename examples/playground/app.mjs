// @ts-check
// The playground (D-140–D-142): the engine's browser build, a board picture per
// viewer, the open decision's legal options as controls, host reports as
// forms, the story narrated for the chosen viewer, history to step through,
// and the export of what was played as a scenario `ecaz replay` accepts.
// Everything runs in the page: there is no server logic.

import { engine } from "./engine.mjs";
import { draw, layout } from "./board.mjs";
import { actionForm, h } from "./forms.mjs";

/**
 * @typedef {{ command: any | null, note?: string, state: string, events: any[], error?: string }} Entry
 * @typedef {{ name: string, description: string, setup: any | null }} Origin
 */

const board = JSON.parse(engine.boardJson());
const bands = layout(board);
const schema = await (await fetch("./command.schema.json")).json();
/** Every action variant of the schema (each a named definition, or inline). */
const actionVariants = schema.$defs.Action.oneOf.map((/** @type {any} */ v) =>
  v.$ref ? schema.$defs[v.$ref.replace("#/$defs/", "")] : v,
);
/** Printed names of ids, for the form selects. */
const names = new Map([
  ...board.territories.map((/** @type {any} */ t) => [t.territory, t.name]),
  ...board.factions.map((/** @type {any} */ f) => [f.id, f.name]),
  ...board.leaders.map((/** @type {any} */ l) => [l.id, l.name]),
  ...board.phases.map((/** @type {any} */ p) => [p.id, p.name]),
]);
const factionName = (/** @type {string} */ id) => names.get(id) ?? id;

/** @type {Entry[]} */
let history = [];
let cursor = 0;
/** @type {Origin} */
let origin = { name: "", description: "", setup: null };
let viewer = "host";

/** @param {string} id */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no #${id}`);
  return node;
}

/** @param {unknown} e */
function describe(e) {
  const code = /** @type {any} */ (e)?.code;
  const message = e instanceof Error ? e.message : String(e);
  return code ? `${code}: ${message}` : message;
}

/** @param {string} text */
function showError(text) {
  $("error").textContent = text;
}

// ---- loading ----

/**
 * Load a document: a scenario (setup + steps), a saved state (top-level
 * `version`) or a setup.
 * @param {any} doc
 * @param {string} name
 */
function load(doc, name) {
  showError("");
  /** @type {HTMLTextAreaElement} */ ($("export-text")).value = "";
  $("download").hidden = true;
  if (doc && doc.setup && Array.isArray(doc.steps)) {
    origin = { name: doc.name ?? name, description: doc.description ?? "", setup: doc.setup };
    history = [{ command: null, state: engine.newGame(JSON.stringify(doc.setup)), events: [] }];
    for (const step of doc.steps) {
      const state = history[history.length - 1].state;
      try {
        const out = engine.apply(state, JSON.stringify(step.command));
        history.push({ command: step.command, note: step.note, state: out.state, events: JSON.parse(out.events) });
      } catch (e) {
        history.push({ command: step.command, note: step.note, state, events: [], error: /** @type {any} */ (e).code ?? "error" });
      }
    }
  } else if (doc && doc.version !== undefined) {
    const state = JSON.stringify(doc);
    engine.view(state, "host"); // checks the state (throws on a bad one)
    origin = { name, description: "a saved state", setup: null };
    history = [{ command: null, state, events: [] }];
  } else {
    origin = { name, description: "", setup: doc };
    history = [{ command: null, state: engine.newGame(JSON.stringify(doc)), events: [] }];
  }
  cursor = history.length - 1;
  const seats = JSON.parse(engine.view(history[0].state, "spectator")).seats;
  const select = /** @type {HTMLSelectElement} */ ($("viewer"));
  select.replaceChildren(
    ...seats.map((/** @type {string} */ f) => h("option", { value: f }, factionName(f))),
    h("option", { value: "spectator" }, "Spectator"),
    h("option", { value: "host" }, "Host"),
  );
  if (![...select.options].some((o) => o.value === viewer)) viewer = "host";
  select.value = viewer;
  $("loaded").textContent = `${origin.name}${origin.description ? ` — ${origin.description}` : ""}`;
  render();
}

/** @param {string} file */
async function loadBundled(file) {
  const doc = await (await fetch(`./scenarios/${encodeURIComponent(file)}`)).json();
  load(doc, file);
}

// ---- acting ----

/** @param {any} command */
function act(command) {
  showError("");
  const state = history[cursor].state;
  try {
    const out = engine.apply(state, JSON.stringify(command));
    history = history.slice(0, cursor + 1);
    history.push({ command, state: out.state, events: JSON.parse(out.events) });
    cursor = history.length - 1;
    render();
  } catch (e) {
    showError(`refused: ${describe(e)}`);
  }
}

// ---- rendering ----

/** The open decision as the viewer sees it, told by the engine. */
function decisionText(/** @type {string} */ state, /** @type {any} */ frame) {
  const event = {
    audience: { kind: "public" },
    event: { kind: "decisionOpened", frame: frame.id, actor: frame.actor, decisionKind: frame.kind, decision: frame.decision },
  };
  return engine.narrate(state, JSON.stringify(event), viewer) ?? "";
}

/**
 * Controls for one actor's options: a select (or button) per command kind,
 * a form per choice descriptor, and greyed entries for blocked options.
 * @param {string} state
 * @param {string} actor
 */
function optionControls(state, actor) {
  const options = JSON.parse(engine.options(state, actor));
  const box = h("div", { class: "actor-options", "data-actor": actor });
  box.append(h("h3", {}, `${actor === "host" ? "Host" : factionName(actor)} may:`));
  /** @type {Map<string, any[]>} */
  const groups = new Map();
  for (const c of options.commands) {
    const list = groups.get(c.action.kind) ?? [];
    list.push(c);
    groups.set(c.action.kind, list);
  }
  for (const [kind, commands] of groups) {
    const row = h("div", { class: "option", "data-kind": kind });
    const select = /** @type {HTMLSelectElement} */ (h("select", { "data-kind": kind }));
    commands.forEach((c, i) => select.append(h("option", { value: String(i) }, engine.narrate(state, JSON.stringify(c), actor) ?? kind)));
    const button = h("button", { "data-do": kind }, commands.length === 1 ? "Do it" : "Do the chosen one");
    button.addEventListener("click", () => act(commands[Number(select.value)]));
    row.append(select, button);
    box.append(row);
  }
  for (const choice of options.choices) box.append(choiceForm(choice, actor));
  // `blocked` ({ command, code, rule? }, D-106) is absent from engines
  // that do not explain refusals yet.
  for (const blocked of options.blocked ?? []) {
    const row = h("div", { class: "option blocked", "data-code": blocked.code });
    const text = engine.narrate(state, JSON.stringify(blocked.command), actor) ?? blocked.command.action.kind;
    const button = /** @type {HTMLButtonElement} */ (h("button", { disabled: "" }, text));
    row.append(button, h("span", { class: "reason" }, blocked.rule ? `${blocked.code} (${blocked.rule})` : blocked.code));
    box.append(row);
  }
  if (box.childElementCount === 1) box.append(h("p", {}, "nothing now"));
  return box;
}

/**
 * A choice descriptor as a form (R-EFF-GLD ship, R-EFF-TLX revive, R-EFF-FRE relocate).
 * @param {any} choice
 * @param {string} actor
 */
function choiceForm(choice, actor) {
  const form = h("div", { class: "choice", "data-choice": choice.kind });
  const send = (/** @type {any} */ action) => act({ actor, action: { frame: choice.frame, ...action } });
  /** @param {string} name @param {number} max */
  const number = (name, max) => {
    const n = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: "0", max: String(max), value: "0", "data-field": name }));
    form.append(h("label", {}, `${name} (0–${max})`), n);
    return n;
  };
  /** @param {{ territory: string, sector: number }[]} list */
  const positions = (list) => {
    const select = /** @type {HTMLSelectElement} */ (h("select", { "data-field": "destination" }));
    list.forEach((p, i) => select.append(h("option", { value: String(i) }, `${names.get(p.territory)} (sector ${p.sector})`)));
    return select;
  };
  if (choice.kind === "ship") {
    form.append(h("p", {}, `Ship up to ${choice.max} forces free:`));
    const to = positions(choice.destinations);
    form.append(to);
    const normal = number("normal", choice.reserves.normal);
    const elite = number("elite", choice.reserves.elite);
    const go = h("button", { "data-do": "ship" }, "Ship");
    go.addEventListener("click", () => {
      const p = choice.destinations[Number(to.value)];
      send({ kind: "ship", territory: p.territory, sector: p.sector, normal: Number(normal.value), elite: Number(elite.value) });
    });
    form.append(go);
  } else if (choice.kind === "revive") {
    form.append(h("p", {}, "Revive free:"));
    if (choice.leaders.length) {
      const leader = /** @type {HTMLSelectElement} */ (h("select", { "data-field": "leader" }));
      choice.leaders.forEach((/** @type {string} */ l) => leader.append(h("option", { value: l }, names.get(l) ?? l)));
      const go = h("button", { "data-do": "reviveLeader" }, "Revive the leader");
      go.addEventListener("click", () => send({ kind: "reviveLeader", leader: leader.value }));
      form.append(leader, go);
    }
    if (choice.duke) {
      const go = h("button", { "data-do": "reviveDuke" }, "Revive Duke Vidal");
      go.addEventListener("click", () => send({ kind: "reviveDuke" }));
      form.append(go);
    }
    const normal = number("normal", Math.min(choice.max, choice.tanks.normal));
    const elite = number("elite", Math.min(choice.eliteLeft, choice.tanks.elite));
    const go = h("button", { "data-do": "reviveForces" }, "Revive forces");
    go.addEventListener("click", () => send({ kind: "reviveForces", normal: Number(normal.value), elite: Number(elite.value) }));
    form.append(go);
  } else if (choice.kind === "relocate") {
    form.append(h("p", {}, "Relocate one group:"));
    const source = /** @type {HTMLSelectElement} */ (h("select", { "data-field": "source" }));
    choice.sources.forEach((/** @type {any} */ s, /** @type {number} */ i) =>
      source.append(h("option", { value: String(i) }, `${names.get(s.territory)}${s.advisors ? " (advisors)" : ""}`)),
    );
    const body = h("div");
    /** @type {() => any} */
    let read = () => null;
    const show = () => {
      const s = choice.sources[Number(source.value)];
      body.replaceChildren();
      const counts = s.sectors.map((/** @type {any} */ x) => {
        const n = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: "0", max: String(x.normal), value: String(x.normal), "data-field": `normal-${x.sector}` }));
        const e = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: "0", max: String(x.elite), value: String(x.elite), "data-field": `elite-${x.sector}` }));
        body.append(h("label", {}, `sector ${x.sector}: normal`), n, h("label", {}, "elite"), e);
        return { sector: x.sector, n, e };
      });
      const to = positions(s.destinations);
      body.append(to);
      read = () => {
        const p = s.destinations[Number(to.value)];
        const group = counts
          .map((/** @type {any} */ c) => ({ sector: c.sector, normal: Number(c.n.value), elite: Number(c.e.value) }))
          .filter((/** @type {any} */ g) => g.normal + g.elite > 0);
        return { kind: "relocate", from: s.territory, group, advisors: s.advisors, to: p.territory, sector: p.sector };
      };
    };
    source.addEventListener("change", show);
    show();
    const go = h("button", { "data-do": "relocate" }, "Relocate");
    go.addEventListener("click", () => send(read()));
    form.append(source, body, go);
  }
  return form;
}

/** The host's report form: any action, its fields from the command schema. */
function reportForm() {
  const box = h("div", { id: "report" });
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: "report-kind" }));
  for (const v of actionVariants) select.append(h("option", { value: v.properties.kind.const }, v.properties.kind.const));
  const body = h("div");
  /** @type {() => any} */
  let read = () => null;
  const frame = history[cursor] ? JSON.parse(engine.view(history[cursor].state, "host")).pending.at(-1)?.id : undefined;
  const show = () => {
    const variant = actionVariants.find((/** @type {any} */ v) => v.properties.kind.const === select.value);
    const form = actionForm(variant, { defs: schema.$defs, names, defaults: { frame: frame ?? 0 } });
    body.replaceChildren(form.node);
    read = form.read;
  };
  select.value = "arrive";
  select.addEventListener("change", show);
  show();
  const go = h("button", { id: "report-send" }, "Report");
  go.addEventListener("click", () => {
    try {
      act({ actor: "host", action: read() });
    } catch (e) {
      showError(`the form: ${describe(e)}`);
    }
  });
  box.append(h("h3", {}, "Host report"), select, body, go);
  return box;
}

function render() {
  const entry = history[cursor];
  const state = entry.state;
  const view = JSON.parse(engine.view(state, viewer));
  $("board").replaceChildren(draw(board, view, bands));
  $("position").textContent = `step ${cursor} of ${history.length - 1}`;
  /** @type {HTMLButtonElement} */ ($("back")).disabled = cursor === 0;
  /** @type {HTMLButtonElement} */ ($("forward")).disabled = cursor === history.length - 1;

  // The open decision, and the controls of whoever this viewer may act for.
  const decision = $("decision");
  decision.replaceChildren();
  const open = view.pending.at(-1);
  decision.append(h("p", { id: "open-decision" }, open ? decisionText(state, open) : "No decision is open: the host reports what happens next."));
  const actors = viewer === "host" ? ["host", ...(open && open.actor !== "host" ? [open.actor] : [])] : viewer === "spectator" ? [] : [viewer];
  for (const actor of actors) decision.append(optionControls(state, actor));
  if (viewer === "host") decision.append(reportForm());

  // The story so far, as this viewer may read it.
  const log = $("log");
  log.replaceChildren();
  history.slice(1, cursor + 1).forEach((e, i) => {
    const before = history[i].state;
    const li = h("li", { class: e.error ? "command refused" : "command" });
    li.textContent = `${engine.narrate(before, JSON.stringify(e.command), viewer)}${e.error ? ` — refused (${e.error})` : ""}`;
    log.append(li);
    for (const event of e.events) {
      const text = engine.narrate(e.state, JSON.stringify(event), viewer);
      if (text !== null && text !== undefined) log.append(h("li", { class: "event" }, text));
    }
  });
  log.scrollTop = log.scrollHeight;

  // Export.
  const exportButton = /** @type {HTMLButtonElement} */ ($("export"));
  exportButton.disabled = origin.setup === null;
  exportButton.title = origin.setup === null ? "A saved state has no setup to replay from: load a setup or a scenario." : "";
}

/** What was played up to the current step, as a scenario file. */
function exported() {
  return {
    name: `${origin.name} (played in the playground)`,
    description: origin.description,
    setup: origin.setup,
    steps: history.slice(1, cursor + 1).map((e) => ({
      ...(e.note ? { note: e.note } : {}),
      command: e.command,
      ...(e.error ? { error: e.error } : {}),
    })),
  };
}

// ---- wiring ----

$("viewer").addEventListener("change", (e) => {
  viewer = /** @type {HTMLSelectElement} */ (e.target).value;
  render();
});
$("back").addEventListener("click", () => {
  cursor = Math.max(0, cursor - 1);
  render();
});
$("forward").addEventListener("click", () => {
  cursor = Math.min(history.length - 1, cursor + 1);
  render();
});
$("load-scenario").addEventListener("click", () =>
  loadBundled(/** @type {HTMLSelectElement} */ ($("scenarios")).value).catch((e) => showError(describe(e))),
);
$("file").addEventListener("change", async (e) => {
  const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
  if (!file) return;
  try {
    load(JSON.parse(await file.text()), file.name);
  } catch (err) {
    showError(`could not load ${file.name}: ${describe(err)}`);
  }
});
/** Offer `text` for download as `file`, and show it. */
function offer(/** @type {string} */ text, /** @type {string} */ file) {
  /** @type {HTMLTextAreaElement} */ ($("export-text")).value = text;
  const link = /** @type {HTMLAnchorElement} */ ($("download"));
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = file;
  link.textContent = `download ${file}`;
  link.hidden = false;
}
$("export").addEventListener("click", () => offer(JSON.stringify(exported(), null, 2), "playground-scenario.json"));
$("save-state").addEventListener("click", () => offer(history[cursor].state, "playground-state.json"));

const list = await (await fetch("./scenarios/index.json")).json();
/** @type {HTMLSelectElement} */ ($("scenarios")).replaceChildren(...list.map((/** @type {string} */ n) => h("option", { value: n }, n)));
await loadBundled(list[0]);
document.body.dataset["ready"] = "true";
