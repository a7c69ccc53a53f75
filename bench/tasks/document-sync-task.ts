import { Document } from "@langchain/core/documents";
import { join } from "node:path";
import { KnowledgeBase } from "../../src/index.js";
import { BenchError } from "../bench-error.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { replicateCorpus } from "../dataset/replicate-corpus.js";
import {
  editOneSection,
  toMarkdownFiles,
  writeMarkdownFiles,
  type MarkdownFile,
} from "../dataset/write-markdown-corpus.js";
import type { DocumentSyncSpec, KeepPartial } from "./task-spec.js";

/** One timed edit: load the saved index, apply the edit (an update or a sync), save a new generation. */
export interface EditTiming {
  loadMs: number;
  applyMs: number;
  saveMs: number;
  totalMs: number;
  /** Chunks embedded again by the edit (the edited section only, when nothing else changed). */
  chunksEmbedded: number;
}

/** A build and save of the whole base, the starting point of the edits. */
export interface BuildTiming {
  totalMs: number;
  chunkCount: number;
}

/** What the document-sync child measured: one edited source, as a corpus file and as a LangChain document. */
export interface DocumentSyncResult {
  size: number;
  files: number;
  sectionsPerFile: number;
  folderBuild: BuildTiming;
  /** One file of the corpus folder edited: `KnowledgeBase.load` + `update({ corpusDir })` + save (the CLI's path). */
  folderEdit: EditTiming;
  documentsBuild: BuildTiming;
  /** Every document given again, one of them edited: load + `syncDocuments(all, { cleanup: "full" })` + save. */
  syncAll: EditTiming;
  /** Only the edited document given: load + `syncDocuments([doc], { cleanup: "incremental" })` + save. */
  syncOne: EditTiming;
  /** The counts of the two syncs, as `syncDocuments` returned them. */
  syncAllCounts: unknown;
  syncOneCounts: unknown;
}

const asDocument = (file: MarkdownFile) => new Document({ pageContent: file.text, metadata: { source: file.path } });

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function timeBuild(build: () => Promise<KnowledgeBase>, indexDir: string): Promise<BuildTiming> {
  const start = performance.now();
  const kb = await build();
  await kb.save(indexDir);
  return { totalMs: performance.now() - start, chunkCount: kb.chunks.length };
}

async function timeEdit(
  indexDir: string,
  marker: string,
  apply: (kb: KnowledgeBase) => Promise<{ knowledgeBase: KnowledgeBase; chunksEmbedded: number }>,
): Promise<EditTiming> {
  gc();
  const start = performance.now();
  const loaded = await KnowledgeBase.load(indexDir);
  const loadMs = performance.now() - start;
  const { knowledgeBase, chunksEmbedded } = await apply(loaded);
  const applyMs = performance.now() - start - loadMs;
  await knowledgeBase.save(indexDir);
  const totalMs = performance.now() - start;
  if (!knowledgeBase.chunks.some((chunk) => chunk.content.includes(marker))) {
    throw new BenchError(`the edit was not picked up: no chunk holds "${marker}" afterwards.`);
  }
  return { loadMs, applyMs, saveMs: totalMs - loadMs - applyMs, totalMs, chunksEmbedded };
}

/**
 * Writes `size` replicated documents as Markdown files of `sectionsPerFile` sections, then times
 * one edited source two ways side by side: as a corpus file (build the folder, edit one word of
 * one file, load + update + save) and as LangChain documents (one `Document` per file with its
 * path as `source`, built with `fromDocuments`; the same word edited, load + syncDocuments + save,
 * given every document with `cleanup: "full"` and given only the edited one).
 */
export async function runDocumentSyncTask(
  spec: DocumentSyncSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<DocumentSyncResult> {
  const corpusDir = join(spec.workDir, "corpus");
  const { docs } = await loadSciFact(spec.dataset);
  const files = toMarkdownFiles(replicateCorpus(docs, spec.size), spec.sectionsPerFile);
  await writeMarkdownFiles(corpusDir, files);
  const partial: Partial<DocumentSyncResult> = {
    size: spec.size,
    files: files.length,
    sectionsPerFile: spec.sectionsPerFile,
  };
  const target = Math.floor(files.length / 2);
  const section = Math.floor(spec.sectionsPerFile / 2);
  const edited = (marker: string) => ({ ...files[target], text: editOneSection(files[target].text, section, marker) });

  log(`wrote ${files.length} Markdown files; building the folder index`);
  const folderIndex = join(spec.workDir, "index-folder");
  partial.folderBuild = await timeBuild(() => KnowledgeBase.build({ corpusDir }), folderIndex);
  keep(partial);
  await writeMarkdownFiles(corpusDir, [edited("benchsyncfolder")]);
  partial.folderEdit = await timeEdit(folderIndex, "benchsyncfolder", async (kb) => {
    const { knowledgeBase, changes } = await kb.update({ corpusDir });
    return { knowledgeBase, chunksEmbedded: changes.chunksAdded };
  });
  keep(partial);

  log("building the same files as LangChain documents");
  const documentsIndex = join(spec.workDir, "index-documents");
  partial.documentsBuild = await timeBuild(() => KnowledgeBase.fromDocuments(files.map(asDocument)), documentsIndex);
  if (partial.documentsBuild.chunkCount !== partial.folderBuild.chunkCount) {
    throw new BenchError(
      `the documents gave ${partial.documentsBuild.chunkCount} chunks and the folder ${partial.folderBuild.chunkCount}: they should chunk alike.`,
    );
  }
  keep(partial);
  const all = files.map((file, i) => asDocument(i === target ? edited("benchsyncall") : file));
  partial.syncAll = await timeEdit(documentsIndex, "benchsyncall", async (kb) => {
    const { knowledgeBase, result, changes } = await kb.syncDocuments(all, { cleanup: "full" });
    partial.syncAllCounts = result;
    return { knowledgeBase, chunksEmbedded: changes.chunksAdded };
  });
  keep(partial);
  partial.syncOne = await timeEdit(documentsIndex, "benchsyncone", async (kb) => {
    const { knowledgeBase, result, changes } = await kb.syncDocuments([asDocument(edited("benchsyncone"))]);
    partial.syncOneCounts = result;
    return { knowledgeBase, chunksEmbedded: changes.chunksAdded };
  });
  return partial as DocumentSyncResult;
}
