/** Clients of `serve --http` for the reliability suite: an SDK client, a flooding token, one raw request. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TOO_MANY_CALLS_RPC_CODE } from "../../../src/mcp/call-lane.js";
import { QUESTION } from "../../cli/helpers/serve-fixture.js";
import { mcpHeaders, toolCall } from "../../mcp/helpers/raw-mcp.js";
import { openRaw, postHead } from "../../mcp/helpers/raw-socket.js";

/** An SDK client connected with `token`. */
export async function connectedClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "reliability", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** What a flooding token got. */
export interface FloodOutcome {
  batches: number;
  calls: number;
  /** Calls answered with a result. */
  results: number;
  /** Calls answered JSON-RPC -32029. */
  refusedCalls: number;
  /** Batches answered 429 with Retry-After. */
  refused429: number;
  /** Batches answered 503 (the server was stopping). */
  refused503: number;
  /** Answers that are none of those: another status, another error, a 429 without Retry-After. */
  otherAnswers: number;
  /** Batches sent before `halt()` that got no answer at all (a reset or a dropped connection). */
  resets: number;
}

type Entry = { result?: unknown; error?: { code: number } };

/**
 * One token keeps `concurrent` JSON-RPC batches of `batchSize` lookups in flight, each sent again
 * as soon as it is answered, until `halt()` (no new batch) and `stop()` (every loop ended).
 */
export function floodBatches(
  url: string,
  token: string,
  { concurrent, batchSize }: { concurrent: number; batchSize: number },
): { halt(): void; answered(): number; stop(): Promise<FloodOutcome> } {
  const outcome: FloodOutcome = {
    batches: 0,
    calls: 0,
    results: 0,
    refusedCalls: 0,
    refused429: 0,
    refused503: 0,
    otherAnswers: 0,
    resets: 0,
  };
  let halted = false;
  const body = JSON.stringify(Array.from({ length: batchSize }, (_, i) => toolCall(i + 1, { query: QUESTION })));
  const loop = async () => {
    while (!halted) {
      outcome.batches += 1;
      outcome.calls += batchSize;
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: mcpHeaders({ authorization: `Bearer ${token}` }),
          body,
        });
        text = await response.text();
      } catch {
        outcome.resets += 1;
        continue;
      }
      if (response.status === 429 && response.headers.get("retry-after") !== null) outcome.refused429 += 1;
      else if (response.status === 503) outcome.refused503 += 1;
      else if (response.status !== 200) outcome.otherAnswers += 1;
      else
        for (const entry of JSON.parse(text) as Entry[]) {
          if (entry.result !== undefined) outcome.results += 1;
          else if (entry.error?.code === TOO_MANY_CALLS_RPC_CODE) outcome.refusedCalls += 1;
          else outcome.otherAnswers += 1;
        }
    }
  };
  const loops = Array.from({ length: concurrent }, loop);
  return {
    halt: () => void (halted = true),
    answered: () =>
      outcome.refused429 +
      outcome.refused503 +
      outcome.otherAnswers +
      (outcome.results + outcome.refusedCalls) / batchSize,
    async stop() {
      halted = true;
      await Promise.all(loops);
      return outcome;
    },
  };
}

/** How one raw request ended. */
export type RawOutcome = { kind: "answered"; status: number } | { kind: "reset" | "dropped" | "refused" };

/**
 * Sends one lookup on a connection of its own (`Connection: close`); resolves once the request is
 * written (on the wire), with how it ends once the connection does.
 */
export async function sendOnce(url: string, token: string): Promise<{ outcome: Promise<RawOutcome> }> {
  const text = JSON.stringify(toolCall(1, { query: QUESTION }));
  let connection: Awaited<ReturnType<typeof openRaw>>;
  try {
    connection = await openRaw(url);
  } catch {
    return { outcome: Promise.resolve({ kind: "refused" }) };
  }
  const head = postHead(url, [
    `Authorization: Bearer ${token}`,
    `Content-Length: ${Buffer.byteLength(text)}`,
    "Connection: close",
  ]);
  await connection.write(head + text);
  const outcome = connection.closed.then(({ error }): RawOutcome => {
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(connection.received());
    if (status !== null) return { kind: "answered", status: Number(status[1]) };
    return { kind: error === null ? "dropped" : "reset" };
  });
  return { outcome };
}
