import { z } from "zod";

/** Default number of evidence blocks. */
export const DEFAULT_LIMIT = 5;
/** Largest `limit` a lookup may ask for unless `maxLimit` says otherwise. */
export const DEFAULT_MAX_LIMIT = 20;

/**
 * The input schema of `lookup_knowledge`, written for the model, for a given largest `limit`.
 * @example
 * const schema = createLookupKnowledgeSchema(50);
 */
export function createLookupKnowledgeSchema(maxLimit: number = DEFAULT_MAX_LIMIT) {
  return z.object({
    query: z
      .string()
      .min(1)
      .max(1000)
      .describe("What to look up, as a natural-language question or keywords, e.g. 'how do I roll back a canary release'."),
    domain: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Restrict the search to one knowledge-base domain (e.g. 'billing'). Leave out unless the user names the area."),
    limit: z.number().int().min(1).max(maxLimit).optional().describe(`Maximum evidence blocks to return, 1-${maxLimit}. Defaults to ${Math.min(DEFAULT_LIMIT, maxLimit)}.`),
  });
}

/** Input schema of `lookup_knowledge` with the default largest `limit` (20). */
export const lookupKnowledgeSchema = createLookupKnowledgeSchema();

/** Parsed input of `lookup_knowledge`. */
export type LookupKnowledgeInput = z.infer<typeof lookupKnowledgeSchema>;
