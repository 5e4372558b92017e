// @ts-check
// Plays the bindings scenario in the browser through the `--target web`
// build and shows every step's events. Type-checked by `tsc -p wasm` against
// the generated .d.ts files.

import init, { Game, formatVersion, version } from "../../wasm/pkg/web/ecaz_wasm.js";

/** @typedef {import("../../wasm/pkg/types/index.js").Scenario} Scenario */
/** @typedef {import("../../wasm/pkg/types/index.js").Event} Event */
/** @typedef {{ step: number, events?: Event[], error?: string }} Line */

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) {
    throw new Error(`no #${id} in the page`);
  }
  return found;
}

/**
 * @param {string} text
 * @param {string} status
 */
function setStatus(text, status) {
  const node = element("status");
  node.textContent = text;
  node.dataset["status"] = status;
  document.body.dataset["status"] = status;
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function codeOf(error) {
  const code = error instanceof Error ? /** @type {{ code?: unknown }} */ (error).code : undefined;
  if (typeof code !== "string") {
    throw error;
  }
  return code;
}

/**
 * One table row per step.
 * @param {Line} line
 * @param {string} command
 */
function showStep(line, command) {
  const row = document.createElement("tr");
  const number = document.createElement("td");
  number.textContent = String(line.step);
  const what = document.createElement("td");
  what.textContent = command;
  const result = document.createElement("td");
  if (line.events) {
    result.className = "events";
    for (const event of line.events) {
      const tag = document.createElement("code");
      tag.textContent = event.event.kind;
      tag.title = JSON.stringify(event.event);
      result.append(tag);
    }
  } else {
    result.className = "error";
    result.textContent = line.error ?? "";
  }
  row.append(number, what, result);
  element("steps").append(row);
}

async function main() {
  await init(); // fetches ecaz_wasm_bg.wasm next to the module
  const response = await fetch("../scenarios/bindings.json");
  const scenario = /** @type {Scenario} */ (await response.json());
  const game = new Game(JSON.stringify(scenario.setup));
  /** @type {Line[]} */
  const lines = [];
  scenario.steps.forEach((step, i) => {
    /** @type {Line} */
    let line;
    try {
      const events = /** @type {Event[]} */ (JSON.parse(game.apply(JSON.stringify(step.command))));
      line = { step: i + 1, events };
    } catch (error) {
      line = { step: i + 1, error: codeOf(error) };
    }
    lines.push(line);
    const action = step.command.action;
    showStep(line, `${step.command.actor}: ${action.kind}`);
  });
  game.free();
  element("transcript").textContent = lines.map((line) => JSON.stringify(line)).join("\n");
  setStatus(`ecaz ${version()} (state format ${formatVersion()}): ${lines.length} steps played`, "done");
}

main().catch((/** @type {unknown} */ error) => {
  setStatus(`failed: ${error instanceof Error ? error.message : String(error)}`, "failed");
});
