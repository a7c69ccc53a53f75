// Your own embeddings for L1: a LangChain `Embeddings` subclass (here an offline, deterministic toy
// that hashes character trigrams into 256 dimensions) passed as `embeddings` to the build, saved,
// and loaded again with the same embeddings. Then the knowledge base as a LangChain retriever
// (`kb.asRetriever()`), printing the calibration the build measured for these embeddings and the
// top documents' metadata.
//
// Any LangChain embeddings fit in the same place: OpenAIEmbeddings, OllamaEmbeddings,
// HuggingFaceTransformersEmbeddings... (see the README, "Other embeddings").
//
//   npx tsx examples/custom-embeddings.ts
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// An app imports these from "lookup-knowledge".
import { KnowledgeBase, LookupKnowledgeError } from "../src/index.js";

const CORPUS_DIR = fileURLToPath(new URL("../corpus", import.meta.url));
const QUESTION = "How do I rotate an API key?";

/**
 * Character trigrams of the lower-cased text, hashed (FNV-1a) into a fixed number of buckets and
 * scaled to unit length. Deterministic and offline: no model, no network. Not a good embedder, but
 * a real `Embeddings` subclass, which is all the knowledge base asks for.
 */
class TrigramEmbeddings extends Embeddings {
  readonly dimensions: number;

  constructor(fields: EmbeddingsParams & { dimensions?: number } = {}) {
    super(fields);
    this.dimensions = fields.dimensions ?? 256;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.#embed(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.#embed(text);
  }

  #embed(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    const padded = ` ${text.toLowerCase().replace(/\s+/g, " ")} `;
    for (let i = 0; i + 3 <= padded.length; i++) vector[fnv1a(padded.slice(i, i + 3)) % this.dimensions] += 1;
    const norm = Math.hypot(...vector);
    // An all-zero vector is refused (it has no direction); a text without trigrams gets a fixed one.
    if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
    return vector.map((value) => value / norm);
  }
}

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

async function main(): Promise<void> {
  const tempDir = await mkdtemp(join(tmpdir(), "lookup-knowledge-embeddings-"));
  const indexDir = join(tempDir, "index");
  try {
    const embeddings = new TrigramEmbeddings();
    const built = await KnowledgeBase.build({ corpusDir: CORPUS_DIR, embeddings });
    await built.save(indexDir);
    console.log(`built and saved ${built.chunks.length} chunks; embedder ${JSON.stringify(built.settings.embedder)}`);

    // A custom-embeddings index is loaded with the same embeddings: without them, load refuses.
    try {
      await KnowledgeBase.load(indexDir);
    } catch (error) {
      if (!(error instanceof LookupKnowledgeError)) throw error;
      console.log(`load without embeddings: ${error.code}`);
    }
    const kb = await KnowledgeBase.load(indexDir, { embeddings });

    // Calibration ran at build time, on pseudo-queries, for this corpus and these embeddings.
    const { calibration } = kb;
    console.log(
      `calibration: ${calibration.source}, l0Weight ${calibration.l0Weight.toFixed(2)}${calibration.note ? ` (${calibration.note})` : ""}`,
    );

    // A LangChain BaseRetriever: usable in chains, EnsembleRetriever, createRetrieverTool...
    const retriever = kb.asRetriever({ limit: 3, tracePath: null });
    try {
      const docs = await retriever.invoke(QUESTION);
      // Every Document carries its block's fields and its lookup's (relevance, layers, invocationId).
      console.log(
        `retriever "${retriever.name}": "${QUESTION}" -> ${docs.length} documents, relevance ${docs[0]?.metadata.relevance ?? "none"}`,
      );
      for (const { metadata } of docs) {
        const coverage = metadata.termCoverage === null ? "-" : `${Math.round(metadata.termCoverage * 100)}%`;
        console.log(
          `  #${metadata.rank} ${metadata.source} [${metadata.layer}] similarity ${metadata.similarity?.toFixed(2) ?? "-"}, query terms ${coverage}, section "${metadata.breadcrumb.join(" > ")}"`,
        );
      }
    } finally {
      await retriever.close();
    }
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`custom-embeddings example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
