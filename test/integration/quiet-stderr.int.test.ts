import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgres, type PgServer } from "../helpers/pglite-server.js";
import { TSX_LOADER } from "../helpers/run-cli.js";
import { startTlsProxy, type TlsPostgres } from "../helpers/tls-proxy.js";
import { createTempDirs, KB_DIR, REPO_ROOT } from "./helpers/integration-fixtures.js";

const USER_PROGRAM = `${REPO_ROOT}/test/integration/helpers/library-user.ts`;

/** What `library-user.ts` reports on stdout. */
interface UserReport {
  steps: string[];
  warnings: string[];
  errors: Record<string, string>;
}

interface UserRun {
  code: number | null;
  stderr: string;
  report: UserReport | null;
  stdout: string;
}

const temp = createTempDirs("lookup-knowledge-quiet-");

/** Runs the user program with `steps` in a child process (tsx adds no output of its own). */
async function runUser(steps: Record<string, string | boolean>): Promise<UserRun> {
  const work = await temp.make();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", TSX_LOADER, USER_PROGRAM], {
      cwd: work,
      env: { ...process.env, LK_CORPUS: KB_DIR, LK_WORK: work, LK_STEPS: JSON.stringify(steps) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", fail);
    child.on("close", (code) => {
      let report: UserReport | null;
      try {
        report = JSON.parse(stdout) as UserReport;
      } catch {
        report = null;
      }
      done({ code, stderr, report, stdout });
    });
  });
}

/** Asserts the run finished and printed nothing on stderr. @returns its report. */
function quietReport(run: UserRun): UserReport {
  expect(run.stderr).toBe("");
  expect(run.code, run.stdout).toBe(0);
  expect(run.report).not.toBeNull();
  return run.report!;
}

describe("a library user's stderr", () => {
  let postgres: PgServer;
  let tls: TlsPostgres | string;

  beforeAll(async () => {
    postgres = await testPostgres();
    tls = await startTlsProxy(postgres.url);
  });
  afterAll(async () => {
    if (typeof tls === "object") await tls.stop();
    await postgres?.stop();
    await temp.cleanup();
  });

  it("stays empty through a build, save, load, tool query and incremental update", async () => {
    const report = quietReport(await runUser({ local: true }));
    expect(report.steps).toEqual([
      expect.stringMatching(/^local: query l1Status ok, [1-9]\d* blocks$/),
      expect.stringMatching(/^local: update [1-9]\d* added, store rows none$/),
    ]);
  });

  it("stays empty through the same with L1 in pgvector, saves included", async () => {
    const report = quietReport(await runUser({ pgvector: postgres.url }));
    expect(report.steps).toEqual([
      expect.stringMatching(/^pgvector: query l1Status ok, [1-9]\d* blocks$/),
      expect.stringMatching(/^pgvector: update [1-9]\d* added, store rows [1-9]\d*$/),
    ]);
    expect(report.warnings).toEqual([]);
  });

  it("stays empty on pgvector over TLS with sslmode=require, the certificate still verified", async (ctx) => {
    if (typeof tls === "string") return ctx.skip(tls);
    const report = quietReport(
      await runUser({
        pgvector: tls.url(`sslmode=require&sslrootcert=${encodeURIComponent(tls.caFile)}`),
        untrusted: tls.url("sslmode=require"),
      }),
    );
    expect(report.steps[0]).toMatch(/^pgvector: query l1Status ok/);
    expect(report.steps).toHaveLength(2);
    // sslmode=require keeps pg 8's meaning (verify-full): a certificate nobody trusts is refused.
    expect(report.errors.untrusted).toMatch(/^VECTOR_STORE_FAILED: .*self[- ]signed certificate/);
  });

  it("stays empty when pgvector refuses the build's inserts, which fails with one LookupKnowledgeError", async () => {
    const report = quietReport(await runUser({ fail: postgres.url }));
    expect(report.errors.fail).toMatch(
      /^VECTOR_STORE_FAILED: lookup-knowledge: the pgvector vector store could not add rows 1-\d+: .*expected 3 dimensions/,
    );
    expect(report.steps).toEqual([]);
  });
});
