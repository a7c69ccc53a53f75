import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupResult, ToolInvocationRecord } from "../../src/index.js";
import { createTempDirs, readJsonl } from "../integration/helpers/integration-fixtures.js";
import { CLI_ENTRY, CLI_REPO_ROOT, TSX_LOADER } from "../helpers/run-cli.js";
import { QUESTION, SECRET_TITLE, serveEnv, writeServedIndex } from "./helpers/serve-fixture.js";

/**
 * `lookup-knowledge serve` over stdio with the MCP SDK's own client, the MCP test of the default
 * tier; serve.int.test.ts covers HTTP, token files, refusals and the LangGraph agent.
 */
describe("lookup-knowledge serve over stdio", () => {
  const temp = createTempDirs("lookup-knowledge-serve-");
  let index: string;
  let tracePath: string;

  beforeAll(async () => {
    ({ index, tracePath } = await writeServedIndex(await temp.make()));
  });
  afterAll(() => temp.cleanup());

  it("answers tools/list and tools/call from the SDK's own client over stdio, under the server's scope, with a trace line per call", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", TSX_LOADER, CLI_ENTRY, "serve", "--index", index, "--trace", tracePath, "--group", "support"],
      cwd: CLI_REPO_ROOT,
      env: serveEnv(),
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["lookup_knowledge"]);
    expect(tools[0].inputSchema.properties).toHaveProperty("query");
    expect(tools[0].inputSchema.required).toEqual(["query"]);
    expect(tools[0].outputSchema?.required).toEqual(expect.arrayContaining(["evidence", "l1Status", "relevance"]));
    expect(tools[0].annotations?.readOnlyHint).toBe(true);

    const answer = await client.callTool({ name: "lookup_knowledge", arguments: { query: QUESTION, limit: 20 } });
    expect(answer.isError).toBeFalsy();
    const text = (answer.content as Array<{ type: string; text: string }>)[0].text;
    const result = answer.structuredContent as LookupResult;
    expect(result.primary?.source).toMatch(/^billing\/invoice-run-rollback\.md#/);
    expect(text).toContain(result.evidence[0].source);
    // The scope is the server's --group support: the hr-only file never shows, whatever the client asks.
    expect(JSON.stringify(answer)).not.toContain(SECRET_TITLE);

    // Arguments the schema refuses are the client's error: JSON-RPC -32602 in one line, and a refused trace line.
    const refused = client.callTool({ name: "lookup_knowledge", arguments: { query: "", limit: 500 } });
    await expect(refused).rejects.toMatchObject({ code: -32602, message: expect.not.stringContaining("\n") });
    await client.close();

    const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    const line = lines.find((record) => record.invocation_id === result.invocationId);
    expect(line?.access?.groups).toEqual(["support"]);
    expect(line?.index_generation).toMatch(/^gen-[0-9a-f]{16}$/);
    // The MCP request id is the trace line's tool call id.
    expect(line?.tool_call_id).toMatch(/^[0-9]+$/);
    expect(lines.filter((record) => record.status === "refused")).toHaveLength(1);
  });
});
