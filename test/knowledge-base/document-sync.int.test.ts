import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { DirectoryLoader } from "@langchain/classic/document_loaders/fs/directory";
import { JSONLinesLoader } from "@langchain/classic/document_loaders/fs/json";
import { TextLoader } from "@langchain/classic/document_loaders/fs/text";
import type { DocumentInterface } from "@langchain/core/documents";
import { PDFLoader } from "@langchain/community/document_loaders/fs/pdf";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalPdf } from "../helpers/minimal-pdf.js";
import { KnowledgeBase, type DocumentOptions } from "../../src/index.js";

let root: string;
let docsDir: string;
let corpusDir: string;

const HANDBOOK = [
  "---",
  "title: People handbook",
  "domain: hr",
  "keywords: [parental leave]",
  "access: [hr]",
  "---",
  "Welcome to the handbook.",
  "",
  "## Parental leave",
  "Parents take sixteen weeks of paid parental leave, booked through the people portal.",
].join("\n");
const NOTES =
  "Release trains leave every Tuesday at noon.\n\nA hotfix skips the train and ships through the emergency lane.";
const CATALOG = [
  { text: "The Zephyr keyboard has hot-swappable switches." },
  { text: "The Quokka mouse charges over USB-C in forty minutes." },
  { text: "The Lynx monitor supports daisy-chained displays." },
]
  .map((row) => JSON.stringify(row))
  .join("\n");

function loader(): DirectoryLoader {
  return new DirectoryLoader(docsDir, {
    ".md": (path) => new TextLoader(path),
    ".txt": (path) => new TextLoader(path),
    ".jsonl": (path) => new JSONLinesLoader(path, "/text"),
  });
}

/** Source ids relative to the folder, so that citations do not carry the machine's paths. */
const options: DocumentOptions = {
  sourceIdKey: (document: DocumentInterface) => relative(docsDir, String(document.metadata.source)),
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "lk-documents-"));
  docsDir = join(root, "docs");
  corpusDir = join(root, "corpus");
  await rm(docsDir, { recursive: true, force: true });
  const { mkdir } = await import("node:fs/promises");
  await mkdir(docsDir);
  await mkdir(corpusDir);
  await writeFile(join(docsDir, "handbook.md"), HANDBOOK);
  await writeFile(join(docsDir, "notes.txt"), NOTES);
  await writeFile(join(docsDir, "catalog.jsonl"), CATALOG);
  await writeFile(join(corpusDir, "a.md"), "# A\nSome text.");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("KnowledgeBase.fromDocuments and syncDocuments over real LangChain loaders", () => {
  let kb: KnowledgeBase;

  it("indexes what DirectoryLoader, TextLoader and JSONLinesLoader produce, Markdown by headings and JSON lines by line", async () => {
    kb = await KnowledgeBase.fromDocuments(loader(), options);
    expect(kb.skipped).toEqual([]);
    expect(kb.chunks.map(({ source }) => source)).toEqual([
      "catalog.jsonl#line-1",
      "catalog.jsonl#line-2",
      "catalog.jsonl#line-3",
      "handbook.md#top",
      "handbook.md#parental-leave",
      "notes.txt#text",
    ]);
    const leave = kb.chunks[4];
    expect(leave.breadcrumb).toEqual(["People handbook", "Parental leave"]);
    expect(leave.meta).toMatchObject({ domain: "hr", keywords: ["parental leave"], access: ["hr"] });
    expect(kb.chunks[1].breadcrumb).toEqual(["line 2"]);
    expect(kb.indexedFiles?.map(({ file, documents }) => [file, documents?.length])).toEqual([
      ["catalog.jsonl", 3],
      ["handbook.md", 1],
      ["notes.txt", 1],
    ]);
  });

  it("answers with the document's identity and location, and enforces the access groups its frontmatter names", async () => {
    const retriever = kb.asRetriever({ tracePath: null });
    const docs = await retriever.invoke("Quokka mouse charging");
    expect(docs[0].metadata.source).toBe("catalog.jsonl#line-2");
    const hr = await kb.asRetriever({ tracePath: null, access: { groups: ["hr"] } }).invoke("parental leave weeks");
    expect(hr.map(({ metadata }) => metadata.source)).toContain("handbook.md#parental-leave");
    const others = await kb
      .asRetriever({ tracePath: null, access: { groups: ["eng"] } })
      .invoke("parental leave weeks");
    expect(others.map(({ metadata }) => metadata.source)).not.toContain("handbook.md#parental-leave");
    expect(JSON.stringify(others)).not.toMatch(/sixteen weeks/);
  });

  it("skips every unchanged document on a sync, re-embedding nothing", async () => {
    const { knowledgeBase, result, changes } = await kb.syncDocuments(loader(), options);
    expect(result).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: 5, numDeleted: 0 });
    expect(changes).toMatchObject({ chunksAdded: 0, chunksRemoved: 0, chunksKept: 6, unchangedFiles: 3 });
    kb = knowledgeBase;
  });

  it("replaces an edited document's chunks, adding only what changed, and saves and loads it as a new generation", async () => {
    await writeFile(join(docsDir, "notes.txt"), NOTES.replace("Tuesday", "Thursday"));
    const { knowledgeBase, result, changes } = await kb.syncDocuments(loader(), options);
    expect(result).toEqual({ numAdded: 0, numUpdated: 1, numSkipped: 4, numDeleted: 0 });
    expect(changes).toMatchObject({ chunksAdded: 1, chunksRemoved: 1, changedFiles: ["notes.txt"] });
    const indexDir = join(root, "index");
    await knowledgeBase.save(indexDir);
    const loaded = await KnowledgeBase.load(indexDir);
    const first = loaded.generation;
    expect(loaded.chunks.find(({ source }) => source === "notes.txt#text")?.content).toMatch(/Thursday/);
    // A loaded base syncs and saves again, as a corpus update does.
    const again = await loaded.syncDocuments(loader(), options);
    expect(again.result.numSkipped).toBe(5);
    await again.knowledgeBase.save(indexDir);
    expect((await KnowledgeBase.load(indexDir)).generation).not.toBe(first);
    kb = knowledgeBase;
  });

  it("counts a renamed source as one added and one deleted with full cleanup, keeping its vectors", async () => {
    await rename(join(docsDir, "notes.txt"), join(docsDir, "memo.txt"));
    const { knowledgeBase, result, changes } = await kb.syncDocuments(loader(), { ...options, cleanup: "full" });
    expect(result).toEqual({ numAdded: 1, numUpdated: 0, numSkipped: 4, numDeleted: 1 });
    expect(changes).toMatchObject({
      addedFiles: ["memo.txt"],
      removedFiles: ["notes.txt"],
      chunksAdded: 0,
      chunksKept: 6,
    });
    kb = knowledgeBase;
  });

  it("keeps sources it was not given with incremental cleanup and removes them with full", async () => {
    const memo = (await loader().load()).filter(({ metadata }) => String(metadata.source).endsWith("memo.txt"));
    const incremental = await kb.syncDocuments(memo, options);
    expect(incremental.result).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: 1, numDeleted: 0 });
    expect(incremental.knowledgeBase.chunks).toHaveLength(6);
    await rm(join(docsDir, "catalog.jsonl"));
    const full = await incremental.knowledgeBase.syncDocuments(loader(), { ...options, cleanup: "full" });
    expect(full.result).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: 2, numDeleted: 3 });
    expect(full.knowledgeBase.chunks.map(({ file }) => file)).toEqual(["handbook.md", "handbook.md", "memo.txt"]);
    kb = full.knowledgeBase;
  });

  it("reports a document with a bad metadata field as a skip naming it and the field, and indexes the rest", async () => {
    const warnings: string[] = [];
    const docs = [
      ...(await loader().load()),
      { pageContent: "Secret body", metadata: { source: join(docsDir, "bad.txt"), keywords: { a: 1 } } },
    ];
    const { knowledgeBase, result } = await kb.syncDocuments(docs, {
      ...options,
      onWarning: (line) => warnings.push(line),
    });
    expect(result.numAdded).toBe(0);
    expect(knowledgeBase.skipped).toEqual([
      { file: "bad.txt", reason: 'metadata field "keywords" must be a list of strings, got object' },
    ]);
    expect(warnings).toEqual([
      'lookup-knowledge: skipped bad.txt: metadata field "keywords" must be a list of strings, got object',
    ]);
    expect(JSON.stringify(knowledgeBase.chunks)).not.toMatch(/Secret body/);
    kb = knowledgeBase;
  });

  it("leaves the base as it was when the loader throws part-way", async () => {
    const before = kb.chunks.length;
    await expect(kb.syncDocuments({ load: () => Promise.reject(new Error("disk gone")) })).rejects.toMatchObject({
      code: "DOCUMENTS_UNREADABLE",
    });
    expect(kb.chunks).toHaveLength(before);
    const { result } = await kb.syncDocuments(loader(), options);
    expect(result.numSkipped).toBe(2);
  });

  it("refuses to sync a base built from a folder, and to update a base built from documents from a folder", async () => {
    const folder = await KnowledgeBase.build({ corpusDir, embeddings: null });
    await expect(folder.syncDocuments(loader(), options)).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringMatching(/corpus folder/),
    });
    await expect(kb.update({ corpusDir })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringMatching(/syncDocuments/),
    });
  });
});

describe("a binary format through its LangChain loader: PDFLoader (pdf-parse) over a PDF made here", () => {
  it("indexes one source with a document per page, cites the page, and re-embeds only the edited page", async () => {
    const path = join(root, "handbook.pdf");
    await writeFile(
      path,
      minimalPdf(["Refunds over 5000 euros need the finance lead.", "Travel is booked through the travel portal."]),
    );
    const pdfOptions: DocumentOptions = { sourceIdKey: (document) => relative(root, String(document.metadata.source)) };
    const kb = await KnowledgeBase.fromDocuments(new PDFLoader(path), pdfOptions);
    expect(kb.chunks.map(({ source, breadcrumb }) => [source, breadcrumb])).toEqual([
      ["handbook.pdf#page-1", ["page 1"]],
      ["handbook.pdf#page-2", ["page 2"]],
    ]);
    const docs = await kb.asRetriever({ tracePath: null }).invoke("who approves refunds over 5000 euros");
    expect(docs[0].metadata.source).toBe("handbook.pdf#page-1");
    expect(docs[0].metadata.breadcrumb).toEqual(["page 1"]);

    await writeFile(
      path,
      minimalPdf(["Refunds over 5000 euros need the finance lead.", "Travel is booked by the office manager."]),
    );
    const { knowledgeBase, result, changes } = await kb.syncDocuments(new PDFLoader(path), pdfOptions);
    expect(result).toEqual({ numAdded: 0, numUpdated: 1, numSkipped: 1, numDeleted: 0 });
    expect(changes).toMatchObject({ chunksAdded: 1, chunksKept: 1, chunksRemoved: 1 });
    expect(knowledgeBase.chunks[1].content).toMatch(/office manager/);
  });
});

describe("a LangChain text splitter in place of the paragraph split", () => {
  it("chunks each document as RecursiveCharacterTextSplitter splits it, numbering the parts of one source", async () => {
    const sentences = [
      "Refunds under 500 euros are approved by the support lead.",
      "Refunds from 500 to 5000 euros need the billing manager.",
      "Refunds over 5000 euros need the finance controller.",
    ];
    const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 70, chunkOverlap: 0, separators: ["\n", " "] });
    const document = { pageContent: sentences.join("\n"), metadata: { source: "refunds.txt", title: "Refunds" } };
    const expected = await splitter.splitText(document.pageContent);
    const kb = await KnowledgeBase.fromDocuments([document], { splitter });
    expect(expected).toEqual(sentences);
    expect(kb.chunks.map(({ source, content }) => [source, content.trim()])).toEqual([
      ["refunds.txt#text", sentences[0]],
      ["refunds.txt#text/2", sentences[1]],
      ["refunds.txt#text/3", sentences[2]],
    ]);
    const docs = await kb.asRetriever({ tracePath: null }).invoke("who approves a refund over 5000 euros");
    expect(docs[0].metadata.source).toBe("refunds.txt#text/3");
  });
});
