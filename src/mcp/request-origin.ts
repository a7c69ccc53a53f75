/** Host names of the loopback interface: a server bound to one is reachable from this machine only. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1"]);

/** An origin as browsers send it (`scheme://host[:port]`), lower-cased; null when `text` is not one. */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin === "null") return null;
  return url.origin.toLowerCase();
}

/** True when `origin` (already normalised) names a loopback host, on any port. */
function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[(.*)\]$/, "$1");
  return LOOPBACK_HOSTS.has(host);
}

/**
 * Whether a request may be answered given its `Origin` header: a request without one (a
 * program, not a browser page) may; one with an Origin must name an origin of `allowed` (as
 * {@link normalizeOrigin} gives them) or, when `loopbackBind`, a page served from this machine
 * (`http://localhost:5173`). An Origin that is not an http(s) origin (`null`) is never allowed.
 */
export function originAllowed(
  header: string | undefined,
  allowed: ReadonlySet<string>,
  loopbackBind: boolean,
): boolean {
  if (header === undefined) return true;
  const origin = normalizeOrigin(header.trim());
  if (origin === null) return false;
  return allowed.has(origin) || (loopbackBind && isLoopbackOrigin(origin));
}
