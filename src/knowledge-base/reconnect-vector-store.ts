import { LookupKnowledgeError } from "../errors.js";
import type { VectorStorePart } from "./index-parts.js";
import type { IndexManifest } from "./manifest.js";
import { checkVectorStoreOption, type VectorStoreL1Option } from "./vector-store-rows.js";

/** A target as one line of an error message. */
function describeTarget(target: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(target).filter(([, value]) => value !== null);
  return fields.length === 0 ? "" : ` (${fields.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ")})`;
}

/**
 * The vector store a load reconnects L1 to: the one the manifest records, given by the caller
 * (connections and credentials are never saved), checked to be of the recorded dialect and target.
 * @throws LookupKnowledgeError `VECTOR_STORE_REQUIRED` when the index needs a store and got none or
 * another one, or got one but keeps L1 in its own HNSW graph.
 */
export function reconnectVectorStore(dir: string, manifest: IndexManifest, option: VectorStoreL1Option | undefined): VectorStorePart | null {
  const recorded = manifest.vectorStore;
  if (recorded === undefined) {
    if (option === undefined) return null;
    throw new LookupKnowledgeError("VECTOR_STORE_REQUIRED", `the index in "${dir}" keeps L1 in its own HNSW graph, not in a vector store; load it without vectorStore, or build it with the vectorStore option to move L1 into the store.`);
  }
  const wanted = `a ${recorded.dialect} vector store${describeTarget(recorded.target)}`;
  if (option === undefined) {
    const cli = recorded.dialect === "pgvector" ? ` (from the CLI: --pgvector URL --pgvector-table ${typeof recorded.target.table === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(recorded.target.table) ? recorded.target.table : "NAME"})` : "";
    throw new LookupKnowledgeError("VECTOR_STORE_REQUIRED", `the index in "${dir}" keeps L1 in ${wanted}; pass it to load as { vectorStore: { store, dialect } }${cli}.`);
  }
  const given = checkVectorStoreOption(option, undefined);
  const target = given.dialect.target?.(given.store) ?? {};
  if (given.dialect.name !== recorded.dialect || JSON.stringify(target) !== JSON.stringify(recorded.target)) {
    throw new LookupKnowledgeError("VECTOR_STORE_REQUIRED", `the index in "${dir}" keeps L1 in ${wanted}, but load got a ${given.dialect.name} store${describeTarget(target)}; connect to the recorded one.`);
  }
  return { ...given, target };
}
