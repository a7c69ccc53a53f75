import type { Chunk } from "../types.js";
import { fitsBytes, splitLongText } from "./split-long-text.js";

/** What {@link splitLongSections} did: the chunks, and how many sections were split into how many parts. */
export interface SplitSections {
  chunks: Chunk[];
  /** Sections over the limit, each split into parts. */
  splitCount: number;
  /** Parts those sections became, in all. */
  partCount: number;
}

/**
 * Splits every chunk whose content exceeds `maxBytes` of UTF-8 into parts of at most that many
 * bytes (see {@link splitLongText}), in place of it and in order. The first part keeps the
 * chunk's source id; the next get `/2`, `/3`, ... (a heading slug never holds a `/`, so the ids
 * stay unique, and the same text and limit always give the same ids). Every part keeps the
 * section's breadcrumb and metadata. Chunks within the limit are returned as they are.
 */
export function splitLongSections(chunks: readonly Chunk[], maxBytes: number): SplitSections {
  const out: Chunk[] = [];
  let splitCount = 0;
  let partCount = 0;
  for (const chunk of chunks) {
    if (fitsBytes(chunk.content, maxBytes)) {
      out.push(chunk);
      continue;
    }
    const parts = splitLongText(chunk.content, maxBytes);
    splitCount++;
    partCount += parts.length;
    parts.forEach((content, i) => out.push({ ...chunk, source: i === 0 ? chunk.source : `${chunk.source}/${i + 1}`, content }));
  }
  return { chunks: out, splitCount, partCount };
}

/** The note a file gets when sections were split: names the limit so that a reader knows which option to raise. */
export function describeSplit(split: Pick<SplitSections, "splitCount" | "partCount">, maxBytes: number, option = "corpus.maxChunkBytes"): string {
  const sections = split.splitCount === 1 ? "1 section" : `${split.splitCount} sections`;
  return `split ${sections} over ${option} (${maxBytes} bytes) into ${split.partCount} chunks; raise ${option} to keep sections whole`;
}
