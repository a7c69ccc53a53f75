import { normalizeDomain } from "../text/normalize-domain.js";
import type { FallbackReason, L0Hints, L1Status } from "../types.js";

/** Where the graph goes after the L1 node. */
export type AfterL1Route = "collect_evidence" | "l0_fallback";

/** L1 answered with candidates → merge both layers; anything else → answer from L0 evidence. */
export function routeAfterL1(state: { l1Status: L1Status | null }): AfterL1Route {
  return state.l1Status === "ok" ? "collect_evidence" : "l0_fallback";
}

/** The fallback reason recorded for an L1 outcome that did not answer. */
export function fallbackReasonFor(status: L1Status | null): FallbackReason {
  switch (status) {
    case "empty":
      return "l1_empty";
    case "error":
      return "l1_error";
    case "disabled":
      return "l1_disabled";
    case "unavailable":
      return "l1_unavailable";
    default:
      return null;
  }
}

/**
 * The domain L1 is filtered by: the caller's forced domain, else the hints' domain when they name
 * exactly one (blank entries left out, each trimmed); null (no filter) when they name zero or
 * several. `hints.domains` holds the domain of every file L0 matched, so several means the
 * matches span domains. `domainEvidence` is never read: a weak match still counts.
 */
export function chooseDomainFilter(forced: string | null, hints: L0Hints): string | null {
  const normalized = normalizeDomain(forced);
  if (normalized !== null) return normalized;
  const domains = new Set(hints.domains.map((domain) => domain.trim()).filter((domain) => domain.length > 0));
  return domains.size === 1 ? [...domains][0] : null;
}
