/**
 * `serve --http` stopped by SIGTERM while its event loop is busy: every request already on the
 * wire, and every one sent during the drain, is answered (by its result or by 503 with
 * Retry-After and Connection: close), none is reset, and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { openRaw, postHead } from "../mcp/helpers/raw-socket.js";
import { QUESTION, serveHttp, writeServedIndex } from "./helpers/serve-fixture.js";

type Outcome = { kind: "answered"; status: number; head: string } | { kind: "reset" | "dropped" | "refused" };

/** Sends one whole request on its own connection and waits for the connection to end. */
async function send(url: string, body: unknown): Promise<Outcome> {
  const text = JSON.stringify(body);
  let connection: Awaited<ReturnType<typeof openRaw>>;
  try {
    connection = await openRaw(url);
  } catch {
    return { kind: "refused" };
  }
  await connection.write(postHead(url, [`Content-Length: ${Buffer.byteLength(text)}`, "Connection: close"]) + text);
  const { error } = await connection.closed;
  const received = connection.received();
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(received);
  if (status !== null) return { kind: "answered", status: Number(status[1]), head: received.split("\r\n\r\n")[0] };
  return { kind: error === null ? "dropped" : "reset" };
}

const call = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } },
});

describe("lookup-knowledge serve --http stopping", () => {
  const temp = createTempDirs("lookup-knowledge-serve-stop-");
  let index: string;
  beforeAll(async () => {
    ({ index } = await writeServedIndex(await temp.make()));
  });
  afterAll(() => temp.cleanup());

  it("answers every request on the wire at SIGTERM, and those sent during the drain, without a reset", async () => {
    // The fair share is raised past the load, so that every call is taken and the loop stays busy,
    // and the request timeouts past the drain, so that a slow machine's busy loop gets no 408.
    const share = ["--max-calls-in-flight", "1000", "--max-queued-calls", "1000"];
    const timeouts = ["--headers-timeout", "120000", "--request-timeout", "120000"];
    const served = await serveHttp(["--index", index, "--no-trace", "--stop-grace", "60000", ...share, ...timeouts]);
    // Five batches of 100 lookups keep the loop busy; the single lookups queue behind them unread.
    const batches = Array.from({ length: 5 }, (_, b) =>
      send(
        served.url,
        Array.from({ length: 100 }, (_, i) => call(b * 1000 + i)),
      ),
    );
    const before = Array.from({ length: 40 }, (_, i) => send(served.url, call(10_000 + i)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    served.child.kill("SIGTERM");
    const during = Array.from({ length: 20 }, (_, i) => send(served.url, call(20_000 + i)));
    const outcomes = await Promise.all([...batches, ...before, ...during]);
    const code = await served.exited;

    const count = (kind: Outcome["kind"]) => outcomes.filter((outcome) => outcome.kind === kind).length;
    expect({ reset: count("reset"), dropped: count("dropped"), refused: count("refused") }).toEqual({
      reset: 0,
      dropped: 0,
      refused: 0,
    });
    for (const outcome of outcomes) {
      if (outcome.kind !== "answered") continue;
      expect([200, 503]).toContain(outcome.status);
      if (outcome.status === 503) {
        expect(outcome.head).toMatch(/\r\nretry-after: \d+/i);
        expect(outcome.head).toMatch(/\r\nconnection: close/i);
      }
    }
    // Some work was done before the stop, the rest refused politely.
    expect(outcomes.some((outcome) => outcome.kind === "answered" && outcome.status === 200)).toBe(true);
    expect(code).toBe(0);
    expect(served.stderr()).toContain("SIGTERM: stopping");
  });
});
