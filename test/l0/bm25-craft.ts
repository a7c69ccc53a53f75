/** Hand-made BM25 files (format version 3, see `src/l0/bm25-codec.ts`), for tests that need a file the encoder would never write. */

/** The parts of a file; what is left out is derived from the rest, as the encoder would write it. */
export interface CraftedBm25 {
  /** The header object, written with `JSON.stringify`. @default the encoder's header for the parts */
  header?: Record<string, unknown>;
  terms: string[];
  docLengths: number[];
  /** Per term, the varint values of its block: `gap, tf` per posting (anything, when crafting a bad block). */
  blocks: number[][];
  /** Blocks given as raw bytes with the df to list for them, by term number, in place of `blocks`. @default none */
  rawBlocks?: Record<number, { df: number; bytes: number[] }>;
  /** Per term, `[df, block byte length]`. @default each block's posting count and byte length */
  table?: [number, number][];
  /** Bytes appended after the blocks. @default none */
  trailer?: number[];
}

/** Unsigned LEB128, shortest form. */
export function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

/** The bytes of a file made of `parts`. */
export function craftBm25(parts: CraftedBm25): Uint8Array {
  const { terms, docLengths, blocks } = parts;
  const raw = parts.rawBlocks ?? {};
  const blockBytes = blocks.map((values, t) => raw[t]?.bytes ?? values.flatMap(varint));
  const table =
    parts.table ?? blocks.map((values, t): [number, number] => [raw[t]?.df ?? values.length / 2, blockBytes[t].length]);
  const postings = table.reduce((sum, [df]) => sum + df, 0);
  const header = parts.header ?? {
    format: "lookup-knowledge-bm25",
    version: 3,
    k1: 0.9,
    b: 0.4,
    terms: terms.length,
    docs: docLengths.length,
    postings,
  };
  const text = new TextEncoder();
  const headerBytes = [...text.encode(JSON.stringify(header))];
  const termBytes = [...text.encode(terms.join("\n"))];
  return Uint8Array.from([
    ...varint(headerBytes.length),
    ...headerBytes,
    ...varint(termBytes.length),
    ...termBytes,
    ...docLengths.flatMap(varint),
    ...table.flatMap(([df, length]) => [...varint(df), ...varint(length)]),
    ...blockBytes.flat(),
    ...(parts.trailer ?? []),
  ]);
}

/** Three documents, whose encoding is {@link SMALL}. */
export const SMALL_DOCS = [["alpha", "gamma"], ["beta", "beta", "gamma"], ["alpha"]];

/**
 * The file the encoder writes for {@link SMALL_DOCS}: `alpha` (term 0) in documents 0 and 2,
 * `gamma` (1) in 0 and 1, `beta` (2) twice in 1. Replace a block to craft a bad one.
 */
export const SMALL: CraftedBm25 = {
  terms: ["alpha", "gamma", "beta"],
  docLengths: [2, 3, 1],
  blocks: [
    [0, 1, 1, 1],
    [0, 1, 0, 1],
    [1, 2],
  ],
};
