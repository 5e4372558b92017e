// The bots' choice (D-205): a seat's bot picks one of the commands its
// `options` lists, with a PRNG seeded by the room's bot seed, the actor and the
// room's revision — so the same room replays to the same game in-process,
// whoever sent each command and however the requests raced. It reads only
// what `options(actor)` gives that actor. When the package exports the
// engine's own `botCommand`, this module is the one place to swap.

import type { Command, Options } from "@ecaz/engine";

/** The command `actor`'s bot sends at `revision`, or null when `options` lists none. */
export function chooseCommand(options: Options, botSeed: string, actor: string, revision: number): Command | null {
  const commands = options.commands;
  if (commands.length === 0) return null;
  return commands[Math.floor(draw(botSeed, actor, revision) * commands.length)] ?? null;
}

/** The seeded draw in [0, 1) of `actor` (or any label) at `revision`. */
export function draw(botSeed: string, actor: string, revision: number): number {
  return mulberry32(fnv1a(`${botSeed}/${actor}/${revision}`));
}

/** FNV-1a, 32 bits. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** One draw in [0, 1) of mulberry32 from `seed`. */
function mulberry32(seed: number): number {
  let t = (seed + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
