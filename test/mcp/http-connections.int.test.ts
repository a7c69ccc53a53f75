/**
 * The HTTP endpoint's bounds on connections, tried with raw sockets: a refused request's body is
 * never read, slow headers and dripped bodies are cut by the request timeouts, connections past
 * the cap are closed, and an SDK client's lookups keep answering meanwhile. Timeouts are set
 * small through the options; nothing here times the server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase } from "../../src/index.js";
import { startMcpHttpEndpoint, type McpHttpEndpoint } from "../../src/mcp/http-endpoint.js";
import { createMcpToolHandler } from "../../src/mcp/mcp-tool-server.js";
import { KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { openRaw, pause, postHead, type RawConnection } from "./helpers/raw-socket.js";

const TOKEN = "a-token-of-enough-length";
const DECLARED = 100_000_000;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** Writes up to `total` bytes of body, stopping when the server stops taking them; returns how many it took. */
async function flood(connection: RawConnection, total: number): Promise<number> {
  let sent = 0;
  while (sent < total && (await connection.write(CHUNK))) sent += CHUNK.length;
  return sent;
}

describe("the HTTP endpoint's connection bounds", () => {
  let endpoint: McpHttpEndpoint;
  let tool: ReturnType<typeof createLookupKnowledgeTool>;
  let client: Client;
  let lookups = 0;
  const lookup = async () => {
    const answer = await client.callTool({ name: "lookup_knowledge", arguments: { query: "refund approval" } });
    expect(answer.isError).toBeFalsy();
    lookups += 1;
  };
  /** Looks up from an honest client until `until` settles; resolves with how many answered. */
  const lookupsDuring = async (until: Promise<unknown>) => {
    let settled = false;
    void until.finally(() => (settled = true));
    const before = lookups;
    do await lookup();
    while (!settled);
    return lookups - before;
  };

  beforeAll(async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    endpoint = await startMcpHttpEndpoint({
      handler: createMcpToolHandler({ tool }),
      port: 0,
      token: TOKEN,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      maxConnections: 8,
    });
    client = new Client({ name: "honest-client", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });
  afterAll(async () => {
    await client.close();
    await endpoint.close();
    await tool.close();
  });

  // On a second endpoint with the default timeouts, so that only the refusal can end these connections.
  let patient: McpHttpEndpoint;
  beforeAll(async () => {
    patient = await startMcpHttpEndpoint({ handler: createMcpToolHandler({ tool }), port: 0, token: TOKEN });
  });
  afterAll(() => patient.close());

  it("answers 401 to a 100 MB body without a token and closes the connection without reading the body", async () => {
    const hostile = await openRaw(patient.url);
    await hostile.write(postHead(patient.url, [`Content-Length: ${DECLARED}`]));
    const taken = flood(hostile, DECLARED);
    const answered = await lookupsDuring(hostile.closed);
    expect(await taken).toBeLessThan(DECLARED / 10);
    expect(hostile.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(hostile.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(answered).toBeGreaterThan(0);
  });

  it("answers 413 to a declared body over the cap before reading it, and closes the connection", async () => {
    const hostile = await openRaw(patient.url);
    await hostile.write(postHead(patient.url, [`Authorization: Bearer ${TOKEN}`, `Content-Length: ${DECLARED}`]));
    const taken = flood(hostile, DECLARED);
    await hostile.closed;
    expect(await taken).toBeLessThan(DECLARED / 10);
    expect(hostile.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("answers 413 to a chunked body once it passes the cap, and closes the connection", async () => {
    const hostile = await openRaw(patient.url);
    await hostile.write(postHead(patient.url, [`Authorization: Bearer ${TOKEN}`, "Transfer-Encoding: chunked"]));
    let taken = 0;
    const chunk = `${CHUNK.length.toString(16)}\r\n${CHUNK.toString()}\r\n`;
    while (taken < DECLARED && (await hostile.write(chunk))) taken += CHUNK.length;
    await hostile.closed;
    expect(taken).toBeLessThan(DECLARED / 10);
    expect(hostile.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("cuts an authenticated body dripped slower than the request timeout, while other lookups answer", async () => {
    const hostile = await openRaw(endpoint.url);
    await hostile.write(postHead(endpoint.url, [`Authorization: Bearer ${TOKEN}`, "Content-Length: 100000"]));
    const drip = (async () => {
      while (await hostile.write("{")) await pause(50);
    })();
    const answered = await lookupsDuring(hostile.closed);
    await drip;
    expect(hostile.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(answered).toBeGreaterThan(0);
  });

  it("cuts headers sent slower than the headers timeout", async () => {
    const hostile = await openRaw(endpoint.url);
    const head = postHead(endpoint.url, [`Authorization: Bearer ${TOKEN}`, "Content-Length: 2"]);
    const drip = (async () => {
      for (const char of head) if (!(await hostile.write(char))) return;
      await pause(50);
    })();
    await hostile.closed;
    await drip;
    expect(hostile.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes connections past the cap as they arrive, and serves again once one is gone", async () => {
    // The honest client holds one connection; these fill the rest of the cap of 8.
    const held = await Promise.all(Array.from({ length: 7 }, () => openRaw(endpoint.url)));
    for (const connection of held) await connection.write("POST /mcp HTTP/1.1\r\n");
    const extra = await openRaw(endpoint.url);
    await extra.closed;
    expect(extra.received()).toBe("");
    // The held ones are cut by the headers timeout; then a new client connects and answers.
    await Promise.all(held.map((connection) => connection.closed));
    const fresh = new Client({ name: "fresh-client", version: "1" });
    await fresh.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const answer = await fresh.callTool({ name: "lookup_knowledge", arguments: { query: "refund approval" } });
    expect(answer.isError).toBeFalsy();
    await fresh.close();
  });
});
