import { describe, expect, it } from "vitest";
import { PREAMBLE_SLUG, chunkMarkdown } from "../../src/corpus/chunk-markdown.js";
import type { DocumentMeta } from "../../src/types.js";

const NO_META: DocumentMeta = { keywords: [], entities: [], aliases: [] };

function chunk(body: string, meta: Partial<DocumentMeta> = {}, file = "ops/runbook.md") {
  return chunkMarkdown({ file, body, meta: { ...NO_META, ...meta } });
}

const RUNBOOK = [
  "Read this before any deploy.",
  "",
  "# Deploy",
  "Deploy text.",
  "",
  "## Rollback",
  "Rollback text.",
  "",
  "### Canary",
  "Canary text.",
  "",
  "## Verify",
  "Verify text.",
].join("\n");

describe("chunkMarkdown", () => {
  it("gives each section a breadcrumb that starts with the document title", () => {
    const chunks = chunk(RUNBOOK, { title: "Release runbook" });

    expect(chunks.map((c) => [c.source, c.breadcrumb])).toEqual([
      ["ops/runbook.md#top", ["Release runbook"]],
      ["ops/runbook.md#deploy", ["Release runbook", "Deploy"]],
      ["ops/runbook.md#rollback", ["Release runbook", "Deploy", "Rollback"]],
      ["ops/runbook.md#canary", ["Release runbook", "Deploy", "Rollback", "Canary"]],
      ["ops/runbook.md#verify", ["Release runbook", "Deploy", "Verify"]],
    ]);
    expect(chunks.every((c) => c.title === "Release runbook" && c.file === "ops/runbook.md")).toBe(true);
  });

  it("keeps each section's own text, trimmed, without its heading or its subsections", () => {
    const chunks = chunk(RUNBOOK);

    expect(chunks.map((c) => c.content)).toEqual(["Read this before any deploy.", "Deploy text.", "Rollback text.", "Canary text.", "Verify text."]);
  });

  it("uses only the heading path as breadcrumb and sets no title when the document has none", () => {
    const chunks = chunk(RUNBOOK);

    expect(chunks[0].breadcrumb).toEqual([]);
    expect(chunks[2].breadcrumb).toEqual(["Deploy", "Rollback"]);
    expect(chunks[0]).not.toHaveProperty("title");
  });

  it("names the text before the first heading #top", () => {
    expect(PREAMBLE_SLUG).toBe("top");
    expect(chunk("Just a preamble.\n\n## Later\nMore.")[0]).toMatchObject({ source: "ops/runbook.md#top", content: "Just a preamble." });
  });

  it("gives repeated headings -1 and -2 suffixes, and a heading named Top does not clash with the preamble", () => {
    const body = ["intro", "## Steps", "a", "## Steps", "b", "## Steps", "c", "## Top", "d"].join("\n");

    expect(chunk(body).map((c) => c.source)).toEqual([
      "ops/runbook.md#top",
      "ops/runbook.md#steps",
      "ops/runbook.md#steps-1",
      "ops/runbook.md#steps-2",
      "ops/runbook.md#top-1",
    ]);
  });

  it("treats heading lines inside fenced code as text", () => {
    const body = ["## Script", "Run this:", "```bash", "# not a heading", "## nor this", "```", "Done.", "~~~", "```", "# still code", "~~~"].join("\n");

    const chunks = chunk(body);

    expect(chunks).toHaveLength(1);
    expect(chunks[0].source).toBe("ops/runbook.md#script");
    expect(chunks[0].content).toContain("# not a heading");
    expect(chunks[0].content).toContain("## nor this");
    expect(chunks[0].content).toContain("# still code");
  });

  it("drops sections with no text of their own while their subsections keep the heading in the breadcrumb", () => {
    const chunks = chunk("# Deploy\n\n## Rollback\nRoll back like this.\n\n## Empty\n   \n", { title: "Runbook" });

    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ source: "ops/runbook.md#rollback", breadcrumb: ["Runbook", "Deploy", "Rollback"] });
  });

  it("nests ### under the nearest shallower headings and closes deeper ones on the way up", () => {
    const body = ["# A", "### C", "c text", "## B", "b text", "#### D", "d text", "# E", "e text"].join("\n");

    expect(chunk(body).map((c) => c.breadcrumb)).toEqual([["A", "C"], ["A", "B"], ["A", "B", "D"], ["E"]]);
  });

  it("strips closing hashes from headings and ignores # without a following space", () => {
    const chunks = chunk("## Install ##\n#hashtag is text\n");

    expect(chunks).toEqual([expect.objectContaining({ source: "ops/runbook.md#install", breadcrumb: ["Install"], content: "#hashtag is text" })]);
  });

  it("splits CRLF files like LF files", () => {
    expect(chunk("# One\r\nfirst\r\n# Two\r\nsecond\r\n").map((c) => [c.source, c.content])).toEqual([
      ["ops/runbook.md#one", "first"],
      ["ops/runbook.md#two", "second"],
    ]);
  });

  it("splits CR-only files like LF files", () => {
    expect(chunk("intro\r# One\rfirst\r\r## Two\rsecond\r").map((c) => [c.source, c.breadcrumb, c.content])).toEqual([
      ["ops/runbook.md#top", [], "intro"],
      ["ops/runbook.md#one", ["One"], "first"],
      ["ops/runbook.md#two", ["One", "Two"], "second"],
    ]);
  });

  it("reads heading lines of 20,000 blanks, tabs and hashes as ordinary headings", () => {
    const body = [
      `# ${" ".repeat(20_000)}Spaces${" ".repeat(20_000)}`,
      "one",
      `## ${"\t".repeat(20_000)}Tabs ${"#".repeat(20_000)}`,
      "two",
      `### ${" #\t".repeat(10_000)}x`,
      "three",
      `#${" ".repeat(30_000)}`,
      "four",
    ].join("\n");

    expect(chunk(body).map((c) => [c.source, c.breadcrumb.at(-1)?.slice(0, 10)])).toEqual([
      ["ops/runbook.md#spaces", "Spaces"],
      ["ops/runbook.md#tabs", "Tabs"],
      ["ops/runbook.md#x", "#\t #\t #\t #"],
      ["ops/runbook.md#section", undefined],
    ]);
  });

  it("gives 50,000 repeated headings 50,000 distinct sources", () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `## Step\nstep ${i}`).join("\n");

    const chunks = chunk(body);

    expect(chunks).toHaveLength(50_000);
    expect(new Set(chunks.map((c) => c.source)).size).toBe(50_000);
    expect(chunks[49_999]).toMatchObject({ source: "ops/runbook.md#step-49999", content: "step 49999" });
  });

  it("keeps a long heading in the breadcrumb and cuts only its slug", () => {
    const heading = "Rollback ".repeat(3_000).trim();

    const [only] = chunk(`# ${heading}\ntext`);

    expect(only.breadcrumb).toEqual([heading]);
    expect(only.source).toBe(`ops/runbook.md#${"rollback-".repeat(11)}r`);
  });

  it("returns no chunks for a body of headings only", () => {
    expect(chunk("# A\n## B\n")).toEqual([]);
  });

  it("attaches the document's meta to every chunk", () => {
    const meta = { domain: "ops", keywords: ["deploy"] };

    expect(chunk(RUNBOOK, meta).every((c) => c.meta.domain === "ops" && c.meta.keywords[0] === "deploy")).toBe(true);
  });
});
