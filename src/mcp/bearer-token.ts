import { createHash, timingSafeEqual } from "node:crypto";
import type { McpToolHandler } from "./mcp-tool-server.js";

/** Callers holding one bearer token, and the tool (with their scope) they are served. */
export interface McpAudience {
  token: string;
  handler: McpToolHandler;
}

/** `Bearer` and the space after it; the scheme is matched in any case (RFC 7235 section 2.1). */
const BEARER = /^bearer +/i;

/** The credentials of `Authorization: Bearer <credentials>`, trimmed; null for another scheme or none. */
export function bearerCredentials(header: string | undefined): string | null {
  if (header === undefined) return null;
  const scheme = BEARER.exec(header);
  return scheme === null ? null : header.slice(scheme[0].length).trim();
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when `header` is `Bearer <token>` (the scheme in any case), the token compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const credentials = bearerCredentials(header);
  return credentials !== null && timingSafeEqual(digest(credentials), digest(token));
}

/**
 * The audience whose token `header` carries, or null; every token is compared (in constant time)
 * so that the time taken does not tell which one matched.
 */
export function audienceOf<A extends { token: string }>(header: string | undefined, audiences: readonly A[]): A | null {
  let found: A | null = null;
  for (const audience of audiences) if (bearerMatches(header, audience.token) && found === null) found = audience;
  return found;
}
