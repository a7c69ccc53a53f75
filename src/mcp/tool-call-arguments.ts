import type { z } from "zod";
import { LookupKnowledgeError } from "../errors.js";
import type { LookupRefusal } from "../graph/lookup-runner.js";

/** Longest problem list a refusal's one-line message holds, in characters. */
export const MAX_REFUSAL_CHARS = 500;

/** What a `tools/call`'s arguments came to: the parsed input, or why they were refused. */
export type CheckedArguments =
  { ok: true; args: Record<string, unknown> } | { ok: false; refusal: Pick<LookupRefusal, "input" | "error"> };

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

/** What of refused arguments the trace may keep: each field only when it has the lookup's type, else `""`, null, 0. */
function traceableInput(args: unknown): LookupRefusal["input"] {
  const fields =
    typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return {
    query: typeof fields.query === "string" ? fields.query : "",
    domain: typeof fields.domain === "string" ? fields.domain : null,
    limit: typeof fields.limit === "number" && Number.isFinite(fields.limit) ? fields.limit : 0,
  };
}

const refused = (args: unknown, problems: string, tool: string): CheckedArguments => {
  const list = problems.length > MAX_REFUSAL_CHARS ? `${problems.slice(0, MAX_REFUSAL_CHARS)}…` : problems;
  return {
    ok: false,
    refusal: {
      input: traceableInput(args),
      error: new LookupKnowledgeError(
        "INVALID_INPUT",
        `the arguments of ${tool} are invalid (${list}); pass { query: string, domain?: string, limit?: integer } as its input schema says.`,
      ),
    },
  };
};

/**
 * Checks a `tools/call`'s `arguments` against the tool's input schema (pure): absent means `{}`;
 * anything but an object, or an object the schema refuses, is refused with a one-line message
 * naming each bad field and the rule it breaks (never the value the client sent).
 */
export function checkToolArguments(schema: z.ZodType, args: unknown, tool: string): CheckedArguments {
  const given = args === undefined ? {} : args;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return refused(given, `arguments is ${kindOf(given)}, not an object`, tool);
  const parsed = schema.safeParse(given);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "arguments";
    return `${field}: ${issue.message.replace(/\s+/g, " ").slice(0, 200)}`;
  });
  return refused(given, problems.join("; "), tool);
}
