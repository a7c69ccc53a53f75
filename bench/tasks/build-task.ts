import { KnowledgeBase } from "../../src/index.js";
import { dirBytes, fileSizes } from "../measure/dir-bytes.js";
import { createPhaseRecorder, type PhaseTiming } from "../measure/phase-recorder.js";
import { benchChunks } from "./bench-chunks.js";
import type { BuildSpec, KeepPartial } from "./task-spec.js";

/** What the build child measured. */
export interface BuildResult {
  size: number;
  chunkCount: number;
  /** Generating the replicated corpus (read, perturb, make chunks); not part of the build. */
  generateMs: number;
  /** `fromChunks` phases as its progress events showed them. */
  phases: PhaseTiming[];
  /** `fromChunks` wall time. */
  buildMs: number;
  /** Steps of `kb.save` as its progress events showed them. */
  saveSteps: PhaseTiming[];
  saveMs: number;
  indexBytes: number;
  /** Bytes per file of the index folder. */
  files: Record<string, number>;
  /** Peak resident set of the build process, KiB (`process.resourceUsage().maxRSS`). */
  maxRssKiB: number;
}

/** Builds with `KnowledgeBase.fromChunks`, saves, and measures the folder. */
export async function runBuildTask(
  spec: BuildSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<BuildResult> {
  const { chunks, generateMs } = await benchChunks(spec.dataset, spec.size);
  log(`generated ${chunks.length} chunks in ${(generateMs / 1000).toFixed(1)} s; building`);
  const buildStart = performance.now();
  const build = createPhaseRecorder(buildStart);
  const kb = await KnowledgeBase.fromChunks(chunks, { onProgress: (event) => build.record(event) });
  const buildMs = performance.now() - buildStart;
  keep({ size: spec.size, chunkCount: kb.chunks.length, generateMs, phases: build.phases(), buildMs });
  log(`built in ${(buildMs / 1000).toFixed(1)} s; saving`);

  const saveStart = performance.now();
  const save = createPhaseRecorder(saveStart);
  await kb.save(spec.indexDir, { onProgress: (event) => save.record({ phase: event.step }) });
  const saveMs = performance.now() - saveStart;
  return {
    size: spec.size,
    chunkCount: kb.chunks.length,
    generateMs,
    phases: build.phases(),
    buildMs,
    saveSteps: save.phases(),
    saveMs,
    indexBytes: await dirBytes(spec.indexDir),
    files: await fileSizes(spec.indexDir),
    maxRssKiB: process.resourceUsage().maxRSS,
  };
}
