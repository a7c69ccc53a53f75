import { describe, expect, it } from "vitest";
import { INDEX_COMMAND } from "../../src/cli/index-command.js";
import { documentsFlags } from "../../src/cli/index-documents-flags.js";
import { parseCommand } from "../../src/cli/parse-command.js";
import { LookupKnowledgeError } from "../../src/errors.js";

const flags = (...argv: string[]) => documentsFlags(parseCommand(INDEX_COMMAND, argv));

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("USAGE");
    return (error as Error).message;
  }
  throw new Error("no error");
}

describe("documentsFlags", () => {
  it("is null for a run over a corpus folder", () => {
    expect(flags()).toBeNull();
    expect(flags("--corpus", "docs", "--watch")).toBeNull();
  });

  it("applies the library's defaults: incremental cleanup, source ids from metadata.source", () => {
    expect(flags("--documents", "in.jsonl")).toEqual({
      documents: "in.jsonl",
      cleanup: "incremental",
      sourceIdKey: "source",
    });
    expect(flags("--documents", "-", "--cleanup", "full", "--source-id-key", "url")).toEqual({
      documents: "-",
      cleanup: "full",
      sourceIdKey: "url",
    });
  });

  it("refuses --documents with --corpus or --watch, and a cleanup it does not know", () => {
    expect(usageMessage(() => flags("--documents", "in.jsonl", "--corpus", "corpus"))).toContain(
      "index: --documents and --corpus are two sources; give one of them.",
    );
    expect(usageMessage(() => flags("--documents", "in.jsonl", "--watch"))).toContain(
      "--watch follows a corpus folder",
    );
    expect(usageMessage(() => flags("--documents", "in.jsonl", "--cleanup", "all"))).toContain(
      '--cleanup must be incremental or full, got "all".',
    );
  });

  it("refuses --cleanup and --source-id-key without --documents", () => {
    expect(usageMessage(() => flags("--cleanup", "full"))).toContain("--cleanup applies to --documents only");
    expect(usageMessage(() => flags("--source-id-key", "url"))).toContain(
      "--source-id-key applies to --documents only",
    );
  });
});
