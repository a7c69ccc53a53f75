/**
 * The posting blocks of a decoded BM25 file, each decoded into the postings the first time its
 * term is needed, so that a load costs a scan of the term table rather than of every posting.
 */
import type { LookupKnowledgeError } from "../errors.js";
import type { Bm25File } from "./bm25-codec.js";
import { bm25Corrupt, VarintReader } from "./bm25-varint.js";

/**
 * Which blocks of a {@link Bm25File} are decoded, and the decoder. A block is checked as it is
 * decoded: the file passed its SHA-256 check against the manifest at load, so only a crafted
 * index can hold a bad block, and the first operation that needs it throws.
 */
export class PostingBlocks {
  readonly #file: Bm25File;
  readonly #decoded: Uint8Array;
  #pending: number;

  constructor(file: Bm25File) {
    this.#file = file;
    this.#decoded = new Uint8Array(file.postings.terms.length);
    this.#pending = this.#decoded.length;
  }

  /** True once every block is decoded. */
  get complete(): boolean {
    return this.#pending === 0;
  }

  /**
   * Decodes term `t`'s block into the file's postings unless that was done.
   * @returns true when this call decoded it.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` naming the term and what is wrong with its block,
   *   on every call while it is (nothing is marked decoded).
   */
  ensure(t: number): boolean {
    if (this.#decoded[t] === 1) return false;
    decodeBlock(this.#file, t);
    this.#decoded[t] = 1;
    this.#pending--;
    return true;
  }
}

/** The error for a bad block of term t. */
function blockCorrupt(t: number, detail: string): LookupKnowledgeError {
  return bm25Corrupt(`${detail}: the keyword index is damaged, rebuild it`, `BM25 postings of term ${t}`);
}

/** The error for a posting out of range. Out of line, as is {@link blockReader}: the decode loop stays small, which makes it twice as fast. */
function badPosting(t: number, doc: number, tf: number, docCount: number): LookupKnowledgeError {
  return blockCorrupt(
    t,
    doc >= docCount
      ? `list document ${doc}, past the last one (${docCount - 1})`
      : `give document ${doc} a term frequency of ${tf}`,
  );
}

function blockReader(bytes: Uint8Array, at: number, end: number, t: number): VarintReader {
  return new VarintReader(bytes, at, end, (detail) => blockCorrupt(t, detail));
}

/** Fills `docs` and `tfs` at term t's range from its block, checking every posting and the block's length. */
function decodeBlock(file: Bm25File, t: number): void {
  const { bytes, blockStarts } = file;
  const { offsets, docs, tfs, docLengths } = file.postings;
  const docCount = docLengths.length;
  const end = blockStarts[t + 1];
  const last = offsets[t + 1];
  // Made for the first varint longer than a byte; many blocks never need one.
  let reader: VarintReader | undefined;
  // A local position: the hot loop must not go through the reader object for every byte.
  let at = blockStarts[t];
  let previous = -1;
  for (let p = offsets[t]; p < last; p++) {
    let gap: number;
    let tf: number;
    // Two varints per posting; most take one byte each, so that case is inline.
    if (at + 1 < end && bytes[at] < 0x80 && bytes[at + 1] < 0x80) {
      gap = bytes[at];
      tf = bytes[at + 1];
      at += 2;
    } else {
      reader ??= blockReader(bytes, at, end, t);
      reader.at = at;
      gap = reader.varint();
      tf = reader.varint();
      at = reader.at;
    }
    const doc = previous + 1 + gap;
    if (doc >= docCount || tf < 1) throw badPosting(t, doc, tf, docCount);
    docs[p] = doc;
    tfs[p] = tf;
    previous = doc;
  }
  if (at !== end) throw blockCorrupt(t, `leave ${end - at} bytes of their block unread`);
}
