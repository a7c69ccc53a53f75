import { LookupKnowledgeError } from "../errors.js";
import type { VectorStorePart } from "./index-parts.js";
import type { IndexManifest } from "./manifest.js";
import {
  checkVectorStoreOption,
  DEFAULT_NAMESPACE,
  targetOf,
  type VectorStoreL1Option,
} from "./vector-store-option.js";

/** A target as part of an error message (its shape was checked: identifier keys, bounded strings, JSON-quoted). */
function describeTarget(target: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(target).filter(([, value]) => value !== null);
  return fields.length === 0 ? "" : ` (${fields.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ")})`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The vector store a load reconnects L1 to: the one the manifest records, given by the caller
 * (connections and credentials are never saved), checked to be of the recorded dialect, target
 * and namespace.
 * @throws LookupKnowledgeError `VECTOR_STORE_REQUIRED` when the index needs a store and got none or
 * another one, or got one but keeps L1 in its own HNSW graph.
 */
export function reconnectVectorStore(
  dir: string,
  manifest: IndexManifest,
  option: VectorStoreL1Option | undefined,
): VectorStorePart | null {
  const recorded = manifest.vectorStore;
  if (recorded === undefined) {
    if (option === undefined) return null;
    throw new LookupKnowledgeError(
      "VECTOR_STORE_REQUIRED",
      `the index in "${dir}" keeps L1 in its own HNSW graph, not in a vector store; load it without vectorStore, or build it with the vectorStore option to move L1 into the store.`,
    );
  }
  const namespace = recorded.namespace === DEFAULT_NAMESPACE ? "" : `, namespace ${JSON.stringify(recorded.namespace)}`;
  const wanted = `a ${recorded.dialect} vector store${describeTarget(recorded.target)}${namespace}`;
  if (option === undefined) {
    const table = recorded.target.table;
    const cli =
      recorded.dialect === "pgvector"
        ? ` (from the CLI: --pgvector URL --pgvector-table ${typeof table === "string" && IDENTIFIER.test(table) ? table : "NAME"})`
        : "";
    throw new LookupKnowledgeError(
      "VECTOR_STORE_REQUIRED",
      `the index in "${dir}" keeps L1 in ${wanted}; pass it to load as { vectorStore: { store, dialect } }${cli}.`,
    );
  }
  const given = checkVectorStoreOption({ ...option, namespace: option.namespace ?? recorded.namespace }, undefined);
  const target = targetOf(given);
  if (
    given.dialect.name !== recorded.dialect ||
    JSON.stringify(target) !== JSON.stringify(recorded.target) ||
    given.namespace !== recorded.namespace
  ) {
    const got = `a ${given.dialect.name} store${describeTarget(target)}${given.namespace === DEFAULT_NAMESPACE ? "" : `, namespace ${JSON.stringify(given.namespace)}`}`;
    throw new LookupKnowledgeError(
      "VECTOR_STORE_REQUIRED",
      `the index in "${dir}" keeps L1 in ${wanted}, but load got ${got}; connect to the recorded one.`,
    );
  }
  const committed = {
    generation: recorded.generation,
    revision: recorded.revision ?? null,
    retained: (recorded.retained ?? []).map((entry) => ({
      generation: entry.generation,
      pendingDeletes: [...entry.pendingDeletes],
    })),
  };
  return {
    ...given,
    target,
    generation: committed.generation,
    revision: committed.revision,
    pendingDeletes: [...recorded.pendingDeletes],
    removed: [],
    committed,
  };
}
