import { tool } from "@langchain/core/tools";
import { LookupKnowledgeError } from "../errors.js";
import { TOOL_NAME, type RetrievalOptions } from "../graph/options.js";
import type { LookupResult } from "../types.js";
import { formatEvidence } from "./format-evidence.js";
import { createLookupRunner } from "../graph/lookup-runner.js";
import { normalizeDomain } from "../text/normalize-domain.js";
import { createLookupKnowledgeSchema, DEFAULT_LIMIT } from "../graph/lookup-schema.js";
import { describeLookupKnowledge } from "./tool-description.js";
import { setRefusalTrace } from "./tool-refusal.js";

type LookupKnowledgeSchema = ReturnType<typeof createLookupKnowledgeSchema>;

/** Options of {@link createLookupKnowledgeTool}: the retrieval options, the tool's name and description. */
export interface LookupKnowledgeToolOptions extends RetrievalOptions {
  /**
   * The name the model calls the tool by, and the trace's `tool_name` on every line (success and
   * error): give each tool of an agent its own, e.g. one per knowledge base. 1-64 letters,
   * digits, `_` or `-` (what providers accept); anything else throws `INVALID_OPTION`.
   * @default "lookup_knowledge"
   */
  name?: string;
  /**
   * What the model is told the tool is for. Say what the base covers and when to use it.
   * @default describeLookupKnowledge(knowledgeBase.domains): names up to 20 of the base's domains and how to use the answer
   */
  description?: string;
}

/** What {@link createLookupKnowledgeTool} adds to the tool. */
export interface LookupKnowledgeToolExtras {
  /**
   * Closes the trace file the tool opened for `tracePath`, once the calls already traced are
   * written; an injected `traceSink` is left to its owner. A call after `close` opens the file
   * again. Not calling it is harmless: the descriptor keeps no process alive and is closed when
   * the tool is garbage-collected.
   */
  close(): Promise<void>;
}

/** The `description` option, undefined for the default. @throws LookupKnowledgeError `INVALID_OPTION` for anything but a non-blank string. */
function checkDescription(description: unknown): string | undefined {
  if (description === undefined || (typeof description === "string" && description.trim().length > 0))
    return description;
  throw new LookupKnowledgeError(
    "INVALID_OPTION",
    `option description must be a non-empty string telling the model what the tool searches, got ${typeof description === "string" ? "a blank string" : typeof description}. Leave it out for the default.`,
  );
}

/**
 * Creates the `lookup_knowledge` tool (or one of another `name`). Options are resolved and the
 * retrieval graph compiled once, here; the schema (the base's domains offered in its `domain`
 * field) and the default description follow the generation a followed base serves; each call runs the graph, returns the evidence text for the model and the full
 * {@link LookupResult} (with its stage `timings`) as the artifact, and appends one trace line
 * through a trace file kept open between calls (`close()` releases it).
 * @throws LookupKnowledgeError `INVALID_OPTION` for a bad name, description or retrieval option.
 * @example
 * const kb = await KnowledgeBase.load(".index");
 * const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, name: "lookup_billing_docs" });
 * const agent = createAgent({ model, tools: [lookup] });
 * // ...when done with it:
 * await lookup.close();
 */
export function createLookupKnowledgeTool(options: LookupKnowledgeToolOptions) {
  let custom = checkDescription((options as Partial<LookupKnowledgeToolOptions> | null | undefined)?.description);
  const runner = createLookupRunner(options, TOOL_NAME);
  const defaultLimit = Math.min(DEFAULT_LIMIT, runner.settings.maxLimit);
  // The domains the model may be told, never one only hidden documents hold, of the generation
  // current now: a followed base's new generation can add or hide a domain.
  let made: { domains: readonly string[]; description: string; schema: LookupKnowledgeSchema } | null = null;
  const current = () => {
    const domains = runner.sharedDomains;
    if (made === null || made.domains !== domains)
      made = {
        domains,
        description: describeLookupKnowledge(domains),
        schema: createLookupKnowledgeSchema(runner.settings.maxLimit, { domains }),
      };
    return made;
  };

  const lookup = tool(
    async (input, config): Promise<[string, LookupResult]> => {
      const result = await runner.run(
        { query: input.query, domain: normalizeDomain(input.domain), limit: input.limit ?? defaultLimit },
        config,
      );
      return [formatEvidence(result, { knownDomains: runner.domainsOf(result) }), result];
    },
    {
      name: runner.name,
      description: custom ?? current().description,
      schema: current().schema,
      responseFormat: "content_and_artifact",
    },
  );
  Object.defineProperty(lookup, "description", {
    get: () => custom ?? current().description,
    set: (value: unknown) => (custom = checkDescription(value)),
    enumerable: true,
    configurable: true,
  });
  Object.defineProperty(lookup, "schema", { get: () => current().schema, enumerable: true, configurable: true });
  setRefusalTrace(lookup, (refusal, identity) => runner.traceRefusal(refusal, identity));
  const extras: LookupKnowledgeToolExtras = { close: () => runner.close() };
  return Object.assign(lookup, extras);
}
