// LangChain documents in, lookup_knowledge out: a handbook folder read by a real DirectoryLoader
// (TextLoader for .txt, JSONLinesLoader for .jsonl), metadata set by mapping the documents, a
// knowledge base built with `KnowledgeBase.fromDocuments` and saved; then one file edited, one
// added and one deleted, and `syncDocuments(..., { cleanup: "full" })` re-indexing only those;
// then the saved generation loaded again and asked through the tool in `createAgent`, with a fake
// chat model that calls lookup_knowledge once and cites the evidence's source. Offline; the
// loaders come from @langchain/classic (`npm install @langchain/classic` in an app).
//
//   npx tsx examples/langchain-documents.ts
import { DirectoryLoader } from "@langchain/classic/document_loaders/fs/directory";
import { JSONLinesLoader } from "@langchain/classic/document_loaders/fs/json";
import { TextLoader } from "@langchain/classic/document_loaders/fs/text";
import type { DocumentInterface } from "@langchain/core/documents";
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage, type BaseMessage } from "langchain";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
// An app imports these from "lookup-knowledge".
import { createLookupKnowledgeTool, KnowledgeBase, TOOL_NAME, type LookupResult } from "../src/index.js";

const QUESTION = "When is payday?";
const faq = (lines: string[]) => lines.map((text) => JSON.stringify({ text })).join("\n");
const FAQ = [
  "Where do I find the guest Wi-Fi password? It is printed on the back of every meeting room door.",
  "When is payday? Salaries are paid on the 25th of each month.",
  "Who do I ask about my payslip? Write to payroll@example.com; answers come within two working days.",
  "Can I park at the office? The underground garage has twenty spaces, booked through the facilities desk.",
];
/** The handbook as first written: file path (below the folder) -> content. */
const HANDBOOK: Record<string, string> = {
  "people/leave.txt":
    "Everyone has 25 days of paid annual leave a year, plus public holidays.\n\nBook leave in the people portal at least two weeks ahead; your manager approves it.",
  "people/faq.jsonl": faq(FAQ),
  "finance/expenses.txt":
    "Submit receipts within 30 days through the expenses app.\n\nMeals on business trips are reimbursed up to 40 euros a day.",
  "it/laptops.txt": "Laptops are replaced every three years. Report a lost laptop to the IT desk within 24 hours.",
};
/** Titles the files do not carry themselves: set on each document's metadata below. */
const TITLES: Record<string, string> = {
  "leave.txt": "Annual leave",
  "faq.jsonl": "Staff FAQ",
  "expenses.txt": "Expenses",
  "laptops.txt": "Laptops",
  "remote-work.txt": "Remote work",
};

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/**
 * Every document of the folder, with metadata the knowledge base reads: `source` relative to the
 * folder, `domain` from the first folder, `title` from the table. Replacing `source` (rather than
 * passing a `sourceIdKey` function) keeps the machine's path out of citations and out of the
 * documents' hashes, so a checkout elsewhere syncs as unchanged. The loader's own keys
 * (JSONLinesLoader's `line`) stay: they place each document in its source.
 */
async function loadHandbook(dir: string): Promise<DocumentInterface[]> {
  const loader = new DirectoryLoader(dir, {
    ".txt": (path) => new TextLoader(path),
    ".jsonl": (path) => new JSONLinesLoader(path, "/text"),
  });
  return (await loader.load()).map((document) => {
    const source = relative(dir, String(document.metadata.source)).split(sep).join("/");
    const [domain, file] = source.split("/");
    return { ...document, metadata: { ...document.metadata, source, domain, title: TITLES[file] } };
  });
}

/** The stand-in for a real model: the first turn calls the tool, the second cites the top evidence. */
function createOfflineModel() {
  return fakeModel()
    .respondWithTools([{ name: TOOL_NAME, args: { query: QUESTION }, id: "call_lookup_1" }])
    .respond((messages: BaseMessage[]) => {
      const result = messages.findLast((message) => ToolMessage.isInstance(message))?.artifact as LookupResult;
      if (!result?.primary) return new AIMessage("The handbook has no information on this.");
      const { source, breadcrumb = [], content } = result.primary;
      return new AIMessage(`${content.trim()} (source: ${source}, ${breadcrumb.join(" > ")})`);
    });
}

async function main(): Promise<void> {
  const tempDir = await mkdtemp(join(tmpdir(), "lookup-knowledge-documents-"));
  const docsDir = join(tempDir, "handbook");
  const indexDir = join(tempDir, "index");
  try {
    await writeFiles(docsDir, HANDBOOK);
    const built = await KnowledgeBase.fromDocuments(await loadHandbook(docsDir));
    await built.save(indexDir);
    const first = await KnowledgeBase.load(indexDir);
    console.log(
      `built: ${first.chunks.length} chunks in domains ${first.domains.join(", ")}; saved as ${first.generation}`,
    );

    // One FAQ line edited, a file added, a file deleted: the sync re-reads the whole folder, and
    // cleanup "full" removes the sources no longer in it.
    await writeFiles(docsDir, {
      "people/faq.jsonl": faq(FAQ.with(1, "When is payday? Salaries are paid on the last working day of each month.")),
      "people/remote-work.txt": "You may work from home up to three days a week; agree the days with your team.",
    });
    await rm(join(docsDir, "it/laptops.txt"));
    const { knowledgeBase, result, changes } = await first.syncDocuments(await loadHandbook(docsDir), {
      cleanup: "full",
    });
    console.log(
      `sync: added ${result.numAdded}, updated ${result.numUpdated}, skipped ${result.numSkipped}, deleted ${result.numDeleted} (documents)`,
    );
    console.log(
      `chunks: ${changes.chunksAdded} embedded, ${changes.chunksRemoved} removed, ${changes.chunksKept} kept`,
    );
    await knowledgeBase.save(indexDir);

    // Another process (a server, the CLI) loads the new generation the same way.
    const kb = await KnowledgeBase.load(indexDir);
    console.log(`reloaded: ${kb.generation} replaces ${first.generation}; ${kb.chunks.length} chunks`);

    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: join(tempDir, "trace.jsonl") });
    try {
      const agent = createAgent({
        model: createOfflineModel(),
        tools: [lookup],
        systemPrompt:
          "Answer from the handbook: call lookup_knowledge, then answer from its evidence and cite the source.",
      });
      const { messages } = await agent.invoke({ messages: [new HumanMessage(QUESTION)] });
      for (const message of messages) {
        if (AIMessage.isInstance(message))
          for (const call of message.tool_calls ?? [])
            console.log(`tool call: ${call.name}(${JSON.stringify(call.args)})`);
      }
      console.log(`answer: ${String(messages.at(-1)?.content)}`);
    } finally {
      await lookup.close();
    }
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`langchain-documents example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
