import { AIMessage, createAgent, FakeToolCallingModel, HumanMessage, ToolMessage } from "langchain";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, KB_DIR, readJsonl } from "./helpers/integration-fixtures.js";

describe("lookup_knowledge bound in a LangChain agent", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });
  afterAll(() => temp.cleanup());

  it("returns a ToolMessage whose artifact is the LookupResult and whose content cites its sources", async () => {
    const tracePath = join(await temp.make(), "tool_invocation.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });
    // First turn calls the tool once; the second turn has no tool calls, so the agent finishes.
    const model = new FakeToolCallingModel({
      toolCalls: [
        [
          {
            name: "lookup_knowledge",
            args: { query: "How do I undo an invoice batch with wrong amounts?" },
            id: "call_lookup_1",
          },
        ],
        [],
      ],
    });
    const agent = createAgent({ model, tools: [lookup] });

    const { messages } = await agent.invoke({
      messages: [new HumanMessage("An invoice batch went out with wrong amounts. What now?")],
    });

    const toolMessages = messages.filter((message) => ToolMessage.isInstance(message));
    expect(toolMessages).toHaveLength(1);
    const [toolMessage] = toolMessages;
    expect(toolMessage.name).toBe("lookup_knowledge");
    expect(toolMessage.tool_call_id).toBe("call_lookup_1");
    expect(toolMessage.status).not.toBe("error");

    const result = toolMessage.artifact as LookupResult;
    expect(Array.isArray(result.evidence)).toBe(true);
    expect(result.evidence.length).toBeGreaterThan(0);
    expect(["L0", "L1", "L0+L1"]).toContain(result.retrievalLayer);
    expect(result.hints).toEqual(
      expect.objectContaining({ titles: expect.any(Array), keywords: expect.any(Array), domains: expect.any(Array) }),
    );
    expect(result.primary?.source).toMatch(/^billing\/invoice-run-rollback\.md#/);
    expect(String(toolMessage.content)).toContain(result.evidence[0].source);

    const last = messages[messages.length - 1];
    expect(AIMessage.isInstance(last)).toBe(true);
    expect((last as AIMessage).tool_calls ?? []).toHaveLength(0);

    const trace = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    expect(trace.map((line) => line.invocation_id)).toEqual([result.invocationId]);
  });
});
