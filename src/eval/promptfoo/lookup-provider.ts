import type { CorpusCalibration } from "../../calibration/calibration.js";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { CallApiContext, ProviderOptions, ProviderResponse } from "./promptfoo-shapes.js";
import { LookupKnowledgeError } from "../../errors.js";
import { KnowledgeBase } from "../../knowledge-base/knowledge-base.js";
import { createLookupKnowledgeTool } from "../../tool/lookup-knowledge-tool.js";
import { readTraceFile } from "../../trace/read-trace-file.js";
import { CONTENT_PREVIEW_CHARS } from "../../trace/trace-record.js";
import type { LookupResult } from "../../types.js";
import { compactLookup, compactTraceLine, type CompactLookup, type CompactTraceLine } from "./compact-lookup.js";
import { parseVariants, VARIANTS, variantSlug, type VariantName } from "../variants.js";

/** `config` of the provider in promptfooconfig.yaml. */
export interface LookupProviderConfig {
  /** Which retrieval variant this provider runs. @default "L0+L1" */
  variant?: string;
  /** Markdown corpus to index. @default "corpus" */
  corpusDir?: string;
  /** Folder for the per-variant trace files. @default "eval/results/promptfoo/traces" */
  traceDir?: string;
  /** Evidence blocks per lookup (the ranking metrics look at the top 10). @default 10 */
  limit?: number;
}

/**
 * What the provider puts in `metadata`: structure out of band, never parsed back out of text,
 * and only what the assertions and the report read (compact projections, not whole artifacts).
 */
export interface LookupProviderMetadata {
  /** The variant the provider ran. */
  variant: VariantName;
  /** The lookup result, projected for the assertions. */
  artifact: CompactLookup;
  /** The trace lines written for this call, read back from the trace file and projected. */
  traceLines: CompactTraceLine[];
  /** The knowledge base's fingerprint; a baseline measured on another corpus does not gate this one. */
  corpusFingerprint: string;
  /** The knowledge base's index-time calibration, which the tool's fusion and relevance use. */
  calibration: CorpusCalibration;
}

/**
 * The trace records of one invocation, read back from the trace file. Torn or partial lines
 * (another process's fragment, a full disk) are skipped, not fatal; a trace that was never
 * written, or a path that is not a regular file, gives none, which the trace assertion then reports.
 */
export async function traceLinesFor(tracePath: string, invocationId: string): Promise<unknown[]> {
  try {
    const { records } = await readTraceFile(tracePath);
    return records.filter((record) => record.invocation_id === invocationId);
  } catch (error) {
    // A path that is no regular file (the sink refused it too): no lines, which trace-line then fails.
    if (error instanceof LookupKnowledgeError && error.code === "TRACE_UNAVAILABLE") return [];
    throw error;
  }
}

const knowledgeBases = new Map<string, Promise<KnowledgeBase>>();
const tools = new Map<string, Promise<ReturnType<typeof createLookupKnowledgeTool>>>();

function knowledgeBase(corpusDir: string): Promise<KnowledgeBase> {
  let kb = knowledgeBases.get(corpusDir);
  if (!kb) knowledgeBases.set(corpusDir, (kb = KnowledgeBase.build({ corpusDir })));
  return kb;
}

/**
 * A promptfoo provider that calls the real `lookup_knowledge` tool: the evidence text is the
 * output, the artifact and this call's trace lines are metadata. One knowledge base is built
 * per process and shared by the variants.
 */
export default class LookupKnowledgeProvider {
  /** The provider's config with the defaults applied. */
  readonly config: Required<LookupProviderConfig>;
  /** The variant this provider runs. */
  readonly variant: VariantName;
  private readonly providerId: string;
  /** The label in promptfoo's tables. @default the variant's label (`L0 only`, `L1 only`, `L0+L1`) */
  readonly label?: string;

  /**
   * promptfoo passes the provider's entry of the config.
   * @param options `config` ({@link LookupProviderConfig}), and optionally `id` and `label`.
   * @throws LookupKnowledgeError `INVALID_OPTION` for an unknown `config.variant`.
   */
  constructor(options: ProviderOptions = {}) {
    const config = (options.config ?? {}) as LookupProviderConfig;
    this.variant = parseVariants(config.variant ?? "L0+L1")[0];
    this.config = { variant: this.variant, corpusDir: config.corpusDir ?? "corpus", traceDir: config.traceDir ?? "eval/results/promptfoo/traces", limit: config.limit ?? 10 };
    this.providerId = options.id ?? `lookup-knowledge:${this.variant}`;
    this.label = options.label ?? VARIANTS[this.variant].label;
  }

  /** The provider's id in promptfoo's results. @default `lookup-knowledge:<variant>` */
  id(): string {
    return this.providerId;
  }

  private get tracePath(): string {
    return join(this.config.traceDir, `${variantSlug(this.variant)}.jsonl`);
  }

  private tool(): Promise<ReturnType<typeof createLookupKnowledgeTool>> {
    const key = `${this.config.corpusDir}|${this.tracePath}`;
    let tool = tools.get(key);
    if (!tool) {
      tool = (async () => {
        // Starts each run with a fresh trace; if it cannot be cleared, the tool's own write fails too and trace-line reports it.
        await rm(this.tracePath, { force: true }).catch(() => undefined);
        const kb = await knowledgeBase(this.config.corpusDir);
        return createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: this.tracePath, ...VARIANTS[this.variant].options });
      })();
      tools.set(key, tool);
    }
    return tool;
  }

  /**
   * Runs one lookup with the prompt as the query (and `vars.domain`, when set, as the forced domain).
   * A failed lookup is an `error` in the response, never a throw.
   * @returns the evidence text as `output`, {@link LookupProviderMetadata} as `metadata`.
   */
  async callApi(prompt: string, context?: CallApiContext): Promise<ProviderResponse> {
    try {
      const tool = await this.tool();
      const vars = context?.vars ?? {};
      const domain = typeof vars.domain === "string" && vars.domain.length > 0 ? vars.domain : undefined;
      const args = { query: prompt, limit: this.config.limit, ...(domain ? { domain } : {}) };
      const message = await tool.invoke({ type: "tool_call", id: `eval-${Date.now()}`, name: tool.name, args });
      const artifact = message.artifact as LookupResult;
      const kb = await knowledgeBase(this.config.corpusDir);
      const lines = await traceLinesFor(this.tracePath, artifact.invocationId);
      const metadata: LookupProviderMetadata = {
        variant: this.variant,
        artifact: compactLookup(artifact),
        traceLines: lines.map((line) => compactTraceLine(line, artifact, CONTENT_PREVIEW_CHARS)),
        corpusFingerprint: kb.fingerprint,
        calibration: kb.calibration,
      };
      return { output: String(message.content), metadata: metadata as unknown as Record<string, unknown> };
    } catch (error) {
      return { error: `lookup_knowledge failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
