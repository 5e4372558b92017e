// Credentials (D-203): random bearer tokens from Web Crypto,
// stored only as their SHA-256, compared in constant time.

/** A new credential: 32 random bytes, base64url (43 characters). Shown once, never stored. */
export function newCredential(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return base64url(bytes);
}

/** A random room code: 10 characters of an unambiguous alphabet (50 bits). */
export function newRoomCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = new Uint8Array(10);
  crypto.getRandomValues(bytes);
  let code = "";
  for (const byte of bytes) code += alphabet.charAt(byte % alphabet.length);
  return code;
}

/** A random seed for the engine (D-82: the host's secret) or the bots: 48 bits. */
export function newSeed(): number {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return ((words[0] ?? 0) & 0xffff) * 0x1_0000_0000 + (words[1] ?? 0);
}

/** The stored form of a credential: its SHA-256 in hex. */
export async function hashCredential(credential: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credential));
  return hex(new Uint8Array(digest));
}

/** A hash that matches no credential: compared against when a seat has none, so every refusal costs the same. */
export const NO_HASH = "0".repeat(64);

/**
 * Whether `presented` hashes to `stored`, in time independent of where they
 * differ: both are 64-character hex strings; every character is compared.
 */
export async function credentialMatches(presented: string, stored: string | null): Promise<boolean> {
  const actual = await hashCredential(presented);
  const expected = stored ?? NO_HASH;
  let difference = actual.length ^ expected.length;
  const length = Math.min(actual.length, expected.length);
  for (let i = 0; i < length; i += 1) {
    difference |= actual.charCodeAt(i) ^ expected.charCodeAt(i);
  }
  return difference === 0 && stored !== null;
}

/** The bearer token of a request, if it has one of a credential's shape. */
export function bearer(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(header);
  return match?.[1] ?? null;
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
