import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_REPO_ROOT, linesOf, runCli } from "../helpers/run-cli.js";

const CORPUS = join(CLI_REPO_ROOT, "examples/eval-own-corpus/corpus");

// Each of these stops before promptfoo starts: a wrong golden set or a missing baseline costs no eval run.
describe("lookup-knowledge eval --golden with a wrong golden set or baseline", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-eval-golden-errors-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function evalWith(golden: string, ...more: string[]) {
    const file = join(dir, `${more.length}-${golden.length}.yaml`);
    await writeFile(file, golden);
    return {
      file,
      run: await runCli(["eval", "--golden", file, "--corpus", CORPUS, "--out", join(dir, "out"), ...more], {
        env: { PROMPTFOO_CONFIG_DIR: join(dir, "pf") },
      }),
    };
  }

  it("exits 1 with one line listing a gold source the corpus does not have", async () => {
    const { file, run } = await evalWith(
      "- description: vents\n  vars: { query: when do vents open, gold: [greenhouse/ventilation.md#no-such-heading] }\n",
    );
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      `lookup-knowledge: golden set ${file}: 1 gold source is not in the corpus ${CORPUS}: greenhouse/ventilation.md#no-such-heading (vents); write them as the tool's evidence names them (<file relative to the corpus>#<heading slug>).`,
    ]);
    expect(run.stdout).toBe("");
  });

  it("exits 2 with one line, before any run, when --out is a file (eval --golden and eval --dataset)", async () => {
    const file = join(dir, "not-a-folder");
    await writeFile(file, "");
    const golden = await runCli(
      [
        "eval",
        "--golden",
        join(CLI_REPO_ROOT, "examples/eval-own-corpus/golden.yaml"),
        "--corpus",
        CORPUS,
        "--out",
        file,
      ],
      { env: { PROMPTFOO_CONFIG_DIR: join(dir, "pf") } },
    );
    const beir = await runCli(["eval", "--dataset", join(CLI_REPO_ROOT, "test/fixtures/beir-mini"), "--out", file]);
    for (const run of [golden, beir]) {
      expect(run.code).toBe(2);
      expect(linesOf(run.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `eval: --out ${file} is not a folder; pass a folder for the results \\(it is created when missing\\)\\.`,
          ),
        ),
      ]);
      expect(run.stdout).toBe("");
    }
  });

  it("exits 1 with one line for a question without a query", async () => {
    const { run } = await evalWith("- description: vents\n  vars: { gold: [] }\n");
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      expect.stringMatching(/entry 1 \("vents"\) has no `vars.query`; add the question as a string\.$/),
    ]);
  });

  it("exits 1 naming --update-baseline when the baseline does not exist yet", async () => {
    const { run } = await evalWith(
      "- description: vents\n  vars: { query: when do vents open, gold: [greenhouse/ventilation.md#opening-thresholds] }\n",
      "--baseline",
      join(dir, "none.json"),
    );
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      `lookup-knowledge: baseline ${join(dir, "none.json")} does not exist; run once with --update-baseline to write the measured means to it (or pass --baseline FILE).`,
    ]);
  });

  it("exits 1 naming the file when the golden set cannot be read", async () => {
    const run = await runCli(["eval", "--golden", join(dir, "missing.yaml"), "--corpus", CORPUS]);
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      `lookup-knowledge: golden set ${join(dir, "missing.yaml")}: cannot be read (ENOENT); pass an existing YAML file to --golden.`,
    ]);
  });
});
