/**
 * The binary form of the BM25 postings, version 3, about 2-3 bytes a posting. In order:
 *
 * 1. header: a varint byte length, then JSON `{ format, version, k1, b, terms, docs, postings }`
 *    (the last three are counts);
 * 2. terms: a varint byte length, then the terms in UTF-8 joined by line breaks (position = id);
 * 3. document lengths: one varint per document, its number of tokens;
 * 4. term table: per term, two varints: its document frequency `df` and the byte length of its
 *    posting block;
 * 5. posting blocks, term by term: per posting, two varints: the gap to the previous document of
 *    the term (`doc - previous - 1`, the first taking `previous = -1`) and the term frequency.
 *
 * Varints are unsigned LEB128 in shortest form, so given postings have one encoding and
 * re-encoding a decoded file gives its bytes back. The table comes before the blocks so that a
 * load finds every block by scanning the table alone: {@link decodeBm25} reads and checks
 * sections 1-4 and the table's sums, and leaves each block to be decoded, and checked, the
 * first time its term is needed (`bm25-blocks.ts`). Version 2 had no table (each block started
 * with its `df`) and is refused.
 */
import { resolveBm25Options } from "./bm25-options.js";
import { bm25Corrupt as corrupt, VarintReader, VarintWriter } from "./bm25-varint.js";

/** What a BM25 index is made of, in memory and on disk. */
export interface Bm25Postings {
  k1: number;
  b: number;
  /** Every term; a term's position is its id. Terms hold no line break. */
  terms: string[];
  /** Postings of term t are the range `offsets[t] .. offsets[t + 1]`. */
  offsets: Uint32Array;
  /** Document numbers, strictly ascending within each term. */
  docs: Uint32Array;
  /** Term frequency of each posting, at least 1. */
  tfs: Uint32Array;
  /** Tokens per document. */
  docLengths: Uint32Array;
}

/** A BM25 file as {@link decodeBm25} leaves it: all but the posting blocks read and checked. */
export interface Bm25File {
  /**
   * The postings, `docs` and `tfs` allocated to full size but holding a term's postings only once
   * its block is decoded (`PostingBlocks`): never hand them on before every block is.
   */
  postings: Bm25Postings;
  /** The file's bytes (the caller's, not a copy). */
  bytes: Uint8Array;
  /** Term t's block is `bytes[blockStarts[t] .. blockStarts[t + 1])`. */
  blockStarts: Uint32Array;
  /** True when `bytes` are exactly what {@link encodeBm25} gives for the postings (the header in the form it writes). */
  canonical: boolean;
}

const MAGIC = "lookup-knowledge-bm25";
/** Version of the binary layout; another version is refused. */
export const BM25_FORMAT_VERSION = 3;

/** The header {@link encodeBm25} writes. */
function headerText(params: { k1: number; b: number }, terms: number, docs: number, postings: number): string {
  return JSON.stringify({
    format: MAGIC,
    version: BM25_FORMAT_VERSION,
    k1: params.k1,
    b: params.b,
    terms,
    docs,
    postings,
  });
}

/** Encodes postings; {@link decodeBm25} restores them exactly. */
export function encodeBm25(postings: Bm25Postings): Uint8Array {
  const { terms, offsets, docs, docLengths } = postings;
  const { blocks, blockLengths } = encodeBlocks(postings);
  const writer = new VarintWriter();
  const text = new TextEncoder();
  const headerBytes = text.encode(headerText(postings, terms.length, docLengths.length, docs.length));
  writer.varint(headerBytes.length);
  writer.bytes(headerBytes);
  const termBytes = text.encode(terms.join("\n"));
  writer.varint(termBytes.length);
  writer.bytes(termBytes);
  for (const length of docLengths) writer.varint(length);
  for (let t = 0; t < terms.length; t++) {
    writer.varint(offsets[t + 1] - offsets[t]);
    writer.varint(blockLengths[t]);
  }
  writer.bytes(blocks);
  return writer.result();
}

/**
 * The posting blocks, term by term, and each block's byte length: the hot loop of a save, so its
 * varints are written inline into a buffer grown before each term (two varints of at most 5 bytes
 * a posting).
 */
function encodeBlocks({ terms, offsets, docs, tfs }: Bm25Postings): { blocks: Uint8Array; blockLengths: Float64Array } {
  let out = new Uint8Array(Math.max(1 << 16, docs.length * 3));
  let length = 0;
  const blockLengths = new Float64Array(terms.length);
  for (let t = 0; t < terms.length; t++) {
    const start = length;
    const end = offsets[t + 1];
    if (length + (end - offsets[t]) * 10 > out.length) {
      const grown = new Uint8Array(Math.max(out.length * 2, length + (end - offsets[t]) * 10));
      grown.set(out.subarray(0, length));
      out = grown;
    }
    let previous = -1;
    for (let at = offsets[t]; at < end; at++) {
      const doc = docs[at];
      let v = doc - previous - 1;
      previous = doc;
      while (v >= 0x80) {
        out[length++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[length++] = v;
      v = tfs[at];
      while (v >= 0x80) {
        out[length++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[length++] = v;
    }
    blockLengths[t] = length - start;
  }
  return { blocks: out.subarray(0, length), blockLengths };
}

interface Header {
  params: { k1: number; b: number };
  termCount: number;
  docCount: number;
  postingCount: number;
  canonical: boolean;
}

function readHeader(reader: VarintReader): Header {
  let text: string;
  let header: {
    format?: unknown;
    version?: unknown;
    k1?: unknown;
    b?: unknown;
    terms?: unknown;
    docs?: unknown;
    postings?: unknown;
  };
  try {
    text = reader.text(reader.varint());
    header = JSON.parse(text) as typeof header;
  } catch {
    throw corrupt("have no readable header");
  }
  if (
    typeof header !== "object" ||
    header === null ||
    header.format !== MAGIC ||
    header.version !== BM25_FORMAT_VERSION
  )
    throw corrupt(`are not version ${BM25_FORMAT_VERSION} postings`);
  const counts = [header.terms, header.docs, header.postings];
  if (!counts.every((n) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 0xffffffff))
    throw corrupt("have bad counts in their header");
  const [termCount, docCount, postingCount] = counts as number[];
  let params: { k1: number; b: number };
  try {
    params = resolveBm25Options({ k1: header.k1 as number, b: header.b as number });
  } catch {
    throw corrupt(`have parameters out of range (${String(header.k1)}, ${String(header.b)})`);
  }
  return {
    params,
    termCount,
    docCount,
    postingCount,
    canonical: text === headerText(params, termCount, docCount, postingCount),
  };
}

/**
 * Decodes {@link encodeBm25} output but for the posting blocks, checking the header, the terms,
 * every document length, and the term table: each block holds room for its postings (2 to 10
 * bytes each), no term more postings than documents, the postings sum to the header's count and
 * the blocks fill the rest of the file exactly. Costs a scan of the table, not of the postings.
 * `bytes` are kept in the result, not copied (a copy would cost more than the rest at 100k chunks).
 * @throws LookupKnowledgeError `INDEX_CORRUPT` naming what is malformed.
 */
export function decodeBm25(bytes: Uint8Array): Bm25File {
  if (bytes.length > 0xffffffff) throw corrupt("take more than 4 GiB");
  const reader = new VarintReader(bytes);
  const { params, termCount, docCount, postingCount, canonical } = readHeader(reader);
  const termText = reader.text(reader.varint());
  const terms = termCount === 0 ? [] : termText.split("\n");
  if (terms.length !== termCount || (termCount === 0 && termText !== ""))
    throw corrupt(`list ${terms.length} terms, not ${termCount}`);
  // Every count is checked against the bytes left before anything that size is allocated.
  if (docCount + 2 * termCount > bytes.length - reader.at) throw corrupt("claim more entries than the file holds");
  const docLengths = new Uint32Array(docCount);
  reader.varints(docLengths);
  const table = new Uint32Array(2 * termCount);
  reader.varints(table);
  const offsets = new Uint32Array(termCount + 1);
  const blockStarts = new Uint32Array(termCount + 1);
  let postings = 0;
  let blockBytes = 0;
  for (let t = 0; t < termCount; t++) {
    const df = table[2 * t];
    const length = table[2 * t + 1];
    if (df > docCount || length < 2 * df || length > 10 * df)
      throw corrupt(`give term ${t} ${df} postings in a block of ${length} bytes`);
    postings += df;
    blockBytes += length;
    if (postings > postingCount) throw corrupt(`hold more postings than the ${postingCount} their header counts`);
    if (blockBytes > bytes.length) throw corrupt("list posting blocks larger than the file");
    offsets[t + 1] = postings;
    blockStarts[t + 1] = blockBytes;
  }
  if (postings !== postingCount)
    throw corrupt(`hold ${postings} postings, not the ${postingCount} their header counts`);
  const rest = bytes.length - reader.at;
  if (blockBytes !== rest)
    throw corrupt(`list posting blocks of ${blockBytes} bytes in total, but ${rest} bytes follow the table`);
  for (let t = 0; t <= termCount; t++) blockStarts[t] += reader.at;
  const docs = new Uint32Array(postingCount);
  const tfs = new Uint32Array(postingCount);
  return { postings: { ...params, terms, offsets, docs, tfs, docLengths }, bytes, blockStarts, canonical };
}
