import { LookupKnowledgeError } from "../errors.js";
import type { CommandSpec } from "./command-spec.js";

/** `lookup-knowledge traces summary [FILE]`. */
export const TRACES_COMMAND: CommandSpec = {
  name: "traces",
  summary: "Summarise a JSONL trace file: lookup_knowledge traces summary [FILE].",
  options: {},
  async run() {
    throw new LookupKnowledgeError("INVALID_OPTION", "traces summary is being built.");
  },
};
