import { basename, join, resolve } from "node:path";
import { VARIANTS, type VariantName } from "../variants.js";
import { GATE_METADATA_KEY, type BaselineGateConfig } from "./baseline-gate.js";
import type { GoldenTestsConfig } from "./golden-tests.js";
import type { LookupProviderConfig } from "./lookup-provider.js";
import { evalModuleRef } from "./module-path.js";

/** What a golden-set eval runs on. Relative paths are resolved against the current folder. */
export interface GoldenEvalConfigOptions {
  /** The golden set (YAML). */
  golden: string;
  /** The Markdown corpus the tool indexes. */
  corpus: string;
  /** The baseline file the gate compares the per-variant means with. */
  baseline: string;
  /** Where results, traces and the gate's verdict go. */
  out: string;
  /** The variants, each one provider. */
  variants: readonly VariantName[];
  /** Write the measured means to the baseline before gating. @default false */
  updateBaseline?: boolean;
  /** The run's name in promptfoo's history. @default "lookup_knowledge on <corpus folder>: <golden file>" */
  description?: string;
  /** Lookups in flight at once. @default 4 */
  maxConcurrency?: number;
}

/** The promptfoo config (UnifiedConfig, as plain data) of a golden-set eval. */
export type PromptfooConfigData = Record<string, unknown>;

/**
 * A promptfoo config for the suite on any corpus and golden set (pure): one provider per variant,
 * the golden-set test generator, the baseline gate as an `afterAll` extension. Every module is an
 * absolute path into this package, so the file runs with `npx promptfoo eval -c <file>` from any folder.
 */
export function goldenEvalConfig(options: GoldenEvalConfigOptions): PromptfooConfigData {
  const golden = resolve(options.golden);
  const corpus = resolve(options.corpus);
  const out = resolve(options.out);
  const provider = evalModuleRef("promptfoo/lookup-provider");
  const tests: GoldenTestsConfig = { golden, corpus };
  const gate: BaselineGateConfig = { baseline: resolve(options.baseline), out, ...(options.updateBaseline ? { updateBaseline: true } : {}) };
  return {
    description: options.description ?? `lookup_knowledge on ${basename(corpus)}: ${basename(golden)}`,
    prompts: ["{{query}}"],
    providers: options.variants.map((variant) => {
      const config: LookupProviderConfig = { variant, corpusDir: corpus, traceDir: join(out, "traces") };
      return { id: provider, label: VARIANTS[variant].label, config };
    }),
    tests: [{ path: evalModuleRef("promptfoo/golden-tests"), config: tests }],
    extensions: [evalModuleRef("promptfoo/baseline-gate", "afterAll")],
    metadata: { [GATE_METADATA_KEY]: gate },
    evaluateOptions: { maxConcurrency: options.maxConcurrency ?? 4 },
  };
}
