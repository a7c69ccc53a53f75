import { usageError, type CommandSpec } from "./command-spec.js";
import { BEIR_EVAL_OPTIONS, GOLDEN_EVAL_OPTIONS } from "./eval-options.js";

/** `lookup-knowledge eval`: the promptfoo suite on a golden set (`--golden`), or a BEIR-format dataset (`--dataset`). */
export const EVAL_COMMAND: CommandSpec = {
  name: "eval",
  summary:
    "Evaluate retrieval: the promptfoo suite on your golden set (--golden), or a BEIR-format dataset (--dataset).",
  // Golden last: its descriptions of the shared flags (--out, --variants, --json) cover both modes.
  options: { ...BEIR_EVAL_OPTIONS, ...GOLDEN_EVAL_OPTIONS },
  async run(parsed, io) {
    const golden = typeof parsed.values.golden === "string";
    const dataset = typeof parsed.values.dataset === "string";
    if (golden === dataset)
      throw usageError("eval", "needs exactly one of --golden FILE (with --corpus DIR) or --dataset DIR.");
    // Each harness loads only when it runs.
    if (golden) return (await import("./eval-golden-command.js")).runGoldenEvalCommand(parsed, io);
    return (await import("./eval-beir-command.js")).runBeirEvalCommand(parsed, io);
  },
};
