import { z } from "zod";

/** Default number of evidence blocks. */
export const DEFAULT_LIMIT = 5;

/** Input schema of `lookup_knowledge`, written for the model. */
export const lookupKnowledgeSchema = z.object({
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
  limit: z.number().int().min(1).max(20).optional().describe(`Maximum evidence blocks to return, 1-20. Defaults to ${DEFAULT_LIMIT}.`),
});

/** Parsed input of `lookup_knowledge`. */
export type LookupKnowledgeInput = z.infer<typeof lookupKnowledgeSchema>;
