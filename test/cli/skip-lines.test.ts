import { describe, expect, it } from "vitest";
import { skipByLine } from "../../src/cli/skip-lines.js";

const tally = {
  lineOfDocument: [2, 5, 9],
  lineOfSource: new Map<string, number | null>([
    ["handbook.md", 2],
    ["https://x/a#top", 5],
    ["shared.txt", null],
  ]),
};

describe("skipByLine", () => {
  it("says a document skipped by its position by the line it came from", () => {
    expect(
      skipByLine(
        "lookup-knowledge: skipped document 2: no source id: metadata.source must be a non-empty string",
        "in.jsonl",
        tally,
      ),
    ).toBe("lookup-knowledge: in.jsonl line 5 skipped: no source id: metadata.source must be a non-empty string");
  });

  it("says a document skipped by its source id by its line, keeping the source named", () => {
    expect(
      skipByLine('lookup-knowledge: skipped handbook.md: metadata field "keywords" must be a list', "in.jsonl", tally),
    ).toBe('lookup-knowledge: in.jsonl line 2 skipped (handbook.md): metadata field "keywords" must be a list');
    expect(skipByLine("lookup-knowledge: skipped https://x/a#top#line-3: too large: 9 characters", "-", tally)).toBe(
      "lookup-knowledge: - line 5 skipped (https://x/a#top#line-3): too large: 9 characters",
    );
  });

  it("leaves a skip of a source of several lines, an unknown name and any other message as they are", () => {
    for (const message of [
      'lookup-knowledge: skipped shared.txt#part-2: metadata field "title" must be a string',
      "lookup-knowledge: skipped document 7: pageContent must be a string",
      "lookup-knowledge: skipped other.md: reason",
      "lookup-knowledge: the pgvector table has rows of other generations",
    ])
      expect(skipByLine(message, "in.jsonl", tally)).toBe(message);
  });
});
