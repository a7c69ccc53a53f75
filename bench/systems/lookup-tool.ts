import { createLookupKnowledgeTool, TOOL_NAME, type KnowledgeBase, type LookupResult } from "../../src/index.js";
import type { AccessScope } from "../../src/index.js";
import type { BenchSystem } from "./bench-system.js";

/** Per-stage milliseconds of each call, by stage name, as the artifact's `timings` gave them. */
export type StageSamples = Record<string, number[]>;

/** The tool under test plus what its artifacts reported. */
export interface ToolSystem {
  system: BenchSystem;
  /** Filled from `artifact.timings` of every timed call, when the library reports them. */
  stageSamples: StageSamples;
  /** Calls whose artifact had no `timings`. */
  callsWithoutTimings(): number;
  /** Stops collecting (after warm-up, before the timed calls) or starts again. */
  collect(on: boolean): void;
}

/** Numeric fields of `artifact.timings` (`{ l0Ms, embedMs?, l1Ms, mergeMs, traceMs, totalMs }`), if any. */
export function timingsOf(artifact: unknown): Record<string, number> | null {
  const timings = (artifact as { timings?: unknown } | null | undefined)?.timings;
  if (timings === null || typeof timings !== "object") return null;
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(timings))
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  return out;
}

/** A filtered variant of the tool system: its access scope, a forced domain, and its id and label. */
export interface ToolVariant {
  id: string;
  label: string;
  /** The tool's fixed `access` scope. @default none (unscoped) */
  access?: AccessScope;
  /** The `domain` argument of every call. @default none */
  domain?: string;
}

/**
 * Our tool as an agent calls it: `createLookupKnowledgeTool` with a JSONL trace file, invoked with
 * a ToolCall `{ type: "tool_call", id, name, args: { query } }` (plus `domain` for a variant that
 * forces one), so the result is a `ToolMessage` whose artifact is the `LookupResult`.
 */
export function createToolSystem(knowledgeBase: KnowledgeBase, tracePath: string, variant?: ToolVariant): ToolSystem {
  const lookup = createLookupKnowledgeTool({
    knowledgeBase,
    tracePath,
    ...(variant?.access !== undefined ? { access: variant.access } : {}),
  });
  const domain = variant?.domain;
  const stageSamples: StageSamples = {};
  let without = 0;
  let collecting = false;
  let calls = 0;
  const system: BenchSystem = {
    id: variant?.id ?? "tool",
    label: variant?.label ?? "lookup_knowledge tool (traced)",
    role: "ours",
    async run(query) {
      const message = await lookup.invoke({
        type: "tool_call",
        id: `bench-${calls++}`,
        name: TOOL_NAME,
        args: domain === undefined ? { query: query.text } : { query: query.text, domain },
      });
      const artifact = (message as { artifact?: LookupResult }).artifact;
      if (!collecting) return message;
      const timings = timingsOf(artifact);
      if (timings === null) without++;
      else for (const [stage, ms] of Object.entries(timings)) (stageSamples[stage] ??= []).push(ms);
      return message;
    },
  };
  return { system, stageSamples, callsWithoutTimings: () => without, collect: (on) => void (collecting = on) };
}
