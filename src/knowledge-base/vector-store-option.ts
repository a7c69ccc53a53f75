import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import type { VectorStoreDialect, VectorStoreTarget } from "../l1/vector-store/vector-store-dialect.js";

/** A vector store option as given: the store, its dialect and the knowledge base's namespace in it. */
export interface VectorStoreL1Option {
  /** The LangChain vector store that holds L1 (e.g. a `PGVectorStore`); its own embeddings are not used. */
  store: VectorStoreInterface;
  /** How to filter, score and delete in this store: `pgvectorDialect`, `memoryDialect` or your own. */
  dialect: VectorStoreDialect;
  /**
   * Which knowledge base the rows belong to, so that several share one table (1-64 letters,
   * digits, `_`, `.`, `-`). A build replaces the rows of its namespace only. A load takes the
   * namespace the manifest records; one given must be that one.
   * @default "default" (a build); the recorded one (a load)
   */
  namespace?: string;
  /**
   * Earlier commits whose rows a save keeps, so that replicas still serving them answer from L1
   * until they load the new index (0-100). With 1, a save deletes only what neither it nor the
   * commit before it reads: the rows of chunks an update changed or removed, and a rebuilt
   * generation's rows, stay one save longer. The trade-off: the table holds those extra rows
   * (at most a whole generation after a full build) until the next save, and lookups skip them
   * inside the search (a dialect that ignores `RowScope.revision` and `exclude` finds fewer than k).
   * 0 deletes them as soon as the save commits.
   * @default 1
   */
  keepGenerations?: number;
}

/** Default of {@link VectorStoreL1Option.keepGenerations}. */
export const DEFAULT_KEEP_GENERATIONS = 1;
/** Largest {@link VectorStoreL1Option.keepGenerations}. */
export const MAX_KEEP_GENERATIONS = 100;

/** Default of {@link VectorStoreL1Option.namespace}. */
export const DEFAULT_NAMESPACE = "default";
/** What a dialect name, a namespace and a target's keys may be: they are written to the manifest and printed. */
export const DIALECT_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
export const NAMESPACE = /^[A-Za-z0-9_.-]{1,64}$/;
export const TARGET_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** Largest number of fields of a target, and of characters of one of its strings. */
export const MAX_TARGET_FIELDS = 16;
export const MAX_TARGET_STRING = 1000;

/** What is wrong with a dialect's target for the manifest, or null. */
export function targetProblem(target: unknown): string | null {
  if (typeof target !== "object" || target === null || Array.isArray(target)) return "is not an object";
  const entries = Object.entries(target);
  if (entries.length > MAX_TARGET_FIELDS) return `has ${entries.length} fields (at most ${MAX_TARGET_FIELDS})`;
  for (const [key, value] of entries) {
    if (!TARGET_KEY.test(key)) return `has a field name that is not a short identifier`;
    const ok =
      value === null ||
      (typeof value === "number" && Number.isFinite(value)) ||
      (typeof value === "string" && value.length <= MAX_TARGET_STRING);
    if (!ok) return `field ${key} is not null, a finite number or a string of at most ${MAX_TARGET_STRING} characters`;
  }
  return null;
}

/** The target a dialect reports for a store, checked. @throws LookupKnowledgeError `INVALID_OPTION`. */
export function targetOf(option: VectorStoreL1Option): VectorStoreTarget {
  let problem: string | null;
  let copy: VectorStoreTarget;
  try {
    // Read once, into a plain copy: the dialect's object may have getters of its own.
    const target: unknown = option.dialect.target?.(option.store) ?? {};
    const isObject = typeof target === "object" && target !== null && !Array.isArray(target);
    copy = isObject ? Object.fromEntries(Object.entries(target)) : {};
    problem = targetProblem(isObject ? copy : target);
  } catch (error) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `the ${option.dialect.name} dialect's target() threw: ${errorDetail(error)}.`,
      { cause: error },
    );
  }
  if (problem !== null)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `the ${option.dialect.name} dialect's target() ${problem}; it is saved in the manifest, so return a small object of strings and numbers.`,
    );
  return copy;
}

/** Checks a `vectorStore` option. @throws LookupKnowledgeError `INVALID_OPTION` naming what is missing. */
export function checkVectorStoreOption(
  option: unknown,
  embeddings: EmbeddingsInterface | null | undefined,
): Required<VectorStoreL1Option> {
  const given = option as Partial<VectorStoreL1Option> | null;
  const fix =
    "pass { store, dialect }, e.g. await connectPgVectorStore({ connectionString }) or { store: await PGVectorStore.initialize(embeddings, config), dialect: pgvectorDialect }";
  if (typeof given !== "object" || given === null)
    throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore must be an object; ${fix}.`);
  const store = given.store as Partial<VectorStoreInterface> | undefined;
  if (typeof store?.similaritySearchVectorWithScore !== "function" || typeof store.addVectors !== "function") {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option vectorStore.store must be a LangChain vector store (with addVectors and similaritySearchVectorWithScore); ${fix}.`,
    );
  }
  const dialect = given.dialect as Partial<VectorStoreDialect> | undefined;
  if (
    typeof dialect?.name !== "string" ||
    typeof dialect.filter !== "function" ||
    typeof dialect.similarity !== "function"
  ) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option vectorStore.dialect must have a name, filter and similarity; ${fix}.`,
    );
  }
  if (!DIALECT_NAME.test(dialect.name))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option vectorStore.dialect.name must be 1-64 of a-z, 0-9, _ and -, starting with a letter (it is saved in the manifest).",
    );
  const namespace = given.namespace ?? DEFAULT_NAMESPACE;
  if (typeof namespace !== "string" || !NAMESPACE.test(namespace))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option vectorStore.namespace must be 1-64 letters, digits, _, . or -.",
    );
  const keepGenerations = given.keepGenerations ?? DEFAULT_KEEP_GENERATIONS;
  if (!Number.isInteger(keepGenerations) || keepGenerations < 0 || keepGenerations > MAX_KEEP_GENERATIONS) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option vectorStore.keepGenerations must be an integer from 0 to ${MAX_KEEP_GENERATIONS} (earlier commits whose rows a save keeps), got ${String(keepGenerations)}.`,
    );
  }
  if (embeddings === null)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option vectorStore needs embeddings for L1; leave embeddings out (the default embedder) or pass yours, not null.",
    );
  dialect.attach?.(given.store as VectorStoreInterface);
  return {
    store: given.store as VectorStoreInterface,
    dialect: dialect as VectorStoreDialect,
    namespace,
    keepGenerations,
  };
}
