// The playground (D-140–D-142) in headless Chromium: load the bundled
// Ecaz turn, place an Ambassador through the controls, answer the Karama
// window, report an entry, trigger the token and resolve its effect; the SVG
// shows the token in its stronghold, the story narrates it, other viewers do
// not see what they must not, history steps back and forward, and the export
// is written for `ecaz replay` (scripts/playground test replays it).
// Screenshots go to $PLAYGROUND_OUT. Run by `scripts/playground test`.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { chromium } from "playwright-core";

import { serve } from "./serve.mjs";

const SITE = process.env["PLAYGROUND_SITE"] ?? "target/playground";
const OUT = process.env["PLAYGROUND_OUT"] ?? "target/playground-test";
const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** @type {import("node:http").Server | undefined} */
let server;
let base = "";
/** @type {import("playwright-core").Browser | undefined} */
let browser;

before(async () => {
  ({ server, base } = await serve(SITE, 0));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
});

test("a newcomer plays an Ecaz turn by clicking", async () => {
  assert.ok(browser);
  const page = await browser.newPage({ viewport: { width: 1700, height: 1300 } });
  /** @type {string[]} */
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page: ${e.message}`));
  page.setDefaultTimeout(15_000);

  await page.goto(`${base}/`);
  await page.waitForSelector("body[data-ready=true]");

  /** Pick the option of `select` whose text contains `text`. */
  const choose = async (/** @type {string} */ select, /** @type {string} */ text) => {
    const value = await page.$eval(
      select,
      (node, wanted) => [...node.querySelectorAll("option")].find((o) => o.textContent?.includes(wanted))?.value,
      text,
    );
    assert.ok(value !== undefined, `no option "${text}" in ${select}`);
    await page.selectOption(select, value);
  };
  const viewAs = (/** @type {string} */ who) => page.selectOption("#viewer", who);
  const story = () => page.$eval("#log", (n) => n.textContent ?? "");
  const text = () => page.evaluate(() => document.body.innerText + (document.querySelector("#board")?.textContent ?? ""));
  const noError = async () => assert.equal(await page.$eval("#error", (n) => n.textContent), "");

  // Load the bundled scenario: turn 1 walked to the end of Revival. The page
  // has already loaded it on start, so the label is cleared first: the wait
  // below then sees this load finish (its render, after a fetch, would
  // otherwise replace the controls chosen below, as it once did under load).
  await page.selectOption("#scenarios", "ecaz_turn.json");
  await page.$eval("#loaded", (n) => {
    n.textContent = "";
  });
  await page.click("#load-scenario");
  await page.waitForFunction(() => document.querySelector("#loaded")?.textContent?.includes("an Ecaz turn"));
  assert.match(await page.textContent("#position") ?? "", /step 5 of 5/);

  // R-PLC-1: Ecaz places the Spacing Guild Ambassador in Tuek's Sietch through its controls.
  await viewAs("ecaz");
  await choose(".actor-options[data-actor=ecaz] select[data-kind=place]", "Spacing Guild Ambassador for Tuek's Sietch");
  await page.click(".actor-options[data-actor=ecaz] button[data-do=place]");
  await noError();
  assert.match(await story(), /Ecaz announced the Spacing Guild Ambassador for Tuek's Sietch/);

  // P-SUPPLY-VIS ownerOnly: Harkonnen hears of an Ambassador, not which one, and sees no supply.
  await viewAs("harkonnen");
  const harkonnen = await story();
  assert.match(harkonnen, /Ecaz announces an Ambassador for Tuek's Sietch/);
  assert.doesNotMatch(harkonnen, /Spacing Guild Ambassador/);
  assert.match(await page.textContent("#cohort") ?? "", /cohort: hidden/);
  assert.equal(await page.$$eval(".actor-options .option, .actor-options .choice", (n) => n.length), 0, "Harkonnen has nothing to answer");
  await page.screenshot({ path: join(OUT, "1-announced-seen-by-harkonnen.png") });

  // R-PLC-5: the host answers the Karama window: nobody plays Karama.
  await viewAs("host");
  await page.click(".actor-options[data-actor=host] button[data-do=allowPlacement]");
  await noError();
  assert.equal(await page.locator("#board g.ambassador[data-ambassador=guild][data-territory=tueks_sietch]").count(), 1);
  assert.match(await story(), /Ecaz placed the Spacing Guild Ambassador in Tuek's Sietch and paid 1 spice/);
  await page.screenshot({ path: join(OUT, "2-placed-seen-by-host.png") });

  // Ecaz finishes placing; the turn moves on to Shipment and Movement.
  await viewAs("ecaz");
  await page.click(".actor-options[data-actor=ecaz] button[data-do=finishPlacement]");
  await noError();

  // R-TRG-3: the host reports Harkonnen shipping 3 forces into Tuek's Sietch (the report form).
  await viewAs("host");
  await page.selectOption("#report-kind", "arrive");
  await page.selectOption("#report [data-field=entrant]", "harkonnen");
  await page.selectOption("#report [data-field=cause]", "shipment");
  await page.selectOption("#report [data-field='from.kind']", "reserves");
  await page.selectOption("#report [data-field=territory]", "tueks_sietch");
  await page.fill("#report [data-field=sector]", "5");
  await page.fill("#report [data-field=normal]", "3");
  await page.click("#report-send");
  await noError();
  assert.match(await story(), /Arrival 1: Harkonnen shipped 3 forces from reserves to Tuek's Sietch/);
  assert.equal(
    await page.locator("#board g.forces[data-faction=harkonnen][data-territory=tueks_sietch][data-normal='3']").count(),
    1,
  );

  // R-TRG-1, R-EFF-GLD: Ecaz triggers the token for itself and ships with the Guild effect.
  await viewAs("ecaz");
  await choose(".actor-options[data-actor=ecaz] select[data-kind=trigger]", "for the benefit of Ecaz");
  await page.click(".actor-options[data-actor=ecaz] button[data-do=trigger]");
  await noError();
  await page.waitForSelector("[data-choice=ship]");
  await choose("[data-choice=ship] select[data-field=destination]", "Polar Sink");
  await page.fill("[data-choice=ship] [data-field=normal]", "2");
  await page.click("[data-choice=ship] button[data-do=ship]");
  await noError();
  // The host runs its own reactions to the Guild shipment, if the engine asks.
  await viewAs("host");
  for (let i = 0; i < 4 && (await page.locator("button[data-do=reactionsDone]").count()) > 0; i++) {
    await page.click("button[data-do=reactionsDone]");
    await noError();
  }
  const host = await story();
  assert.match(host, /Ecaz triggered the Spacing Guild Ambassador in Tuek's Sietch against Harkonnen's entry/);
  assert.match(host, /The Spacing Guild effect for Ecaz is done/);
  assert.match(host, /Every reaction to arrival 1 has settled/);
  assert.equal(await page.locator("#board g.forces[data-faction=ecaz][data-territory=polar_sink]").count(), 1);
  await page.screenshot({ path: join(OUT, "3-effect-resolved-seen-by-host.png") });

  // Secrets per viewer: Atreides sees its Karama; Fremen sees neither that nor Harkonnen's Lasgun, nor Ecaz's spice.
  await viewAs("atreides");
  assert.match(await text(), /karama \(27\)/);
  await viewAs("fremen");
  const fremen = await text();
  assert.doesNotMatch(fremen, /karama \(27\)|lasgun \(8\)/);
  assert.match(await page.$eval("#board g.faction[data-faction=ecaz] .spice", (n) => n.textContent ?? ""), /spice: \?/);
  await page.screenshot({ path: join(OUT, "4-seen-by-fremen.png") });
  await viewAs("spectator");
  assert.doesNotMatch(await text(), /karama \(27\)|lasgun \(8\)/);

  // History: one step back removes the last step from the story; forward brings it back.
  await viewAs("host");
  const last = await page.textContent("#position");
  await page.click("#back");
  assert.notEqual(await page.textContent("#position"), last);
  await page.click("#forward");
  assert.equal(await page.textContent("#position"), last);

  // Export what was played.
  await page.click("#export");
  const exported = JSON.parse(await page.$eval("#export-text", (n) => /** @type {HTMLTextAreaElement} */ (n).value));
  assert.ok(exported.steps.length >= 10, `${exported.steps.length} steps`);
  assert.equal(exported.steps[5].command.action.kind, "place");
  writeFileSync(join(OUT, "exported.json"), JSON.stringify(exported, null, 2));

  // The file picker: the saved state of this step loads (no setup: export is off), and so does a setup.
  await page.click("#save-state");
  const saved = await page.$eval("#export-text", (n) => /** @type {HTMLTextAreaElement} */ (n).value);
  await page.setInputFiles("#file", { name: "saved.json", mimeType: "application/json", buffer: Buffer.from(saved) });
  await page.waitForFunction(() => document.querySelector("#loaded")?.textContent?.includes("a saved state"));
  assert.equal(await page.textContent("#position"), "step 0 of 0");
  assert.equal(await page.$eval("#export", (n) => /** @type {HTMLButtonElement} */ (n).disabled), true);
  assert.equal(await page.locator("#board g.forces[data-faction=ecaz][data-territory=polar_sink]").count(), 1);
  const setup = JSON.stringify({
    seats: ["ecaz", "moritani", "ixians"],
    seed: 9,
    hms: { territory: "broken_land", sector: 11 },
    // Moritani places its 6 starting forces (D-56: the setup must say where).
    factions: { moritani: { board: [{ territory: "the_great_flat", sector: 15, normal: 6 }] } },
  });
  await page.setInputFiles("#file", { name: "setup.json", mimeType: "application/json", buffer: Buffer.from(setup) });
  await page.waitForFunction(() => document.querySelector("#loaded")?.textContent?.startsWith("setup.json"));
  assert.equal(await page.locator("#board rect[data-territory=hidden_mobile_stronghold]").count(), 1, "the HMS is drawn");
  // D-56: the Ixians' printed start is in the HMS, drawn there.
  assert.equal(await page.locator("#board g.forces[data-faction=ixians][data-territory=hidden_mobile_stronghold]").count(), 1);
  assert.equal(await page.locator("#hms-pointer").count(), 1);
  await page.screenshot({ path: join(OUT, "5-setup-with-hms.png") });
  await noError();

  assert.deepEqual(problems, []);
  await page.close();
});
