import { usageError, type CommandSpec } from "./command-spec.js";
import { BEIR_EVAL_OPTIONS, runBeirEvalCommand } from "./eval-beir-command.js";
import { GOLDEN_EVAL_OPTIONS, runGoldenEvalCommand } from "./eval-golden-command.js";

/** `lookup-knowledge eval`: the promptfoo suite on a golden set (`--golden`), or a BEIR-format dataset (`--dataset`). */
export const EVAL_COMMAND: CommandSpec = {
  name: "eval",
  summary: "Evaluate retrieval: the promptfoo suite on your golden set (--golden), or a BEIR-format dataset (--dataset).",
  options: { ...GOLDEN_EVAL_OPTIONS, ...BEIR_EVAL_OPTIONS },
  async run(parsed, io) {
    const golden = typeof parsed.values.golden === "string";
    const dataset = typeof parsed.values.dataset === "string";
    if (golden === dataset) throw usageError("eval", "needs exactly one of --golden FILE (with --corpus DIR) or --dataset DIR.");
    return golden ? runGoldenEvalCommand(parsed, io) : runBeirEvalCommand(parsed, io);
  },
};
