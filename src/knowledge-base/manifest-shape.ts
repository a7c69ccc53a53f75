import {
  DIALECT_NAME,
  MAX_KEEP_GENERATIONS,
  MAX_TARGET_FIELDS,
  NAMESPACE,
  targetProblem,
} from "./vector-store-option.js";
import { DATA_FILES, INDEX_FILES, isGenerationName } from "./index-layout.js";
import { isCorpusOrigin } from "./corpus-origin.js";

type Field = [path: string, valid: (value: unknown) => boolean, expected: string];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isUnitRange = (value: unknown) => isNumber(value) && (value as number) >= -1 && (value as number) <= 1;
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isStringList = (value: unknown) => Array.isArray(value) && value.every(isString);
const isSkipList = (value: unknown) =>
  Array.isArray(value) && value.every((entry) => isRecord(entry) && isString(entry.file) && isString(entry.reason));
const STORE_GENERATION = /^[0-9a-f]{16}$/;
const isRowIdList = (value: unknown) => Array.isArray(value) && value.every((id) => isString(id) && UUID.test(id));
const isRetainedList = (value: unknown) =>
  Array.isArray(value) &&
  value.length <= MAX_KEEP_GENERATIONS &&
  value.every(
    (entry) =>
      isRecord(entry) &&
      isString(entry.generation) &&
      STORE_GENERATION.test(entry.generation) &&
      isRowIdList(entry.pendingDeletes),
  );
const EMBEDDER_KINDS: readonly unknown[] = ["statistical-lsa", "custom", "none"];
const SHA256 = /^[0-9a-f]{64}$/;
const CRC32 = /^[0-9a-f]{8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LSA_STATES: readonly unknown[] = ["fitted", "kept", "refitted"];

/** Every field of a manifest after `format` and `formatVersion`, parents before their children. */
const FIELDS: readonly Field[] = [
  [
    "generation",
    (value) => isString(value) && isGenerationName(value),
    "a generation folder name, gen-<16 hex digits>",
  ],
  ["createdAt", isString, "a string"],
  ["fingerprint", (value) => isString(value) && /^sha256:[0-9a-f]{16}$/.test(value), "sha256:<16 hex digits>"],
  ["chunkCount", isCount, "a count"],
  ["fileCount", isCount, "a count"],
  ["domains", isStringList, "a list of strings"],
  ["skipped", isSkipList, "a list of { file, reason } strings"],
  ["settings", isRecord, "an object"],
  ["settings.tokenizerVersion", isNumber, "a number"],
  ["settings.bm25", isRecord, "an object"],
  ["settings.bm25.k1", isNumber, "a number"],
  ["settings.bm25.b", isNumber, "a number"],
  ["settings.hnsw", isRecord, "an object"],
  ["settings.hnsw.m", isCount, "a count"],
  ["settings.hnsw.efConstruction", isCount, "a count"],
  ["settings.hnsw.randomSeed", isCount, "a count"],
  ["settings.embedder", isRecord, "an object"],
  ["settings.embedder.kind", (value) => EMBEDDER_KINDS.includes(value), EMBEDDER_KINDS.join(", ")],
  ["settings.embedder.name", (value) => value === undefined || isString(value), "a string"],
  [
    "settings.embedder.dimensions",
    (value) => value === null || (isCount(value) && (value as number) > 0),
    "null or a count from 1",
  ],
  ["settings.unlabelled", (value) => value === undefined || value === "deny", "absent or deny"],
  ["history", (value) => value === undefined || isRecord(value), "an object"],
  [
    "history.mode",
    (value) => value === undefined || value === "full" || value === "incremental",
    "full or incremental",
  ],
  [
    "history.lsa",
    (value) => value === undefined || value === null || LSA_STATES.includes(value),
    `null, ${LSA_STATES.join(", ")}`,
  ],
  ["history.changedSinceFit", (value) => value === undefined || isCount(value), "a count"],
  ["history.lsaReason", (value) => value === undefined || isString(value), "a string"],
  ["calibration", isRecord, "an object"],
  ["calibration.source", (value) => value === "measured" || value === "defaults", "measured or defaults"],
  [
    "calibration.note",
    (value) => value === null || (isString(value) && value.length <= 2000),
    "null or a string of at most 2000 characters",
  ],
  ["calibration.pseudoQueries", isCount, "a count"],
  [
    "calibration.l0Weight",
    (value) => isNumber(value) && (value as number) >= 0 && (value as number) <= 1,
    "a number from 0 to 1",
  ],
  ["calibration.relevance", isRecord, "an object"],
  ["calibration.relevance.strongCoverage", isUnitRange, "a number from -1 to 1"],
  ["calibration.relevance.partialCoverage", isUnitRange, "a number from -1 to 1"],
  ["calibration.relevance.semanticSupport", isUnitRange, "a number from -1 to 1"],
  ["calibration.relevance.strongSimilarity", isUnitRange, "a number from -1 to 1"],
  ["calibration.measured", (value) => value === null || isRecord(value), "null or an object"],
  ["vectorStore", (value) => value === undefined || isRecord(value), "an object"],
  [
    "vectorStore.dialect",
    (value) => value === undefined || (isString(value) && DIALECT_NAME.test(value)),
    "a dialect name (a-z, 0-9, _, -)",
  ],
  [
    "vectorStore.target",
    (value) => value === undefined || targetProblem(value) === null,
    `an object of at most ${MAX_TARGET_FIELDS} identifier-named strings, numbers and nulls`,
  ],
  [
    "vectorStore.namespace",
    (value) => value === undefined || (isString(value) && NAMESPACE.test(value)),
    "a namespace (1-64 letters, digits, _, ., -)",
  ],
  [
    "vectorStore.generation",
    (value) => value === undefined || (isString(value) && STORE_GENERATION.test(value)),
    "16 hex digits",
  ],
  ["vectorStore.pendingDeletes", (value) => value === undefined || isRowIdList(value), "a list of row ids (UUIDs)"],
  ["vectorStore.revision", (value) => value === undefined || isCount(value), "a count"],
  [
    "vectorStore.retained",
    (value) => value === undefined || isRetainedList(value),
    `a list of at most ${MAX_KEEP_GENERATIONS} { generation: 16 hex digits, pendingDeletes: row ids }`,
  ],
  [
    "corpus",
    (value) => value === undefined || isCorpusOrigin(value),
    "an object with an absolute root and a relative fromIndex",
  ],
  ["checksums", isRecord, "an object of file names and SHA-256 digests"],
];

function at(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);
}

/**
 * What is wrong with the shape of a parsed `manifest.json` whose `format` and `formatVersion`
 * were checked already, or null: every field of `IndexManifest` with its type, and a checksum
 * list naming only the store's own data files (no folders, no `..`, nothing absolute).
 */
export function manifestProblem(manifest: unknown): string | null {
  for (const [path, valid, expected] of FIELDS) {
    if (!valid(at(manifest, path))) return `${INDEX_FILES.manifest} has no valid ${path} (expected ${expected})`;
  }
  const store = at(manifest, "vectorStore");
  if (
    isRecord(store) &&
    (store.dialect === undefined ||
      store.target === undefined ||
      store.namespace === undefined ||
      store.generation === undefined ||
      store.pendingDeletes === undefined)
  ) {
    return `${INDEX_FILES.manifest} has an incomplete vectorStore (expected dialect, target, namespace, generation and pendingDeletes)`;
  }
  const history = at(manifest, "history");
  if (
    isRecord(history) &&
    (history.mode === undefined || history.lsa === undefined || history.changedSinceFit === undefined)
  ) {
    return `${INDEX_FILES.manifest} has an incomplete history (expected mode, lsa and changedSinceFit)`;
  }
  for (const [name, digest] of Object.entries(at(manifest, "checksums") as Record<string, unknown>)) {
    if (!DATA_FILES.includes(name)) return `${INDEX_FILES.manifest} lists an unknown file name ${JSON.stringify(name)}`;
    if (!isString(digest) || !SHA256.test(digest)) return `${INDEX_FILES.manifest} has an invalid checksum for ${name}`;
  }
  return (
    crc32Problem(at(manifest, "checksums") as Record<string, unknown>, at(manifest, "crc32")) ??
    headsProblem(at(manifest, "checksums") as Record<string, unknown>, at(manifest, "heads"))
  );
}

/** What is wrong with the optional `heads`: data files of `checksums`, each a head within its file. */
function headsProblem(checksums: Record<string, unknown>, heads: unknown): string | null {
  if (heads === undefined) return null;
  if (!isRecord(heads))
    return `${INDEX_FILES.manifest} has no valid heads (expected an object of file names and heads)`;
  for (const [name, head] of Object.entries(heads)) {
    if (!Object.hasOwn(checksums, name))
      return `${INDEX_FILES.manifest} has a head for ${name}, which it does not list`;
    if (
      !isRecord(head) ||
      !isCount(head.size) ||
      !isCount(head.bytes) ||
      (head.bytes as number) > (head.size as number) ||
      !isString(head.crc32) ||
      !CRC32.test(head.crc32)
    )
      return `${INDEX_FILES.manifest} has an invalid head for ${name} (expected size, bytes within it and a CRC-32)`;
  }
  return null;
}

/** What is wrong with the optional `crc32` list: it must name exactly the files `checksums` names. */
function crc32Problem(checksums: Record<string, unknown>, crc32: unknown): string | null {
  if (crc32 === undefined) return null;
  if (!isRecord(crc32))
    return `${INDEX_FILES.manifest} has no valid crc32 (expected an object of file names and CRC-32s)`;
  const names = Object.keys(crc32);
  if (names.length !== Object.keys(checksums).length || names.some((name) => !Object.hasOwn(checksums, name))) {
    return `${INDEX_FILES.manifest} has a crc32 list whose files differ from its checksums`;
  }
  for (const [name, digest] of Object.entries(crc32)) {
    if (!isString(digest) || !CRC32.test(digest)) return `${INDEX_FILES.manifest} has an invalid CRC-32 for ${name}`;
  }
  return null;
}
