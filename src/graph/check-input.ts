import { z } from "zod";
import { LookupKnowledgeError } from "../errors.js";
import { createLookupKnowledgeSchema, DEFAULT_MAX_LIMIT } from "./lookup-schema.js";

/** Latest time a `Date` can hold, in epoch milliseconds. */
const MAX_DATE_MS = 8.64e15;

/**
 * The subgraph's input schema: the tool's own field rules, so that a caller that invokes the graph
 * directly (or a parent graph that maps keys onto it) gets the same limits as the model. `domain`
 * may also be null, which is how the graph's state says "no domain". `invocationId` and
 * `startedAt`, which the tool sets, must be an id and a time the trace can record.
 */
export function createRetrievalInputSchema(maxLimit: number = DEFAULT_MAX_LIMIT) {
  const tool = createLookupKnowledgeSchema(maxLimit).shape;
  return z.object({
    query: tool.query,
    domain: z.string().max(100).nullable(),
    limit: tool.limit.unwrap(),
    invocationId: z.string().min(1).max(200),
    startedAt: z.number().min(0).max(MAX_DATE_MS),
  });
}

/** The checked input of one lookup. */
export type RetrievalInput = z.infer<ReturnType<typeof createRetrievalInputSchema>>;

function describe(value: unknown): string {
  if (typeof value === "string")
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  return value === null ? "null" : typeof value === "number" ? String(value) : typeof value;
}

/**
 * Returns a checker of a lookup's input, run before any layer.
 * @returns a function that throws LookupKnowledgeError `INVALID_INPUT` naming every bad field, its value and the rule.
 */
export function createInputCheck(
  maxLimit: number = DEFAULT_MAX_LIMIT,
): (input: {
  query: unknown;
  domain: unknown;
  limit: unknown;
  invocationId: unknown;
  startedAt: unknown;
}) => RetrievalInput {
  const schema = createRetrievalInputSchema(maxLimit);
  return (input) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.join(".");
      return `${field} ${describe(input[field as keyof typeof input])}: ${issue.message}`;
    });
    throw new LookupKnowledgeError(
      "INVALID_INPUT",
      `the lookup input is invalid (${problems.join("; ")}). Pass { query: string of 1-1000 characters, domain?: string, limit?: integer 1-${maxLimit} }.`,
    );
  };
}

/** {@link createInputCheck} with the default largest limit. */
export const checkRetrievalInput = createInputCheck();
