import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KnowledgeBase } from "../../src/index.js";
import { BenchError } from "../bench-error.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { replicateCorpus } from "../dataset/replicate-corpus.js";
import { editOneSection, toMarkdownFiles, writeMarkdownFiles } from "../dataset/write-markdown-corpus.js";
import { createPhaseRecorder, type PhaseTiming } from "../measure/phase-recorder.js";
import type { IncrementalSpec, KeepPartial } from "./task-spec.js";

/**
 * The incremental re-index API the bench expects (being written in src/ with this signature):
 * `kb.update({ corpusDir })` re-reads the corpus and returns the updated base and what changed.
 */
interface UpdatableKnowledgeBase {
  update(options: { corpusDir: string }): Promise<{ knowledgeBase: KnowledgeBase; changes: unknown }>;
}

/** A full build and save of the Markdown folder. */
export interface FullRebuild {
  buildMs: number;
  saveMs: number;
  totalMs: number;
  phases: PhaseTiming[];
  chunkCount: number;
}

/** An `update` and a save after one file was edited. */
export interface UpdateTiming {
  /** `KnowledgeBase.load(dir)` first: the CLI's path (`lookup-knowledge index` on an existing index). */
  loadMs?: number;
  updateMs: number;
  saveMs: number;
  totalMs: number;
  /** What `update` said changed, as it returned it (cut to 2,000 characters of JSON). */
  changes: unknown;
}

/** What the incremental child measured. */
export interface IncrementalResult {
  size: number;
  files: number;
  sectionsPerFile: number;
  writeCorpusMs: number;
  /** The first build of the folder (also what `update` starts from). */
  initialBuild: FullRebuild;
  /** `kb.update` on the built base in memory, then save. */
  inMemory: UpdateTiming;
  /** `KnowledgeBase.load` + `update` + save, as the CLI does it. */
  cliPath: UpdateTiming;
  /** A full build and save of the edited folder, for comparison. */
  fullRebuild: FullRebuild;
}

function updatable(kb: KnowledgeBase): UpdatableKnowledgeBase {
  return kb as unknown as UpdatableKnowledgeBase;
}

function compact(changes: unknown): unknown {
  let text: string;
  try {
    text = JSON.stringify(changes) ?? "null";
  } catch {
    return String(changes);
  }
  return text.length <= 2000 ? JSON.parse(text) : `${text.slice(0, 2000)}…`;
}

async function fullBuild(corpusDir: string, indexDir: string): Promise<FullRebuild & { kb: KnowledgeBase }> {
  const start = performance.now();
  const recorder = createPhaseRecorder(start);
  const kb = await KnowledgeBase.build({ corpusDir, onProgress: (event) => recorder.record(event) });
  const buildMs = performance.now() - start;
  await kb.save(indexDir);
  const totalMs = performance.now() - start;
  return { buildMs, saveMs: totalMs - buildMs, totalMs, phases: recorder.phases(), chunkCount: kb.chunks.length, kb };
}

/** Edits one word of one section of the middle file; returns the marker word that must show up in the index. */
async function editFile(corpusDir: string, file: string, section: number, marker: string): Promise<void> {
  const path = join(corpusDir, file);
  await writeFile(path, editOneSection(await readFile(path, "utf8"), section, marker), "utf8");
}

async function timeUpdate(
  kb: KnowledgeBase,
  corpusDir: string,
  indexDir: string,
  marker: string,
  loadMs?: number,
): Promise<UpdateTiming> {
  const base = updatable(kb);
  const start = performance.now();
  const { knowledgeBase, changes } = await base.update({ corpusDir });
  const updateMs = performance.now() - start;
  await knowledgeBase.save(indexDir);
  const saveMs = performance.now() - start - updateMs;
  if (!knowledgeBase.chunks.some((chunk) => chunk.content.includes(marker))) {
    throw new BenchError(`update did not pick up the edit: no chunk holds "${marker}" afterwards.`);
  }
  return {
    ...(loadMs !== undefined ? { loadMs } : {}),
    updateMs,
    saveMs,
    totalMs: (loadMs ?? 0) + updateMs + saveMs,
    changes: compact(changes),
  };
}

/**
 * Writes `size` replicated documents as Markdown files (`sectionsPerFile` `##` sections each, one
 * chunk per document), builds and saves them, edits one word in one file and times `update` + save
 * (in memory, then load + update + save as the CLI does), then a full rebuild of the same folder.
 */
export async function runIncrementalTask(
  spec: IncrementalSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<IncrementalResult> {
  const corpusDir = join(spec.workDir, "corpus");
  const indexDir = join(spec.workDir, "index");
  const writeStart = performance.now();
  const { docs } = await loadSciFact(spec.dataset);
  const files = toMarkdownFiles(replicateCorpus(docs, spec.size), spec.sectionsPerFile);
  await writeMarkdownFiles(corpusDir, files);
  const writeCorpusMs = performance.now() - writeStart;
  log(`wrote ${files.length} Markdown files of ${spec.sectionsPerFile} sections; building`);

  const { kb, ...initialBuild } = await fullBuild(corpusDir, indexDir);
  if (initialBuild.chunkCount !== spec.size)
    throw new BenchError(
      `the Markdown corpus gave ${initialBuild.chunkCount} chunks, not ${spec.size}: the files do not chunk one section per document.`,
    );
  const partial: Partial<IncrementalResult> = {
    size: spec.size,
    files: files.length,
    sectionsPerFile: spec.sectionsPerFile,
    writeCorpusMs,
    initialBuild,
  };
  keep(partial);
  log(`full build + save ${(initialBuild.totalMs / 1000).toFixed(1)} s; timing update`);

  const edited = files[Math.floor(files.length / 2)].path;
  const section = Math.floor(spec.sectionsPerFile / 2);
  updatable(kb);
  await editFile(corpusDir, edited, section, "benchedit1");
  partial.inMemory = await timeUpdate(kb, corpusDir, indexDir, "benchedit1");
  keep(partial);

  await editFile(corpusDir, edited, section, "benchedit2");
  const loadStart = performance.now();
  const loaded = await KnowledgeBase.load(indexDir);
  partial.cliPath = await timeUpdate(loaded, corpusDir, indexDir, "benchedit2", performance.now() - loadStart);
  keep(partial);

  log("timing a full rebuild of the edited folder");
  const { kb: _rebuilt, ...fullRebuild } = await fullBuild(corpusDir, join(spec.workDir, "index-full"));
  return { ...(partial as Omit<IncrementalResult, "fullRebuild">), fullRebuild };
}
