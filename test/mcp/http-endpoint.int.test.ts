import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { startMcpHttpEndpoint } from "../../src/mcp/http-endpoint.js";
import { createMcpToolHandler } from "../../src/mcp/mcp-tool-server.js";
import { KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { postJson, toolCall } from "./helpers/raw-mcp.js";

describe("startMcpHttpEndpoint", () => {
  let kb: KnowledgeBase;
  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });
  afterAll(() => undefined);

  it("answers every call in flight when it closes, before it cuts the connections", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The scope function waits on the gate, so the calls stay in flight until the test lets them go.
    const tool = createLookupKnowledgeTool({
      knowledgeBase: kb,
      tracePath: null,
      access: async () => (await gate, { groups: ["support"] }),
    });
    const handler = createMcpToolHandler({ tool });
    const endpoint = await startMcpHttpEndpoint({ handler, port: 0 });
    const clients = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const client = new Client({ name: "drain-test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
        return client;
      }),
    );
    const calls = clients.map((client) =>
      client.callTool({ name: "lookup_knowledge", arguments: { query: "How do I roll back a canary release?" } }),
    );
    while (handler.inFlight < calls.length) await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = endpoint.close();
    open();
    const answers = await Promise.all(calls);
    await closed;
    for (const answer of answers) {
      expect(answer.isError).toBeFalsy();
      expect((answer.structuredContent as LookupResult).access?.groups).toEqual(["support"]);
    }
    await tool.close();
  });

  it("accepts the names given as allowedHosts as the Host header, and refuses others", async () => {
    const tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const endpoint = await startMcpHttpEndpoint({
      handler: createMcpToolHandler({ tool }),
      port: 0,
      allowedHosts: ["KB.internal"],
    });
    const port = new URL(endpoint.url).port;
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        import("node:http").then(({ request }) => {
          const body = JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          });
          const req = request(
            {
              host: "127.0.0.1",
              port,
              path: "/mcp",
              method: "POST",
              headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          req.end(body);
        }, reject);
      });
    try {
      expect(await post(`kb.internal:${port}`)).toBe(200);
      expect(await post(`KB.internal:${port}`)).toBe(200);
      expect(await post(`127.0.0.1:${port}`)).toBe(200);
      expect(await post(`other.internal:${port}`)).toBe(403);
      expect(await post(`kb.internal:1`)).toBe(403);
    } finally {
      await endpoint.close();
      await tool.close();
    }
  });
});

describe("startMcpHttpEndpoint's transport checks", () => {
  let kb: KnowledgeBase;
  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });

  it("refuses with 403 a request whose Origin is present and not allowed, and answers allowed and absent ones", async () => {
    const tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const endpoint = await startMcpHttpEndpoint({
      handler: createMcpToolHandler({ tool }),
      port: 0,
      allowedOrigins: ["https://app.example"],
    });
    const call = toolCall(1, { query: "refund" });
    try {
      expect((await postJson(endpoint.url, call, { origin: "https://evil.example" })).status).toBe(403);
      expect((await postJson(endpoint.url, call, { origin: "null" })).status).toBe(403);
      expect((await postJson(endpoint.url, call, { origin: "https://app.example" })).status).toBe(200);
      // A loopback bind: a page this machine serves may call it.
      expect((await postJson(endpoint.url, call, { origin: "http://localhost:5173" })).status).toBe(200);
      expect((await postJson(endpoint.url, call)).status).toBe(200);
    } finally {
      await endpoint.close();
      await tool.close();
    }
  });

  it("takes the bearer scheme in any case and still refuses a wrong token", async () => {
    const tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const token = "a-token-of-enough-length";
    const endpoint = await startMcpHttpEndpoint({ handler: createMcpToolHandler({ tool }), port: 0, token });
    const call = toolCall(1, { query: "refund" });
    try {
      expect((await postJson(endpoint.url, call, { authorization: `bearer ${token}` })).status).toBe(200);
      expect((await postJson(endpoint.url, call, { authorization: `BEARER ${token}` })).status).toBe(200);
      expect((await postJson(endpoint.url, call, { authorization: `bearer ${token}0` })).status).toBe(401);
    } finally {
      await endpoint.close();
      await tool.close();
    }
  });
});
