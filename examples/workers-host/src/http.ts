// Requests in, JSON out (D-206). Every answer is JSON; every error is
// `{code, message}` (plus `rule`/`problems` from the engine, `revision` on a
// conflict) with a 4xx/5xx status. Bodies are capped before they are parsed.

import { EcazError } from "@ecaz/engine";

/** The largest request body accepted (a setup importing a game in progress is a few KB). */
export const MAX_BODY = 64 * 1024;

/** An error answered to the client as `status` + `{code, message, …}`. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The status of an engine error code: malformed input 400, a refused command 422, the engine's own fault 500. */
function statusOf(code: string): number {
  if (code.startsWith("decode/") || code.startsWith("setup/")) return 400;
  if (code.startsWith("rule/")) return 422;
  return 500;
}

/** The answer for anything thrown while serving a request. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return json(error.status, { code: error.code, message: error.message, ...error.extra });
  if (error instanceof EcazError) return json(statusOf(error.code), error.toReport());
  // Storage failures and anything unforeseen: no detail leaves the Worker.
  return json(503, { code: "host/unavailable", message: "the room could not be read or written; retry" });
}

/** The body as JSON, refused above MAX_BODY bytes (counted as it streams, whatever Content-Length says). */
export async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) throw tooLarge();
  const body = request.body;
  if (body === null) throw new HttpError(400, "request/invalid_json", "the request has no body");
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, "request/invalid_json", "the body is not UTF-8 JSON");
  }
}

function tooLarge(): HttpError {
  return new HttpError(413, "request/too_large", `the body is larger than ${MAX_BODY} bytes`);
}

/** A plain object, or a 400. */
export function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "request/invalid_field", `${what} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** A non-negative safe integer, or a 400. */
export function count(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new HttpError(400, "request/invalid_field", `${what} must be a non-negative integer`);
  }
  return value;
}
