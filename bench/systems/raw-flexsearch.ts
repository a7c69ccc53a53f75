import { Document } from "flexsearch";
import type { Chunk } from "../../src/index.js";
import type { BenchSystem, PreparedSystem } from "./bench-system.js";
import { timed } from "./bench-system.js";

/** Results the raw engines are asked for. */
export const RAW_LIMIT = 10;

/**
 * FlexSearch `Document` as it comes: title and text fields, `tokenize: "strict"`, built by the
 * bench over the same chunks, searched with `limit` 10. An engine floor.
 */
export async function createRawFlexSearch(chunks: readonly Chunk[]): Promise<PreparedSystem> {
  const { value: index, ms } = await timed(() => {
    const doc = new Document<{ id: number; title: string; text: string }>({
      tokenize: "strict",
      document: { id: "id", index: ["title", "text"] },
    });
    chunks.forEach((chunk, id) => doc.add({ id, title: chunk.title ?? "", text: chunk.content }));
    return doc;
  });
  const system: BenchSystem = {
    id: "raw_flexsearch",
    label: "FlexSearch Document.search (raw)",
    role: "floor",
    run: (query) => index.search(query.text, { limit: RAW_LIMIT }),
  };
  return { system, setupMs: ms };
}
