import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { createAgent, FakeToolCallingModel, HumanMessage, ToolMessage } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupResult } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { CLI_ENTRY, CLI_REPO_ROOT, TSX_LOADER } from "../helpers/run-cli.js";
import { QUESTION, SECRET_TITLE, serveEnv, serveHttp, writeServedIndex } from "./helpers/serve-fixture.js";

describe("lookup-knowledge serve: the tool over MCP", () => {
  const temp = createTempDirs("lookup-knowledge-serve-");
  let index: string;

  beforeAll(async () => {
    ({ index } = await writeServedIndex(await temp.make()));
  });
  afterAll(() => temp.cleanup());

  it("serves each token of a token file with its own groups, so one server answers several audiences", async () => {
    const root = await temp.make();
    const tokens = join(root, "tokens");
    const hr = "hr-token-0123456789abcdef";
    const support = "support-token-0123456789";
    const bare = "bare-token-0123456789abcd";
    const all = "every-token-0123456789ab";
    await writeFile(tokens, `# token  groups\n${hr} hr\n\n${support} support\n${bare}\n${all} *\n`);
    const served = await serveHttp(["--index", index, "--no-trace", "--token-file", tokens]);
    const connect = async (token: string) => {
      const client = new Client({ name: "audience-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    try {
      const asHr = await connect(hr);
      const hrAnswer = await asHr.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } });
      expect((hrAnswer.structuredContent as LookupResult).access?.groups).toEqual(["hr"]);
      expect(JSON.stringify(hrAnswer)).toContain(SECRET_TITLE);
      await asHr.close();
      const asSupport = await connect(support);
      const supportAnswer = await asSupport.callTool({
        name: "lookup_knowledge",
        arguments: { query: QUESTION, limit: 20 },
      });
      expect((supportAnswer.structuredContent as LookupResult).access?.groups).toEqual(["support"]);
      expect(JSON.stringify(supportAnswer)).not.toContain(SECRET_TITLE);
      await asSupport.close();
      // A line without groups, on a server without --group, reads only unlabelled files; * reads every file.
      const asBare = await connect(bare);
      const bareAnswer = await asBare.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } });
      expect((bareAnswer.structuredContent as LookupResult).access?.groups).toEqual([]);
      expect(JSON.stringify(bareAnswer)).not.toContain(SECRET_TITLE);
      await asBare.close();
      const asAll = await connect(all);
      const allAnswer = await asAll.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } });
      expect((allAnswer.structuredContent as LookupResult).access).toBeNull();
      expect(JSON.stringify(allAnswer)).toContain(SECRET_TITLE);
      await asAll.close();
      expect(served.stderr()).toContain("4 tokens");
      expect(served.stderr()).toContain("scope of 1 token: every document (groups *)");
      expect(served.stderr()).toContain("scope of 1 token: only documents without an access label");
      expect(served.stderr()).toContain("scope of 2 tokens: their groups, 2 scopes ([hr] 1, [support] 1)");
      for (const token of [hr, support, bare, all]) expect(served.stderr()).not.toContain(token);
    } finally {
      served.child.kill("SIGTERM");
    }
    expect(await served.exited).toBe(0);
  });

  it("answers over Streamable HTTP at /mcp, refuses a missing token and a foreign Host, and shuts down cleanly on SIGTERM", async () => {
    const token = "test-token-0123456789";
    const served = await serveHttp(["--index", index, "--no-trace"], { LOOKUP_KNOWLEDGE_MCP_TOKEN: token });
    try {
      const client = new Client({ name: "http-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["lookup_knowledge"]);
      const answer = await client.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION } });
      expect((answer.structuredContent as LookupResult).primary?.source).toMatch(/^billing\/invoice-run-rollback\.md#/);
      // Without --group the server reads only unlabelled files: the hr-only file never answers.
      const unlabelled = await client.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } });
      expect(JSON.stringify(unlabelled)).not.toContain(SECRET_TITLE);
      expect(served.stderr()).toContain("scope of 1 token: only documents without an access label");
      await client.close();

      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      };
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const noToken = await fetch(served.url, { method: "POST", headers, body: JSON.stringify(initialize) });
      expect(noToken.status).toBe(401);
      const wrongToken = await fetch(served.url, {
        method: "POST",
        headers: { ...headers, authorization: "Bearer nope" },
        body: JSON.stringify(initialize),
      });
      expect(wrongToken.status).toBe(401);
      const port = new URL(served.url).port;
      const foreignHost = await new Promise<number>((resolve, reject) => {
        // fetch does not let a page set Host: a raw request does, as a rebinding page's would arrive.
        import("node:http").then(({ request }) => {
          const req = request(
            {
              host: "127.0.0.1",
              port,
              path: "/mcp",
              method: "POST",
              headers: { ...headers, host: `evil.example:${port}`, authorization: `Bearer ${token}` },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          req.end(JSON.stringify(initialize));
        }, reject);
      });
      expect(foreignHost).toBe(403);
    } finally {
      served.child.kill("SIGTERM");
    }
    expect(await served.exited).toBe(0);
    expect(served.stderr()).toContain("SIGTERM: stopping");
  });

  it("refuses to listen beyond loopback without a token, with a short token, or on a wildcard address without --allowed-host", async () => {
    const refusal = async (args: string[], env: Record<string, string> = {}) => {
      const child = spawn(
        process.execPath,
        ["--import", TSX_LOADER, CLI_ENTRY, "serve", "--http", "--port", "0", "--index", index, ...args],
        { cwd: CLI_REPO_ROOT, env: serveEnv(env) },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      return { code, stderr };
    };
    const noToken = await refusal(["--host", "0.0.0.0"]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("LOOKUP_KNOWLEDGE_MCP_TOKEN");
    const short = await refusal(["--host", "0.0.0.0", "--allowed-host", "kb.internal"], {
      LOOKUP_KNOWLEDGE_MCP_TOKEN: "abc",
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 16 characters");
    const wildcard = await refusal(["--host", "0.0.0.0"], { LOOKUP_KNOWLEDGE_MCP_TOKEN: "a-long-enough-token-0123" });
    expect(wildcard.code).toBe(2);
    expect(wildcard.stderr).toContain("--allowed-host");
    expect(wildcard.stderr).not.toContain("a-long-enough-token-0123");
  });

  it("exits 1 with one line, leaving no corpus watcher behind, when the port is taken", async () => {
    const { createServer } = await import("node:net");
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", () => resolve()));
    const port = String((taken.address() as { port: number }).port);
    try {
      const child = spawn(
        process.execPath,
        [
          "--import",
          TSX_LOADER,
          CLI_ENTRY,
          "serve",
          "--http",
          "--port",
          port,
          "--watch",
          "--index",
          index,
          "--no-trace",
        ],
        { cwd: CLI_REPO_ROOT, env: serveEnv() },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(stderr).not.toContain("watching");
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  it("runs inside a LangGraph createAgent through @langchain/mcp-adapters", async () => {
    const served = await serveHttp(["--index", index, "--no-trace"]);
    const mcp = new MultiServerMCPClient({
      mcpServers: { knowledge: { transport: "http", url: served.url } },
      useStandardContentBlocks: true,
    });
    try {
      const tools = await mcp.getTools();
      expect(tools.map((tool) => tool.name)).toEqual(["lookup_knowledge"]);
      const model = new FakeToolCallingModel({
        toolCalls: [[{ name: "lookup_knowledge", args: { query: QUESTION }, id: "call_mcp_1" }], []],
      });
      const agent = createAgent({ model, tools });
      const { messages } = await agent.invoke({
        messages: [new HumanMessage("An invoice batch went out with wrong amounts. What now?")],
      });
      const toolMessages = messages.filter((message) => ToolMessage.isInstance(message));
      expect(toolMessages).toHaveLength(1);
      expect(toolMessages[0].status).not.toBe("error");
      expect(JSON.stringify(toolMessages[0].content)).toContain("billing/invoice-run-rollback.md#");
    } finally {
      await mcp.close();
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });
});
