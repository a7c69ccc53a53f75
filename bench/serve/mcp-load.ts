import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BenchError } from "../bench-error.js";

/** An SDK client of the served endpoint, holding one bearer token. */
export async function connectClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "lookup-knowledge-bench", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** Times `calls` lookups one after another through `client`, the queries taken in turn from `start`; returns each call's ms. */
export async function timedLookups(
  client: Client,
  queries: readonly string[],
  calls: number,
  start: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const query = queries[(start + i) % queries.length].slice(0, 1000);
    const began = performance.now();
    const answer = await client.callTool({ name: "lookup_knowledge", arguments: { query } });
    times.push(performance.now() - began);
    if (answer.isError === true)
      throw new BenchError(`a timed lookup answered isError: ${JSON.stringify(answer.content)}`);
  }
  return times;
}

/** What the flooding token got back. */
export interface FloodCounts {
  /** Batches posted. */
  batches: number;
  /** Calls answered with a result. */
  answered: number;
  /** Calls answered JSON-RPC -32029 (too many calls from this token). */
  refusedCalls: number;
  /** Whole batches answered 429 (the token's queue was full when the batch arrived). */
  refused429: number;
  /** Any other HTTP status (must be 0). */
  otherStatus: number;
}

/** Counts `needle` in `text` without parsing it (the flood's answers are megabytes; the bench must not spend the CPU the server needs). */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * Floods the endpoint as one token: `concurrent` loops, each posting a JSON-RPC batch of
 * `batchSize` lookups and posting the next as soon as the answer is in (no back-off, as a hostile
 * client would), until `stop()`; resolves with the counts once every loop has ended.
 */
export function startFlood(
  url: string,
  token: string,
  queries: readonly string[],
  { concurrent, batchSize }: { concurrent: number; batchSize: number },
): { stop(): Promise<FloodCounts> } {
  const counts: FloodCounts = { batches: 0, answered: 0, refusedCalls: 0, refused429: 0, otherStatus: 0 };
  let stopping = false;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    authorization: `Bearer ${token}`,
  };
  const loop = async (lane: number) => {
    for (let round = 0; !stopping; round++) {
      const batch = Array.from({ length: batchSize }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: {
          name: "lookup_knowledge",
          arguments: { query: queries[(lane * 7919 + round * batchSize + i) % queries.length].slice(0, 1000) },
        },
      }));
      counts.batches += 1;
      const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(batch) });
      const text = await response.text();
      if (response.status === 429) counts.refused429 += 1;
      else if (response.status !== 200) counts.otherStatus += 1;
      else {
        counts.answered += occurrences(text, '"result":');
        counts.refusedCalls += occurrences(text, '"code":-32029');
      }
    }
  };
  const loops = Array.from({ length: concurrent }, (_, lane) => loop(lane));
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
      return counts;
    },
  };
}
