/**
 * `serve --http` as a hostile client meets it, in a real child process with its default bounds:
 * one token floods with batches of 100 lookups while another token's SDK client looks up; the
 * server is stopped by SIGTERM in the middle of a flood; refused and dripped connections are cut
 * while an honest client keeps answering. Every check is on counts, never on time.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { QUESTION, serveHttp, writeServedIndex } from "../cli/helpers/serve-fixture.js";
import { recordFigures } from "./helpers/figures.js";
import { connectedClient, floodBatches, sendOnce } from "./helpers/serve-load.js";

const FLOOD = "reliability-flood-token-0123456789";
const OTHER = "reliability-other-token-0123456789";
const OTHER_LOOKUPS = 40;
const STOP_ROUNDS = 3;

describe("serve --http under a flood", () => {
  const temp = createTempDirs("lookup-knowledge-serve-flood-");
  let index: string;
  let tokenFile: string;
  beforeAll(async () => {
    const root = await temp.make();
    ({ index } = await writeServedIndex(root));
    tokenFile = join(root, "tokens.txt");
    await writeFile(tokenFile, `${FLOOD}\n${OTHER}\n`);
  });
  afterAll(() => temp.cleanup());

  it("answers every lookup of another token while one token floods, and refuses the flood's excess only with the documented errors", async () => {
    const served = await serveHttp(["--index", index, "--no-trace", "--token-file", tokenFile]);
    const flood = floodBatches(served.url, FLOOD, { concurrent: 5, batchSize: 100 });
    const other = await connectedClient(served.url, OTHER);
    let answered = 0;
    for (let i = 0; i < OTHER_LOOKUPS; i++) {
      const answer = await other.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION } });
      if (answer.isError !== true) answered += 1;
    }
    const counts = await flood.stop();
    await other.close();
    served.child.kill("SIGTERM");
    const code = await served.exited;
    recordFigures({
      scenario: "one token flooding `serve --http` with 5 batches of 100 while another looks up",
      inputsTried: counts.calls + OTHER_LOOKUPS,
      requestsUnanswered: OTHER_LOOKUPS - answered + counts.otherAnswers,
      crashes: code === 0 ? 0 : 1,
    });
    expect(answered).toBe(OTHER_LOOKUPS);
    // The flood kept going while the other token looked up: more batches than its first five.
    expect(counts.batches).toBeGreaterThan(5);
    expect(counts.otherAnswers).toBe(0);
    expect(counts.refusedCalls + counts.refused429).toBeGreaterThan(0);
    expect(counts.results).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it("answers every request on the wire when SIGTERM comes in the middle of a flood, never with a reset", async () => {
    let sent = 0;
    let unanswered = 0;
    const statuses = new Set<number>();
    for (let round = 0; round < STOP_ROUNDS; round++) {
      const served = await serveHttp(["--index", index, "--no-trace", "--token-file", tokenFile]);
      const flood = floodBatches(served.url, FLOOD, { concurrent: 5, batchSize: 100 });
      // The flood is under way (each loop has had an answer) before anything else is sent.
      while (flood.answered() < 5) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = await Promise.all(Array.from({ length: 20 }, () => sendOnce(served.url, OTHER)));
      // The flood's batches sent so far are on the wire at the signal, and so are the 20 lookups.
      flood.halt();
      served.child.kill("SIGTERM");
      const during = await Promise.all(Array.from({ length: 10 }, () => sendOnce(served.url, OTHER)));
      const outcomes = await Promise.all([...before, ...during].map((sent) => sent.outcome));
      const counts = await flood.stop();
      const code = await served.exited;
      sent += outcomes.length + counts.batches;
      for (const outcome of outcomes)
        if (outcome.kind === "answered") statuses.add(outcome.status);
        else unanswered += 1;
      unanswered += counts.resets + counts.otherAnswers;
      expect(code).toBe(0);
    }
    recordFigures({
      scenario: `SIGTERM of \`serve --http\` in the middle of a flood (${STOP_ROUNDS} rounds)`,
      inputsTried: sent,
      faultsInjected: STOP_ROUNDS,
      requestsUnanswered: unanswered,
      crashes: 0,
    });
    expect(unanswered).toBe(0);
    for (const status of statuses) expect([200, 503]).toContain(status);
  });
});
