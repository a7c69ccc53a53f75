/**
 * The knowledge base's domains as the model is told them, in the tool's description and schema.
 * Domains come from corpus frontmatter, which is untrusted: whatever reaches a prompt is cleaned
 * to a short label and the list is bounded.
 */
import { capText, sliceWhole } from "../text/cap-text.js";
import { normalizeDomain } from "../text/normalize-domain.js";

/** Most domains a description names; the rest are counted. */
export const MAX_DESCRIBED_DOMAINS = 20;
/** Longest domain label in a description, ellipsis included. */
export const MAX_DOMAIN_LABEL_CHARS = 40;
/** Most domains the schema offers as an enum; a larger base gets them listed in the field description. */
export const MAX_ENUM_DOMAINS = 50;

/** Letters, digits, combining marks and the punctuation of ordinary domain names: what a label keeps. */
const LABEL_CHAR = /[\p{L}\p{N}\p{M} ._/&+-]/u;
/** A domain the schema may offer as it is: short, lower-case, no edge spaces, nothing but name characters. */
const ENUM_DOMAIN = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} ._/&+-]{0,63}$/u;

/** The domains of a source that holds a list of them; anything but strings is left out. */
export function knownDomains(domains: unknown): string[] {
  return Array.isArray(domains) ? domains.filter((domain): domain is string => typeof domain === "string") : [];
}

/**
 * A domain as a prompt may show it: characters other than letters, digits, marks, spaces and
 * `._/&+-` dropped (controls, line breaks, quotes, markup), spaces collapsed, cut to
 * {@link MAX_DOMAIN_LABEL_CHARS}. Empty when nothing is left.
 */
export function domainLabel(domain: string): string {
  const head = sliceWhole(domain, MAX_DOMAIN_LABEL_CHARS * 4);
  const kept = Array.from(head.replace(/\s+/gu, " "), (char) => (LABEL_CHAR.test(char) ? char : "")).join("");
  return capText(kept.replace(/ {2,}/g, " ").trim(), MAX_DOMAIN_LABEL_CHARS);
}

/** `a, b, c`, or `a, b, c and 12 more`: at most {@link MAX_DESCRIBED_DOMAINS} distinct labels; empty for no domain. */
export function listDomains(domains: readonly string[]): string {
  const labels = new Set<string>();
  for (const domain of domains) {
    if (labels.size === MAX_DESCRIBED_DOMAINS) break;
    const label = domainLabel(domain);
    if (label.length > 0) labels.add(label);
  }
  const more = domains.length - labels.size;
  return labels.size === 0 ? "" : `${[...labels].join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * The domains as schema enum values, or null when they cannot all be offered: none, more than
 * {@link MAX_ENUM_DOMAINS}, or one that is not a short lower-case name equal to its trimmed form
 * (the tool trims and lower-cases the `domain` it gets, and the layers compare it exactly, so an
 * offered value must come through unchanged).
 */
export function enumDomains(domains: readonly string[]): [string, ...string[]] | null {
  if (domains.length === 0 || domains.length > MAX_ENUM_DOMAINS) return null;
  const values = [...new Set(domains)];
  if (!values.every((domain) => ENUM_DOMAIN.test(domain) && domain === normalizeDomain(domain))) return null;
  return values as [string, ...string[]];
}
