import { describe, expect, it } from "vitest";
import { editOneSection, toMarkdownFiles } from "../../bench/dataset/write-markdown-corpus.js";
import { createPhaseRecorder } from "../../bench/measure/phase-recorder.js";

const docs = Array.from({ length: 25 }, (_, i) => ({
  id: `d${i}`,
  title: `Title "${i}"`,
  text: `text of doc ${i} with words`,
  metadata: {},
}));

describe("toMarkdownFiles", () => {
  it("puts perFile documents in each file, one ## section each, under a YAML title", () => {
    const files = toMarkdownFiles(docs, 10);
    expect(files.map((f) => f.path)).toEqual(["batch-0.md", "batch-1.md", "batch-2.md"]);
    expect(files[0].text.startsWith('---\ntitle: "SciFact batch 0"\n---\n')).toBe(true);
    expect(files[0].text.match(/^## /gm)).toHaveLength(10);
    expect(files[2].text.match(/^## /gm)).toHaveLength(5);
    expect(files[1].text).toContain('## Title "10"\n\ntext of doc 10 with words\n');
  });
});

describe("editOneSection", () => {
  it("changes the first word of one section's text and nothing else", () => {
    const [file] = toMarkdownFiles(docs, 10);
    const edited = editOneSection(file.text, 4, "benchedit");
    expect(edited).toContain('## Title "4"\n\nbenchedit of doc 4 with words');
    expect(edited.replace("benchedit", "text")).toBe(file.text);
    expect(() => editOneSection(file.text, 10, "x")).toThrow(RangeError);
  });
});

describe("createPhaseRecorder", () => {
  it("gives each phase the time from the previous phase's last event to its own last event", () => {
    let now = 0;
    const recorder = createPhaseRecorder(0, () => now);
    for (const [at, phase] of [
      [1, "keyword"],
      [3, "keyword"],
      [4, "fit"],
      [9, "fit"],
      [12, "embed"],
      [20, "embed"],
    ] as const) {
      now = at;
      recorder.record({ phase });
    }
    expect(recorder.phases().map((p) => [p.phase, p.durationMs, p.events])).toEqual([
      ["keyword", 3, 2],
      ["fit", 6, 2],
      ["embed", 11, 2],
    ]);
  });
});
