import { VARIANT_NAMES } from "../eval/variants.js";
import type { CommandSpec } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR } from "./defaults.js";

// The eval flags live apart from the commands' code, so that `--help` loads neither harness.

/** The flags of the BEIR-format evaluation (`eval --dataset DIR`). */
export const BEIR_EVAL_OPTIONS: CommandSpec["options"] = {
  dataset: {
    type: "string",
    value: "DIR",
    description: "A folder with corpus.jsonl, queries.jsonl and qrels/ (BEIR layout).",
  },
  split: { type: "string", value: "NAME", description: "The qrels split to score (default: test when present)." },
  variants: {
    type: "string",
    value: "LIST",
    default: VARIANT_NAMES.join(","),
    description: "Comma-separated variants to run.",
  },
  out: {
    type: "string",
    value: "DIR",
    description: "Where the report and runs are written (default: eval/results/beir-<dataset>-<split>).",
  },
  "l0-weight": {
    type: "string",
    value: "W",
    description: "With --dataset: weight of L0 in the fused score, 0 to 1 (default: the corpus calibration).",
  },
  depth: {
    type: "string",
    value: "N",
    default: "100",
    description: "With --dataset: ranked documents kept per query.",
  },
  json: { type: "boolean", description: "Print only the summary as JSON on stdout (progress and notes go to stderr)." },
};

/** The flags of the promptfoo suite on a golden set (`eval --golden FILE --corpus DIR`). */
export const GOLDEN_EVAL_OPTIONS: CommandSpec["options"] = {
  golden: {
    type: "string",
    value: "FILE",
    description: "A golden set (YAML): questions with the chunk sources that answer them (docs/evaluation.md).",
  },
  corpus: {
    type: "string",
    value: "DIR",
    default: DEFAULT_CORPUS_DIR,
    description: "With --golden: the Markdown corpus the golden set is about.",
  },
  baseline: {
    type: "string",
    value: "FILE",
    description: "With --golden: the gate's floors per variant (default: <golden without .yaml>.baseline.json).",
  },
  "update-baseline": {
    type: "boolean",
    description: "With --golden: write the measured means to the baseline file, then gate.",
  },
  variants: {
    type: "string",
    value: "LIST",
    default: VARIANT_NAMES.join(","),
    description: "Comma-separated variants to run.",
  },
  out: {
    type: "string",
    value: "DIR",
    description:
      "Where results and the report go (default: eval/results/promptfoo-<golden> or eval/results/beir-<dataset>-<split>).",
  },
  json: { type: "boolean", description: "Print only the summary as JSON on stdout (progress and notes go to stderr)." },
};
