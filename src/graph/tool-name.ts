import { LookupKnowledgeError } from "../errors.js";
import { capText } from "../text/cap-text.js";

/** The tool names model providers accept (OpenAI, Anthropic, Gemini alike): 1-64 letters, digits, `_` or `-`. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const shown = (value: unknown) =>
  typeof value === "string" ? JSON.stringify(capText(value, 80)) : value === null ? "null" : typeof value;

/**
 * The `name` option, or `fallback` when it is absent; the name the model sees and the trace's
 * `tool_name`, so it must be one providers accept.
 * @throws LookupKnowledgeError `INVALID_OPTION` when it does not match {@link TOOL_NAME_PATTERN}.
 */
export function resolveToolName(name: unknown, fallback: string): string {
  if (name === undefined) return fallback;
  if (typeof name === "string" && TOOL_NAME_PATTERN.test(name)) return name;
  throw new LookupKnowledgeError(
    "INVALID_OPTION",
    `option name must be 1 to 64 characters, each a letter a-z or A-Z, a digit, "_" or "-" (the tool names model providers accept, ${TOOL_NAME_PATTERN.source}), got ${shown(name)}. Use a snake_case name such as "lookup_billing_docs".`,
  );
}
