import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { createTempCorpora } from "./helpers/temp-corpus.js";

const temp = createTempCorpora("lk-load-");
afterAll(() => temp.cleanup());

async function load(files: Record<string, string | Uint8Array>) {
  const dir = await temp.make();
  await temp.write(dir, files);
  return { dir, corpus: await loadCorpus(dir) };
}

function reasonOf(corpus: { skipped: { file: string; reason: string }[] }, file: string): string | undefined {
  return corpus.skipped.find((skip) => skip.file === file)?.reason;
}

const exists = (path: string) => access(path).then(() => true, () => false);

describe("loadCorpus: frontmatter is data", () => {
  it("never runs the code of ---js, ---javascript, ---coffee or unknown-language frontmatter, and skips each file naming its language", async () => {
    const dir = await temp.make();
    const proof = (name: string) => join(dir, `proof-${name}.txt`);
    const code = (name: string) => `{ title: (require("node:fs").writeFileSync(${JSON.stringify(proof(name))}, "ran"), "x") }`;
    await temp.write(dir, {
      "a-js.md": `---js\n${code("js")}\n---\nbody a\n`,
      "b-javascript.md": `---javascript\n${code("javascript")}\n---\nbody b\n`,
      "c-coffee.md": `---coffee\ntitle: do -> require("node:fs").writeFileSync(${JSON.stringify(proof("coffee"))}, "ran")\n---\nbody c\n`,
      "d-unknown.md": `---toml\ntitle = "x"\n---\nbody d\n`,
      "e-upper.md": `---JS\n${code("upper")}\n---\nbody e\n`,
      "good.md": "---\ntitle: Good\n---\nbody\n",
    });

    const corpus = await loadCorpus(dir);

    for (const name of ["js", "javascript", "coffee", "upper"]) expect(await exists(proof(name)), name).toBe(false);
    for (const [file, language] of [["a-js.md", "js"], ["b-javascript.md", "javascript"], ["c-coffee.md", "coffee"], ["d-unknown.md", "toml"], ["e-upper.md", "JS"]]) {
      expect(reasonOf(corpus, file), file).toMatch(new RegExp(`language "${language}" is not accepted.*YAML.*JSON`));
    }
    expect(corpus.chunks.map((chunk) => chunk.file)).toEqual(["good.md"]);
  });

  it("reads YAML with the core schema: a date stays a string, and YAML 1.1 words like yes stay words", async () => {
    const { corpus } = await load({ "dated.md": "---\ntitle: 2024-01-01\ndomain: yes\nkeywords: [on, 2024-02-03]\n---\nRelease notes.\n" });

    expect(corpus.skipped).toEqual([]);
    expect(corpus.chunks[0].meta).toMatchObject({ title: "2024-01-01", domain: "yes", keywords: ["on", "2024-02-03"] });
  });

  it("reads numbers in text fields as they are written in the file", async () => {
    const { corpus } = await load({ "python.md": "---\ntitle: 1.10\nkeywords: [3.10, 3.11, 0x1F, 1e3]\n---\nSupported versions.\n" });

    expect(corpus.chunks[0].meta).toMatchObject({ title: "1.10", keywords: ["3.10", "3.11", "0x1F", "1e3"] });
  });

  it("still refuses a boolean where text is expected, naming the field", async () => {
    const { corpus } = await load({ "flag.md": "---\ntitle: Flags\ndomain: true\n---\nBody.\n" });

    expect(reasonOf(corpus, "flag.md")).toMatch(/"domain" must be a string, got boolean/);
  });

  it.each([
    ["a JavaScript function tag", "title: !!js/function 'function () { return 1 }'", /Unresolved tag.*js\/function/],
    ["a JavaScript regexp tag", "title: !!js/regexp /x/", /Unresolved tag.*js\/regexp/],
    ["a local tag", "title: !shell 'id > proof.txt'", /Unresolved tag: !shell/],
    ["a YAML 1.1 binary tag", "title: !!binary aGVsbG8=", /Unresolved tag.*binary/],
    ["a YAML 1.1 set", "keywords: !!set {a, b}", /Unresolved tag.*set/],
    ["a duplicate key", "title: One\ntitle: Two", /unique/],
    ["a duplicate key in a nested mapping", "title: One\nextra: {a: 1, a: 2}", /unique, and "a" repeats/],
    ["a second YAML document", "title: a\n...\ntitle: b", /more than one YAML document/],
    ["a closing line with more after its dashes", "title: a\n--- x\ntitle: b", /the line that closes it holds more than "---"/],
    ["a list at the top level", "- title\n- domain", /must be a mapping.*got a list/],
    ["a plain word at the top level", "just words", /must be a mapping.*got a string/],
  ])("skips a file whose YAML frontmatter has %s", async (_label, yaml, reason) => {
    const { corpus } = await load({ "bad.md": `---\n${yaml}\n---\nBody.\n` });

    expect(corpus.chunks).toEqual([]);
    expect(reasonOf(corpus, "bad.md")).toMatch(reason);
  });

  it("reads a frontmatter of 200,000 keys in linear time (the parser's own unique-key check is quadratic)", async () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `k${i}: v`).join("\n");
    const { corpus } = await load({ "keys.md": `---\ntitle: Keys\n${keys}\n---\nBody.\n` });
    expect(corpus.chunks.map((chunk) => chunk.title)).toEqual(["Keys"]);
  });

  it("skips a file whose frontmatter, repeated over its many sections, would exhaust memory", async () => {
    const keywords = Array.from({ length: 10_000 }, (_, i) => `canary w${i}`).join(", ");
    const sections = Array.from({ length: 1000 }, (_, i) => `## Section ${i}\n\nText ${i}.`).join("\n\n");
    const { corpus } = await load({ "wide.md": `---\ntitle: Wide\nkeywords: [${keywords}]\n---\n${sections}\n`, "ok.md": "---\ntitle: Fine\n---\nBody.\n" });
    expect(corpus.chunks.map((chunk) => chunk.file)).toEqual(["ok.md"]);
    expect(reasonOf(corpus, "wide.md")).toMatch(/frontmatter too large for its sections: \d+ characters .* each of 1000 sections/);
  });

  it("keeps a 1 MB title on a file of a few sections", async () => {
    const title = "T".repeat(1_000_000);
    const { corpus } = await load({ "long.md": `---\ntitle: ${title}\n---\nIntro.\n\n## Part\n\nMore.\n` });
    expect(corpus.chunks.map((chunk) => chunk.title?.length)).toEqual([1_000_000, 1_000_000]);
  });

  it("skips a YAML alias bomb without expanding it", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++) levels.push(`l${i}: &l${i} [${Array(10).fill(i === 1 ? "*a" : `*l${i - 1}`).join(", ")}]`);
    const { corpus } = await load({ "bomb.md": `---\n${levels.join("\n")}\n---\nBody.\n` });

    expect(reasonOf(corpus, "bomb.md")).toMatch(/alias count/);
  });

  it("names the file line of a YAML syntax error", async () => {
    const { corpus } = await load({ "broken.md": "---\ntitle: ok\ndomain: [people\nkeywords: x\n---\nBody.\n" });

    expect(reasonOf(corpus, "broken.md")).toMatch(/^malformed frontmatter: .* at line 4, column 1$/);
  });

  it("reads JSON frontmatter and refuses a JSON list at the top level", async () => {
    const { corpus } = await load({
      "json.md": '---json\n{ "title": "From JSON", "keywords": ["a", "b"] }\n---\nBody.\n',
      "json-list.md": '---json\n["a"]\n---\nBody.\n',
      "json-broken.md": '---json\n{ "title": \n---\nBody.\n',
    });

    expect(corpus.chunks.map((chunk) => [chunk.file, chunk.meta.title, chunk.meta.keywords])).toEqual([["json.md", "From JSON", ["a", "b"]]]);
    expect(reasonOf(corpus, "json-list.md")).toMatch(/must be a mapping.*got a list/);
    expect(reasonOf(corpus, "json-broken.md")).toMatch(/^malformed frontmatter: /);
  });

  it("says where broken JSON frontmatter fails without quoting the file's text", async () => {
    const { corpus } = await load({ "json-secret.md": '---json\n{ "title": "A", secret-token-123 }\n---\nBody.\n' });

    const reason = reasonOf(corpus, "json-secret.md");
    expect(reason).toMatch(/^malformed frontmatter: invalid JSON at character \d+ of \d+$/);
    expect(reason).not.toContain("secret");
  });

  it("accepts ---yaml and ---yml openings and an empty frontmatter", async () => {
    const { corpus } = await load({
      "a.md": "---yaml\ntitle: A\n---\nBody a.\n",
      "b.md": "--- yml \ntitle: B\n---\nBody b.\n",
      "c.md": "---\n---\nBody c.\n",
      "d.md": "---\n# only a comment\n---\nBody d.\n",
    });

    expect(corpus.skipped).toEqual([]);
    expect(corpus.chunks.map((chunk) => [chunk.file, chunk.title ?? null, chunk.content])).toEqual([
      ["a.md", "A", "Body a."],
      ["b.md", "B", "Body b."],
      ["c.md", null, "Body c."],
      ["d.md", null, "Body d."],
    ]);
  });

  it("skips a frontmatter that is opened and never closed, saying so", async () => {
    const { corpus } = await load({ "open.md": "---\ntitle: Never closed\n\n# Heading\nBody text.\n" });

    expect(reasonOf(corpus, "open.md")).toMatch(/never closed/);
  });
});

describe("loadCorpus: line endings and text", () => {
  const LF = "---\ntitle: Runbook\n---\nIntro.\n\n# One\nfirst\n\n## Two\nsecond\n";

  it("reads CR-only and CRLF files exactly like the LF file", async () => {
    const { corpus } = await load({
      "cr.md": LF.replaceAll("\n", "\r"),
      "crlf.md": LF.replaceAll("\n", "\r\n"),
      "lf.md": LF,
    });

    expect(corpus.skipped).toEqual([]);
    const byFile = (file: string) => corpus.chunks.filter((chunk) => chunk.file === file).map(({ source, breadcrumb, content }) => [source.split("#")[1], breadcrumb, content]);
    expect(byFile("lf.md")).toEqual([
      ["top", ["Runbook"], "Intro."],
      ["one", ["Runbook", "One"], "first"],
      ["two", ["Runbook", "One", "Two"], "second"],
    ]);
    expect(byFile("cr.md")).toEqual(byFile("lf.md"));
    expect(byFile("crlf.md")).toEqual(byFile("lf.md"));
  });

  it("ignores a leading byte order mark before the frontmatter", async () => {
    const { corpus } = await load({ "bom.md": `\uFEFF${LF}` });

    expect(corpus.chunks[0]).toMatchObject({ title: "Runbook", content: "Intro." });
  });

  it("skips an empty file, a file of blanks and a file with invalid UTF-8, each with its reason", async () => {
    const { corpus } = await load({ "empty.md": "", "blank.md": " \n\r\n\t", "latin1.md": Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x0a]) });

    expect(corpus.skipped).toEqual([
      { file: "blank.md", reason: expect.stringMatching(/^no text: the file is empty/) },
      { file: "empty.md", reason: expect.stringMatching(/^no text: the file is empty/) },
      { file: "latin1.md", reason: expect.stringMatching(/^invalid UTF-8/) },
    ]);
  });

  it("skips a file of frontmatter only, ending at or after its closing line, as having no text", async () => {
    const { corpus } = await load({
      "at.md": "---\ntitle: Nothing\n---",
      "after.md": "---\ntitle: Nothing\n---\n",
      "blank-body.md": "---\ntitle: Nothing\n---\n\n \n",
      "crlf.md": "\uFEFF---\r\ntitle: Nothing\r\n---\r\n",
    });

    expect(corpus.chunks).toEqual([]);
    expect(corpus.skipped).toEqual(
      ["after.md", "at.md", "blank-body.md", "crlf.md"].map((file) => ({ file, reason: "no text: the file has frontmatter or headings only" })),
    );
  });

  it("indexes a file whose title is one megabyte long", async () => {
    const title = "Long ".repeat(200_000).trim();
    const { corpus } = await load({ "long.md": `---\ntitle: ${title}\n---\nBody.\n` });

    expect(corpus.chunks[0].title).toBe(title);
  });

  it("cuts a skip reason that would quote a huge piece of the file", async () => {
    const { corpus } = await load({ "lang.md": `---${"x".repeat(100_000)}\n---\nBody.\n` });

    const reason = reasonOf(corpus, "lang.md") ?? "";
    expect(reason).toMatch(/is not accepted/);
    expect(reason.length).toBeLessThan(400);
  });
});
