import { spawn } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type LookupResult } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { CLI_ENTRY, CLI_REPO_ROOT, TSX_LOADER } from "../helpers/run-cli.js";

const note = (word: string) =>
  `---\ntitle: Watch Note\ndomain: billing\nkeywords: [watch note codename]\n---\n# Watch Note\n\nThe watch note codename is ${word}.\n`;

/** A CLI child whose stderr can be waited on. */
function startCli(args: string[]) {
  const { LOOKUP_KNOWLEDGE_PGVECTOR_URL: _url, LOOKUP_KNOWLEDGE_MCP_TOKEN: _token, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", TSX_LOADER, CLI_ENTRY, ...args], {
    cwd: CLI_REPO_ROOT,
    env: { ...env, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  /** Resolves once stderr matches `pattern` `count` times; rejects when the process exits first or after a minute (a hang guard). */
  const waitFor = async (pattern: RegExp, count = 1): Promise<string> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = stderr.match(new RegExp(pattern.source, "g")) ?? [];
      if (found.length >= count) return stderr;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} (x${count}) in: ${stderr}`);
      await new Promise((done) => setTimeout(done, 25));
    }
  };
  return { child, exited, waitFor, stderr: () => stderr };
}

describe("lookup-knowledge index --watch and serve --watch", () => {
  const temp = createTempDirs("lookup-knowledge-watch-");
  afterAll(() => temp.cleanup());

  it("updates once per burst of saves, keeps running through a bad file, and stops cleanly on SIGINT", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const out = join(root, "index");
    await cp(KB_DIR, corpus, { recursive: true });
    const cli = startCli(["index", "--watch", "--corpus", corpus, "--out", out]);
    await cli.waitFor(/watching .* for changes/);

    // An editor's save: several writes of one file in quick succession.
    for (const word of ["one", "two", "three"]) await writeFile(join(corpus, "billing", "watch-note.md"), note(word));
    await cli.waitFor(/Updated /);
    await new Promise((done) => setTimeout(done, 1000));
    expect(cli.stderr().match(/Updated /g)).toHaveLength(1);
    expect(cli.stderr()).toMatch(/Updated .*1 added/);

    await writeFile(join(corpus, "billing", "broken.md"), "---\ntitle: [unclosed\n---\nbody\n");
    await cli.waitFor(/skipped .*broken\.md/);
    await writeFile(join(corpus, "billing", "watch-note.md"), note("four"));
    await cli.waitFor(/Updated /, 2);

    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toContain("SIGINT: stopped watching");
    const kb = await KnowledgeBase.load(out);
    expect(kb.chunks.some((chunk) => chunk.content.includes("codename is four"))).toBe(true);
    expect(kb.skipped.map((file) => file.file)).toContain("billing/broken.md");
  });

  it("serves the new content over MCP after a corpus edit, without a restart", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const out = join(root, "index");
    await cp(KB_DIR, corpus, { recursive: true });
    await writeFile(join(corpus, "billing", "watch-note.md"), note("alphaword"));
    const cli = startCli([
      "serve",
      "--http",
      "--port",
      "0",
      "--watch",
      "--corpus",
      corpus,
      "--index",
      out,
      "--no-trace",
    ]);
    const started = await cli.waitFor(/at http:\/\/\S+\/mcp/);
    await cli.waitFor(/watching .* for changes/);
    const url = /at (http:\/\/\S+\/mcp)/.exec(started)![1];
    const client = new Client({ name: "watch-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const ask = async () =>
      JSON.stringify(
        (
          (await client.callTool({ name: "lookup_knowledge", arguments: { query: "watch note codename" } }))
            .structuredContent as LookupResult
        ).evidence,
      );
    expect(await ask()).toContain("alphaword");

    await writeFile(join(corpus, "billing", "watch-note.md"), note("omegaword"));
    await cli.waitFor(/serving the new index generation gen-/);
    expect(await ask()).toContain("omegaword");
    await client.close();
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
  });
});
