import { z } from "zod";
import { enumDomains, listDomains } from "./domain-labels.js";

/**
 * Longest `query` a lookup takes, in characters: Unicode code points, as zod counts a string's
 * length and as JSON Schema's `maxLength` (what MCP clients see) does, so a character beyond the
 * BMP (an emoji, a rare Han character) counts once, not as its two UTF-16 units.
 */
export const MAX_QUERY_CHARS = 1000;
/** Default number of evidence blocks. */
export const DEFAULT_LIMIT = 5;
/** Largest `limit` a lookup may ask for unless `maxLimit` says otherwise. */
export const DEFAULT_MAX_LIMIT = 20;

/** Options of {@link createLookupKnowledgeSchema}. */
export interface LookupKnowledgeSchemaOptions {
  /**
   * The knowledge base's domains (`KnowledgeBase.domains`), offered to the model: up to 50 short
   * lower-case names become the `domain` field's enum; otherwise up to 20 of them, cleaned, are
   * listed in its description.
   * @default none: `domain` is any string of 1-100 characters
   */
  domains?: readonly string[];
}

const LEAVE_OUT = "Leave out unless the user names the area.";

function domainField(domains: readonly string[]) {
  const values = enumDomains(domains);
  if (values !== null)
    return z.enum(values).optional().describe(`Restrict the search to one knowledge-base domain. ${LEAVE_OUT}`);
  const listed = listDomains(domains);
  const known = listed.length > 0 ? `; known domains: ${listed}.` : " (e.g. 'billing').";
  return z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(`Restrict the search to one knowledge-base domain${known} ${LEAVE_OUT}`);
}

/**
 * The input schema of `lookup_knowledge`, written for the model, for a given largest `limit` and
 * the base's domains.
 * @example
 * const schema = createLookupKnowledgeSchema(50, { domains: kb.domains });
 */
export function createLookupKnowledgeSchema(
  maxLimit: number = DEFAULT_MAX_LIMIT,
  options: LookupKnowledgeSchemaOptions = {},
) {
  return z.object({
    query: z
      .string()
      .min(1)
      .max(MAX_QUERY_CHARS)
      .describe(
        "What to look up, as a natural-language question or keywords, e.g. 'how do I roll back a canary release'.",
      ),
    domain: domainField(options.domains ?? []) as z.ZodOptional<z.ZodType<string>>,
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .optional()
      .describe(`Maximum evidence blocks to return, 1-${maxLimit}. Defaults to ${Math.min(DEFAULT_LIMIT, maxLimit)}.`),
  });
}

/** Input schema of `lookup_knowledge` with the default largest `limit` (20) and no known domains. */
export const lookupKnowledgeSchema = createLookupKnowledgeSchema();

/**
 * Parsed input of `lookup_knowledge`: what {@link lookupKnowledgeSchema} accepts (a test checks
 * that the two agree).
 */
export interface LookupKnowledgeInput {
  /** What to look up: a natural-language question or keywords, 1-1000 characters. */
  query: string;
  /**
   * Only sections of this knowledge-base domain, compared trimmed and lower-cased.
   * @default none: the L0 hints may choose a domain for L1
   */
  domain?: string;
  /**
   * Most evidence blocks to return, an integer from 1 to the tool's `maxLimit`.
   * @default 5, or `maxLimit` when smaller
   */
  limit?: number;
}
