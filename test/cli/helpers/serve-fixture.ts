/**
 * The served index of the `lookup-knowledge serve` tests: the fixture corpus plus one file only
 * the hr group may read, whose keywords match {@link QUESTION}.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KnowledgeBase } from "../../../src/index.js";
import { KB_DIR } from "../../integration/helpers/integration-fixtures.js";
import { CLI_ENTRY, CLI_REPO_ROOT, TSX_LOADER } from "../../helpers/run-cli.js";

/** A question the fixture corpus answers from billing/invoice-run-rollback.md. */
export const QUESTION = "How do I undo an invoice batch with wrong amounts?";
/** Title of the hr-only file. */
export const SECRET_TITLE = "Payroll Salary Bands";

/** The environment of a served CLI: this process's, without a pgvector URL or a token unless given. */
export function serveEnv(extra: Record<string, string> = {}): Record<string, string> {
  const { LOOKUP_KNOWLEDGE_PGVECTOR_URL: _url, LOOKUP_KNOWLEDGE_MCP_TOKEN: _token, ...inherited } = process.env;
  return { ...(inherited as Record<string, string>), NO_COLOR: "1", ...extra };
}

/** Writes the corpus into `root` and saves its index there; returns the index folder and a trace path beside it. */
export async function writeServedIndex(root: string): Promise<{ index: string; tracePath: string }> {
  const corpus = join(root, "corpus");
  await cp(KB_DIR, corpus, { recursive: true });
  await writeFile(
    join(corpus, "billing", "zz-payroll.md"),
    `---\ntitle: ${SECRET_TITLE}\ndomain: billing\naccess: [hr]\nkeywords: [invoice batch, wrong amounts]\n---\n# ${SECRET_TITLE}\n\nInvoice batch with wrong amounts: the payroll salary bands are confidential.\n`,
  );
  const index = join(root, "index");
  await (await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} })).save(index);
  return { index, tracePath: join(root, "trace.jsonl") };
}

/** `lookup-knowledge serve --http --port 0 ...`, resolved with its URL once it listens. */
export async function serveHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<{
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}> {
  const child = spawn(
    process.execPath,
    ["--import", TSX_LOADER, CLI_ENTRY, "serve", "--http", "--port", "0", ...args],
    { cwd: CLI_REPO_ROOT, env: serveEnv(env) },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}
