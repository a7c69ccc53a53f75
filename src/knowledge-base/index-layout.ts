import { randomBytes } from "node:crypto";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE } from "../l1/embeddings/index.js";

/**
 * The names an index folder holds. `manifest.json` names one generation folder holding every
 * data file; the other names are a save's own bookkeeping. Anything else in the folder belongs to
 * someone else and is never touched.
 */
export const INDEX_FILES = {
  manifest: "manifest.json",
  /** Every chunk without its content: JSON, each string written once (`chunk-meta-codec.ts`). */
  chunks: "chunk-list.json",
  /** Every chunk's content, deflated one by one (inflated when read). */
  contents: "contents.bin",
  /** Corpus files and their content hashes, for incremental re-indexing. */
  files: "files.json",
  bm25: "bm25.bin",
  /** hnswlib's own file of the vector graph (in an older index, followed by the label map). */
  vectors: "vectors.hnsw",
  /** Which chunk each vector label is (`src/l1/vector-labels.ts`); absent in an older index. */
  vectorLabels: "vector-labels.bin",
} as const;

/** Every data file a generation folder may hold; a manifest listing any other name is corrupt. */
export const DATA_FILES: readonly string[] = [
  INDEX_FILES.chunks,
  INDEX_FILES.contents,
  INDEX_FILES.files,
  INDEX_FILES.bm25,
  LSA_MODEL_FILE,
  LSA_PROJECTION_FILE,
  INDEX_FILES.vectors,
  INDEX_FILES.vectorLabels,
];

/** The data files of the flat layout (format 1), kept at the top of the folder. */
export const LEGACY_DATA_FILES: readonly string[] = [
  "chunks.json",
  "keyword-index.json",
  "bm25.json",
  "lsa-model.json",
  "lsa-projection.f32",
  "vectors.hnsw",
];

/** The manifest a save stages inside its generation folder before renaming it over `manifest.json`. */
export const STAGED_MANIFEST = "manifest.json.tmp";

/** The writer lock every save and `index` run takes (see `index-lock.ts`). */
export const LOCK_FILE = ".lookup-knowledge.lock";

/** Private scratch folders of loads and saves: `<prefix><pid>-<random>`, swept once their process is gone. */
export const SCRATCH_PREFIX = ".lookup-knowledge-scratch-";

const SCRATCH = /^\.lookup-knowledge-scratch-[1-9][0-9]{0,9}-/;
const GENERATION = /^gen-[0-9a-f]{16}$/;
const WRITER = /^(gen-[0-9a-f]{16})\.([1-9][0-9]{0,9})\.writing$/;
/** Temporaries of the flat layout (format 1), which wrote `<name>.<pid>.tmp` beside each file. */
const LEGACY_TEMPORARY =
  /^(manifest\.json|chunks\.json|keyword-index\.json|bm25\.json|lsa-model\.json|lsa-projection\.f32|vectors\.hnsw)\.[0-9]+\.tmp$/;

/** What one entry of an index folder is, judged by its name alone. */
export type IndexEntry =
  | { kind: "manifest" }
  /** A generation folder: the live one (named by the manifest), one being written, or garbage. */
  | { kind: "generation" }
  /** Marks a generation as being written by process `pid`; removed after its commit. */
  | { kind: "writer"; generation: string; pid: number }
  /** A data file of the flat layout (format 1), kept at the top of the folder. */
  | { kind: "legacy-data" }
  | { kind: "legacy-temporary" }
  /** The writer lock, or a stale one being taken over (`.lookup-knowledge.lock.*`). */
  | { kind: "lock" }
  /** A scratch folder of a load or save (`.lookup-knowledge-scratch-<pid>-*`). */
  | { kind: "scratch" }
  | { kind: "foreign" };

/** True for a generation folder name: `gen-` and 16 lower-case hex digits, nothing else. */
export function isGenerationName(name: string): boolean {
  return GENERATION.test(name);
}

/** A fresh random generation folder name. */
export function newGenerationName(): string {
  return `gen-${randomBytes(8).toString("hex")}`;
}

/** The marker that tells other saves that process `pid` is writing `generation`. */
export function writerMarkerName(generation: string, pid: number): string {
  return `${generation}.${pid}.writing`;
}

/** Classifies one name of an index folder; only names matching the store's own patterns are its own. */
export function classifyEntry(name: string): IndexEntry {
  if (name === INDEX_FILES.manifest) return { kind: "manifest" };
  if (isGenerationName(name)) return { kind: "generation" };
  const writer = WRITER.exec(name);
  if (writer !== null) return { kind: "writer", generation: writer[1], pid: Number(writer[2]) };
  if (name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`)) return { kind: "lock" };
  if (SCRATCH.test(name)) return { kind: "scratch" };
  if (LEGACY_DATA_FILES.includes(name)) return { kind: "legacy-data" };
  if (LEGACY_TEMPORARY.test(name)) return { kind: "legacy-temporary" };
  return { kind: "foreign" };
}
