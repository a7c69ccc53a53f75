import { createLookupKnowledgeSchema, DEFAULT_MAX_LIMIT, type LookupKnowledgeInput } from "../graph/lookup-schema.js";
import { normalizeDomain } from "../text/normalize-domain.js";
import { usageError } from "./command-spec.js";

/** Domains named in an unknown-domain error before the rest are counted. */
export const LISTED_DOMAINS = 20;

/** `a, b, c` for the first {@link LISTED_DOMAINS} names, then `and N more`. */
export function listNames(names: readonly string[], max: number = LISTED_DOMAINS): string {
  const shown = names
    .slice(0, max)
    .map((name) => JSON.stringify(name))
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * The domain `--domain` names, as the tool compares it (trimmed, lower-cased), once it is one of
 * the index's domains.
 * @throws LookupKnowledgeError `USAGE` for an empty value or a domain the index does not have,
 * listing the known ones (or saying there are none).
 */
export function checkDomain(raw: string, domains: readonly string[]): string {
  const domain = normalizeDomain(raw);
  if (domain === null)
    throw usageError(
      "query",
      `--domain needs a domain name, got ${JSON.stringify(raw)}; leave --domain out to search every domain.`,
    );
  if (domains.includes(domain)) return domain;
  if (domains.length === 0)
    throw usageError(
      "query",
      `unknown domain ${JSON.stringify(raw)}: this index has no domains (no file sets \`domain:\` in its frontmatter); leave --domain out.`,
    );
  throw usageError(
    "query",
    `unknown domain ${JSON.stringify(raw)}; the index's ${domains.length} domains are ${listNames(domains)}.`,
  );
}

const FLAG_OF: Record<string, string> = { query: "the question", limit: "--limit", domain: "--domain" };

/**
 * The tool's input for one CLI lookup, checked against the tool's own schema first, so that a bad
 * value is a one-line usage error naming the flag instead of LangChain's multi-line schema error.
 * @throws LookupKnowledgeError `USAGE`.
 */
export function lookupArgs(
  query: string,
  limit: number,
  domain: string | undefined,
  domains: readonly string[],
): LookupKnowledgeInput {
  const args = { query, limit, ...(domain === undefined ? {} : { domain: checkDomain(domain, domains) }) };
  const checked = createLookupKnowledgeSchema(DEFAULT_MAX_LIMIT, { domains }).safeParse(args);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const field = String(issue?.path[0] ?? "query");
  const got = field === "query" ? `${query.length} characters` : JSON.stringify(args[field as keyof typeof args]);
  throw usageError(
    "query",
    `${FLAG_OF[field] ?? field} is not accepted (${(issue?.message ?? "invalid").replace(/\s+/g, " ")}), got ${got}.`,
  );
}
