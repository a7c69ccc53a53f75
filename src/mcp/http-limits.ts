import { LookupKnowledgeError } from "../errors.js";

/** How long a client may take to send a request's headers, by default (ms). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** How long a client may take to send a whole request, headers and body, by default (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Most connections open at once by default; further ones are closed as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 512;

/** The connection limits of the HTTP endpoint, each checked. */
export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  /** How often Node checks the two timeouts: a quarter of the shorter, at most its own default of 30 s. */
  checkIntervalMs: number;
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new LookupKnowledgeError(
    "INVALID_OPTION",
    `option ${name} must be a positive integer, got ${typeof value === "number" ? String(value) : typeof value}.`,
  );
}

/**
 * The limits with their defaults applied (pure). `requestTimeoutMs` covers the headers too, so it
 * is raised to `headersTimeoutMs` when smaller.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a value that is not a positive integer.
 */
export function resolveHttpLimits(options: {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxConnections?: number;
}): HttpLimits {
  const headersTimeoutMs = positive("headersTimeoutMs", options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = Math.max(
    headersTimeoutMs,
    positive("requestTimeoutMs", options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
  );
  const maxConnections = positive("maxConnections", options.maxConnections, DEFAULT_MAX_CONNECTIONS);
  const checkIntervalMs = Math.max(1, Math.min(30_000, Math.floor(headersTimeoutMs / 4)));
  return { headersTimeoutMs, requestTimeoutMs, maxConnections, checkIntervalMs };
}
