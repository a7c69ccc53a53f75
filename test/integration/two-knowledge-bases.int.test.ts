import { createAgent, FakeToolCallingModel, HumanMessage, ToolMessage } from "langchain";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, readJsonl, REPO_ROOT } from "./helpers/integration-fixtures.js";

const BILLING_QUERY = "How do I roll back an invoice batch that went out with wrong amounts?";
const DEPLOY_QUERY = "What are the canary stages of a production deploy?";

/** A knowledge base of one domain folder of the sample corpus, copied to a temp folder of its own. */
async function buildFromCorpusFolder(dir: string, folder: string): Promise<KnowledgeBase> {
  await cp(join(REPO_ROOT, "corpus", folder), join(dir, folder), { recursive: true });
  return KnowledgeBase.build({ corpusDir: dir, onWarning: () => {} });
}

const toolMessagesOf = (messages: unknown[]) =>
  messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

describe("two knowledge bases, one tool each, in one LangChain agent", () => {
  const temp = createTempDirs();
  let billing: KnowledgeBase;
  let deployment: KnowledgeBase;

  beforeAll(async () => {
    [billing, deployment] = await Promise.all([
      buildFromCorpusFolder(await temp.make(), "billing"),
      buildFromCorpusFolder(await temp.make(), "deployment"),
    ]);
  });
  afterAll(() => temp.cleanup());

  it("answers each tool call from its own base and traces each line under its tool's name", async () => {
    const tracePath = join(await temp.make(), "tool_invocation.jsonl");
    const lookupBilling = createLookupKnowledgeTool({ knowledgeBase: billing, tracePath, name: "lookup_billing" });
    const lookupDeploy = createLookupKnowledgeTool({ knowledgeBase: deployment, tracePath, name: "lookup_deployment" });
    const model = new FakeToolCallingModel({
      toolCalls: [
        [
          { name: "lookup_billing", args: { query: BILLING_QUERY }, id: "call_billing" },
          { name: "lookup_deployment", args: { query: DEPLOY_QUERY, domain: "deployment" }, id: "call_deploy" },
        ],
        [],
      ],
    });
    const agent = createAgent({ model, tools: [lookupBilling, lookupDeploy] });

    const { messages } = await agent.invoke({
      messages: [new HumanMessage("A bad invoice batch went out during a canary deploy. What now?")],
    });
    await Promise.all([lookupBilling.close(), lookupDeploy.close()]);

    const byCall = new Map(toolMessagesOf(messages).map((message) => [message.tool_call_id, message]));
    expect([...byCall.keys()].sort()).toEqual(["call_billing", "call_deploy"]);
    const billingMessage = byCall.get("call_billing")!;
    const deployMessage = byCall.get("call_deploy")!;
    expect(billingMessage).toMatchObject({ name: "lookup_billing" });
    expect(deployMessage).toMatchObject({ name: "lookup_deployment" });
    expect([billingMessage.status, deployMessage.status]).not.toContain("error");

    const billingResult = billingMessage.artifact as LookupResult;
    const deployResult = deployMessage.artifact as LookupResult;
    const billingSources = new Set(billing.chunks.map((chunk) => chunk.source));
    const deploySources = new Set(deployment.chunks.map((chunk) => chunk.source));
    expect(billingResult.primary?.source).toMatch(/^billing\/invoice-batch-rollback\.md#/);
    expect(deployResult.primary?.source).toMatch(/^deployment\/canary-releases\.md#/);
    for (const block of billingResult.evidence) expect(billingSources.has(block.source), block.source).toBe(true);
    for (const block of deployResult.evidence) expect(deploySources.has(block.source), block.source).toBe(true);
    expect(String(billingMessage.content)).toContain(billingResult.primary!.source);

    const trace = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    const lineOf = new Map(trace.map((line) => [line.invocation_id, line]));
    expect(trace).toHaveLength(2);
    expect(lineOf.get(billingResult.invocationId)).toMatchObject({
      tool_name: "lookup_billing",
      status: "success",
      corpus_fingerprint: billing.fingerprint,
      input: { query: BILLING_QUERY },
    });
    expect(lineOf.get(deployResult.invocationId)).toMatchObject({
      tool_name: "lookup_deployment",
      status: "success",
      corpus_fingerprint: deployment.fingerprint,
      input: { domain: "deployment" },
    });
  });

  it("tells the model what each tool covers, in its description and in its domain enum", () => {
    const lookupBilling = createLookupKnowledgeTool({
      knowledgeBase: billing,
      tracePath: null,
      name: "lookup_billing",
    });
    const lookupDeploy = createLookupKnowledgeTool({
      knowledgeBase: deployment,
      tracePath: null,
      name: "lookup_deployment",
    });

    expect(lookupBilling.description).toContain("(domains: billing)");
    expect(lookupDeploy.description).toContain("(domains: deployment)");
    expect(lookupBilling.schema.shape.domain.safeParse("deployment").success).toBe(false);
    expect(lookupDeploy.schema.shape.domain.safeParse("deployment").success).toBe(true);
  });

  it("routes every call of a name two tools share to the first of them, without an error or a warning", async () => {
    // createAgent does not check tool names: its ToolNode takes the first tool of the called name, so
    // the second base is unreachable. A real provider may refuse the duplicate function instead.
    // Hence the `name` option: one name per knowledge base.
    const sink = {
      records: [] as Record<string, unknown>[],
      append: async (record: object) => (sink.records.push(record as Record<string, unknown>), true),
    };
    const first = createLookupKnowledgeTool({ knowledgeBase: billing, traceSink: sink });
    const second = createLookupKnowledgeTool({ knowledgeBase: deployment, traceSink: sink });
    const model = new FakeToolCallingModel({
      toolCalls: [[{ name: "lookup_knowledge", args: { query: DEPLOY_QUERY }, id: "call_deploy" }], []],
    });

    const agent = createAgent({ model, tools: [first, second] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("What are the canary stages?")] });

    const [message] = toolMessagesOf(messages);
    const result = message.artifact as LookupResult;
    const billingSources = new Set(billing.chunks.map((chunk) => chunk.source));
    expect(message.status).not.toBe("error");
    for (const block of result.evidence) expect(billingSources.has(block.source), block.source).toBe(true);
    expect(sink.records).toEqual([
      expect.objectContaining({ tool_name: "lookup_knowledge", corpus_fingerprint: billing.fingerprint }),
    ]);
  });
});
