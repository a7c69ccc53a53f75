import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  followKnowledgeBase,
  KnowledgeBase,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { startMcpHttpEndpoint } from "../../src/mcp/http-endpoint.js";
import { createMcpToolHandler } from "../../src/mcp/mcp-tool-server.js";
import { createTempDirs, KB_DIR, readJsonl } from "../integration/helpers/integration-fixtures.js";
import { postJson, toolCall } from "./helpers/raw-mcp.js";

const TOKENS = { hr: "hr-token-0123456789abcdef", support: "support-token-0123456789" };

/** A corpus of two unlabelled domains and one only hr reads. */
async function writeCorpus(dir: string, deploymentAccess: string): Promise<void> {
  const file = async (path: string, domain: string, access: string, title: string) => {
    await mkdir(join(dir, domain), { recursive: true });
    await writeFile(
      join(dir, domain, path),
      `---\ntitle: ${title}\ndomain: ${domain}\n${access}---\n# ${title}\n\n${title} steps and owners.\n`,
    );
  };
  await file("refunds.md", "billing", "", "Refund approvals");
  await file("rollback.md", "deployment", deploymentAccess, "Rollback runbook");
  await file("bands.md", "payroll", "access: [hr]\n", "Salary bands");
}

/** The `domain` enum the client sees in the tool's input schema. */
async function listedDomains(client: Client): Promise<unknown> {
  const { tools } = await client.listTools();
  const properties = tools[0].inputSchema.properties as Record<string, { enum?: string[] }>;
  return properties.domain.enum;
}

describe("the MCP tool server", () => {
  const temp = createTempDirs("lookup-knowledge-mcp-server-");
  afterAll(() => temp.cleanup());

  it("answers arguments the schema refuses with JSON-RPC -32602 in one line, and traces each as refused", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    const tracePath = join(await temp.make(), "trace.jsonl");
    const tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath, access: { groups: ["support"] } });
    const endpoint = await startMcpHttpEndpoint({ handler: createMcpToolHandler({ tool }), port: 0 });
    try {
      const refused = [null, "a string", { query: "" }, { query: "refunds", limit: 99 }, { query: "x".repeat(5000) }];
      for (const [i, args] of refused.entries()) {
        const { status, json } = await postJson(endpoint.url, toolCall(i + 1, args));
        expect(status).toBe(200);
        const { error } = json as { error: { code: number; message: string } };
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(
          /^INVALID_INPUT: lookup-knowledge: the arguments of lookup_knowledge are invalid \(/,
        );
        expect(error.message).not.toContain("\n");
        expect(error.message).not.toContain("xxxxxxxxxx");
      }
      const ok = await postJson(endpoint.url, toolCall(9, { query: "refund approval" }));
      expect((ok.json as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      await tool.close();
      const records = (await readJsonl(tracePath)) as ToolInvocationRecord[];
      expect(records.map((record) => record.status)).toEqual([...refused.map(() => "refused"), "success"]);
      expect(records.map((record) => record.tool_call_id)).toEqual(["1", "2", "3", "4", "5", "9"]);
      for (const record of records.slice(0, refused.length)) {
        expect(record.error_type).toBe("INVALID_INPUT");
        expect(record.access?.groups).toEqual(["support"]);
        expect(record.retrieval_details).toBeNull();
      }
      // The same bound as every line: the 5,000-character query is cut to 1,000 and named as cut.
      expect(records[4].input.query).toHaveLength(1000);
      expect(records[4].truncated).toContain("input.query");
    } finally {
      await endpoint.close();
    }
  });

  it("lists for every scope the domains of the generation it serves, after a reload hides or adds one", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const index = join(root, "index");
    await writeCorpus(corpus, "");
    await (await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} })).save(index);
    const kb = await followKnowledgeBase(index, { pollMs: 0 });
    const tools = {
      hr: createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null, access: { groups: ["hr"] } }),
      support: createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null, access: { groups: ["support"] } }),
    };
    const handlers = {
      hr: createMcpToolHandler({ tool: tools.hr }),
      support: createMcpToolHandler({ tool: tools.support }),
    };
    const endpoint = await startMcpHttpEndpoint({
      port: 0,
      audiences: [
        { token: TOKENS.hr, handler: handlers.hr },
        { token: TOKENS.support, handler: handlers.support },
      ],
    });
    const connect = async (token: string) => {
      const client = new Client({ name: "reload-test", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    // A connected client (stdio's case) is told that the list changed.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const held = new Client({ name: "held-connection", version: "1" });
    let changed = 0;
    held.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    await handlers.support.createServer().connect(serverSide);
    await held.connect(clientSide);
    try {
      const hr = await connect(TOKENS.hr);
      const support = await connect(TOKENS.support);
      expect(await listedDomains(hr)).toEqual(["billing", "deployment", "payroll"]);
      expect(await listedDomains(support)).toEqual(["billing", "deployment"]);
      expect(await listedDomains(held)).toEqual(["billing", "deployment"]);

      await writeCorpus(corpus, "access: [hr]\n");
      await mkdir(join(corpus, "legal"));
      await writeFile(
        join(corpus, "legal", "terms.md"),
        "---\ntitle: Terms\ndomain: legal\n---\n# Terms\n\nTerms text.\n",
      );
      await (await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} })).save(index);
      await kb.refresh();
      handlers.hr.toolsChanged();
      handlers.support.toolsChanged();

      expect(await listedDomains(hr)).toEqual(["billing", "deployment", "legal", "payroll"]);
      expect(await listedDomains(support)).toEqual(["billing", "legal"]);
      expect(await listedDomains(held)).toEqual(["billing", "legal"]);
      const { tools: listed } = await support.listTools();
      expect(listed[0].description).not.toContain("deployment");
      expect(changed).toBe(1);
      const hidden = await postJson(endpoint.url, toolCall(1, { query: "rollback", domain: "deployment" }), {
        authorization: `Bearer ${TOKENS.support}`,
      });
      expect((hidden.json as { error: { code: number } }).error.code).toBe(-32602);
      await Promise.all([hr.close(), support.close(), held.close()]);
    } finally {
      await endpoint.close();
      kb.close();
    }
  });
});
