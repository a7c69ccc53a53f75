/**
 * Each token's fair share over real HTTP: calls past a token's bound are refused with the
 * documented errors, and a token that floods the server does not hold up another token's call.
 * Lookups are held in flight by a scope function that waits on a gate, so every check is on
 * counts and order, never on time.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase } from "../../src/index.js";
import { TOO_MANY_CALLS_RPC_CODE } from "../../src/mcp/call-lane.js";
import { startMcpHttpEndpoint, type McpHttpEndpoint } from "../../src/mcp/http-endpoint.js";
import { createMcpToolHandler } from "../../src/mcp/mcp-tool-server.js";
import { KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { mcpHeaders, toolCall } from "./helpers/raw-mcp.js";

const FLOOD = "a-token-that-floods-the-server";
const OTHER = "a-token-that-asks-one-question";
const QUERY = { query: "How do I roll back a canary release?" };

async function sdkClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "fair-share-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

type RpcAnswer = {
  id: number;
  result?: { isError?: boolean };
  error?: { code: number; message: string; data?: unknown };
};

describe("the HTTP endpoint's fair share per token", () => {
  let endpoint: McpHttpEndpoint;
  let tool: ReturnType<typeof createLookupKnowledgeTool>;
  let started = 0;
  let open!: () => void;
  let gate = Promise.resolve();
  const close = () => {
    gate = new Promise<void>((resolve) => (open = resolve));
  };
  const startedReaches = async (count: number) => {
    while (started < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  beforeAll(async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    tool = createLookupKnowledgeTool({
      knowledgeBase: kb,
      tracePath: null,
      accessTimeoutMs: 60_000,
      access: async () => {
        started += 1;
        await gate;
        return { groups: [] };
      },
    });
    // Both tokens share one handler, as tokens of one scope do in `serve`: the share is the token's.
    const handler = createMcpToolHandler({ tool });
    endpoint = await startMcpHttpEndpoint({
      audiences: [
        { token: FLOOD, handler },
        { token: OTHER, handler },
      ],
      port: 0,
      maxCallsInFlight: 1,
      maxQueuedCalls: 2,
    });
  });
  afterAll(async () => {
    open();
    await endpoint.close();
    await tool.close();
  });

  it("refuses what is past one token's bound with the documented errors while another token's call runs", async () => {
    const flooder = await sdkClient(endpoint.url, FLOOD);
    const other = await sdkClient(endpoint.url, OTHER);
    close();
    // A batch of 5 counts as 5 calls: 1 runs, 2 queue, 2 are refused.
    const batch = fetch(endpoint.url, {
      method: "POST",
      headers: mcpHeaders({ authorization: `Bearer ${FLOOD}` }),
      body: JSON.stringify([1, 2, 3, 4, 5].map((id) => toolCall(id, QUERY))),
    }).then(async (response) => (await response.json()) as RpcAnswer[]);
    await startedReaches(1);

    // The token has no room left: a whole request is refused with 429 and Retry-After, before any work.
    const refused = await fetch(endpoint.url, {
      method: "POST",
      headers: mcpHeaders({ authorization: `Bearer ${FLOOD}` }),
      body: JSON.stringify(toolCall(6, QUERY)),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(TOO_MANY_CALLS_RPC_CODE);
    expect(body.error.message).toMatch(/^TOO_MANY_CALLS: lookup-knowledge: too many calls from this caller/);
    // The SDK client's error carries the status as its code and the one-line answer.
    await expect(flooder.callTool({ name: "lookup_knowledge", arguments: QUERY })).rejects.toMatchObject({
      code: 429,
      message: expect.stringMatching(/TOO_MANY_CALLS: lookup-knowledge: too many calls/) as unknown,
    });

    // Another token's call starts at once, though the flooder's queued calls have not started.
    const answer = other.callTool({ name: "lookup_knowledge", arguments: QUERY });
    await startedReaches(2);
    expect(started).toBe(2);
    open();
    expect((await answer).isError).toBeFalsy();

    const answers = (await batch).sort((a, b) => a.id - b.id);
    expect(
      answers.filter((each) => each.result !== undefined && each.result.isError !== true).map((each) => each.id),
    ).toEqual([1, 2, 3]);
    for (const each of answers.slice(3)) {
      expect(each.error?.code).toBe(TOO_MANY_CALLS_RPC_CODE);
      expect(each.error?.message).toMatch(/^TOO_MANY_CALLS: [^\n]+retry after 1 s/);
      expect(each.error?.data).toEqual({ retryAfterSeconds: 1 });
    }
    // The flooder's queued calls ran after the other token's: 1 + 1 + 2 lookups in all.
    expect(started).toBe(4);
    await flooder.close();
    await other.close();
  });

  it("takes the flooding token's calls again once its queue has drained", async () => {
    const flooder = await sdkClient(endpoint.url, FLOOD);
    const answer = await flooder.callTool({ name: "lookup_knowledge", arguments: QUERY });
    expect(answer.isError).toBeFalsy();
    await flooder.close();
  });
});
