import { LookupKnowledgeError } from "../errors.js";
import type { CliIO, CommandSpec, ParsedCommand } from "./command-spec.js";

/** The flags of the promptfoo suite on a golden set (`eval --golden FILE --corpus DIR`). */
export const GOLDEN_EVAL_OPTIONS: CommandSpec["options"] = {
  golden: { type: "string", value: "FILE", description: "A golden set (YAML): questions with the chunk sources that answer them." },
};

/** `lookup-knowledge eval --golden FILE --corpus DIR`. */
export async function runGoldenEvalCommand(_parsed: ParsedCommand, _io: CliIO): Promise<number> {
  throw new LookupKnowledgeError("INVALID_OPTION", "eval --golden is being built.");
}
