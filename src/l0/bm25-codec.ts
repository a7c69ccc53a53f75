/**
 * The binary form of the BM25 postings: a small JSON header, the terms, and varint-coded
 * document lengths and postings (document gaps and term frequencies), about 2-3 bytes a posting.
 */
import { LookupKnowledgeError } from "../errors.js";
import { resolveBm25Options } from "./bm25-options.js";

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

const MAGIC = "lookup-knowledge-bm25";
/** Version of the binary layout; another version is refused. */
export const BM25_FORMAT_VERSION = 2;

class Writer {
  #buffer = new Uint8Array(1 << 16);
  #length = 0;

  varint(value: number): void {
    if (this.#length + 5 > this.#buffer.length) this.#grow(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.#buffer[this.#length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buffer[this.#length++] = v;
  }

  bytes(data: Uint8Array): void {
    if (this.#length + data.length > this.#buffer.length) this.#grow(data.length);
    this.#buffer.set(data, this.#length);
    this.#length += data.length;
  }

  result(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }

  #grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.#buffer.length * 2, this.#length + extra));
    next.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = next;
  }
}

/** Encodes postings; {@link decodeBm25} restores them exactly. */
export function encodeBm25(postings: Bm25Postings): Uint8Array {
  const { terms, offsets, docs, tfs, docLengths } = postings;
  const header = JSON.stringify({ format: MAGIC, version: BM25_FORMAT_VERSION, k1: postings.k1, b: postings.b, terms: terms.length, docs: docLengths.length, postings: docs.length });
  const writer = new Writer();
  const text = new TextEncoder();
  const headerBytes = text.encode(header);
  writer.varint(headerBytes.length);
  writer.bytes(headerBytes);
  const termBytes = text.encode(terms.join("\n"));
  writer.varint(termBytes.length);
  writer.bytes(termBytes);
  for (const length of docLengths) writer.varint(length);
  for (let t = 0; t < terms.length; t++) {
    writer.varint(offsets[t + 1] - offsets[t]);
    let previous = -1;
    for (let at = offsets[t]; at < offsets[t + 1]; at++) {
      writer.varint(docs[at] - previous - 1);
      writer.varint(tfs[at]);
      previous = docs[at];
    }
  }
  return writer.result();
}

/** Reads varints and text from a byte array, refusing to run past its end. */
class Reader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  varint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.at >= this.bytes.length) throw corrupt("end early");
      if (shift > 28) throw corrupt("hold a number that does not fit 32 bits");
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (value > 0xffffffff) throw corrupt("hold a number that does not fit 32 bits");
    return value;
  }

  text(length: number): string {
    if (this.at + length > this.bytes.length) throw corrupt("end early");
    const value = new TextDecoder("utf-8", { fatal: true }).decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return value;
  }
}

function corrupt(detail: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", `BM25 postings ${detail}`);
}

/**
 * Decodes {@link encodeBm25} output, checking every count, range and order on the way.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` naming what is malformed.
 */
export function decodeBm25(bytes: Uint8Array): Bm25Postings {
  const reader = new Reader(bytes);
  const varint = () => reader.varint();
  const text = (length: number) => reader.text(length);
  let header: { format?: unknown; version?: unknown; k1?: unknown; b?: unknown; terms?: unknown; docs?: unknown; postings?: unknown };
  try {
    header = JSON.parse(text(varint())) as typeof header;
  } catch (error) {
    throw error instanceof LookupKnowledgeError ? error : corrupt("have no readable header");
  }
  if (header.format !== MAGIC || header.version !== BM25_FORMAT_VERSION) throw corrupt(`are not version ${BM25_FORMAT_VERSION} postings`);
  const counts = [header.terms, header.docs, header.postings];
  if (!counts.every((n) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 0xffffffff)) throw corrupt("have bad counts in their header");
  const [termCount, docCount, postingCount] = counts as number[];
  let params: { k1: number; b: number };
  try {
    params = resolveBm25Options({ k1: header.k1 as number, b: header.b as number });
  } catch {
    throw corrupt(`have parameters out of range (${String(header.k1)}, ${String(header.b)})`);
  }
  const termText = text(varint());
  const terms = termCount === 0 ? [] : termText.split("\n");
  if (terms.length !== termCount || (termCount === 0 && termText !== "")) throw corrupt(`list ${terms.length} terms, not ${termCount}`);
  // Every posting takes at least two bytes: a count larger than the file can hold is a lie.
  if (postingCount * 2 + docCount > bytes.length) throw corrupt("claim more entries than the file holds");
  const docLengths = new Uint32Array(docCount);
  for (let d = 0; d < docCount; d++) docLengths[d] = varint();
  const offsets = new Uint32Array(termCount + 1);
  const docs = new Uint32Array(postingCount);
  const tfs = new Uint32Array(postingCount);
  let p = 0;
  const end = bytes.length;
  // A local position: the hot loop must not go through the reader object for every byte.
  let at = reader.at;
  for (let t = 0; t < termCount; t++) {
    reader.at = at;
    const df = reader.varint();
    at = reader.at;
    if (p + df > postingCount) throw corrupt(`term ${t} has more postings than the header counts`);
    let previous = -1;
    // The hot loop of a load: two varints per posting; most take one byte, so that case is inline.
    for (let i = 0; i < df; i++, p++) {
      let gap: number;
      let tf: number;
      if (at + 1 < end && bytes[at] < 0x80 && bytes[at + 1] < 0x80) {
        gap = bytes[at];
        tf = bytes[at + 1];
        at += 2;
      } else {
        reader.at = at;
        gap = reader.varint();
        tf = reader.varint();
        at = reader.at;
      }
      const doc = previous + 1 + gap;
      if (doc >= docCount || tf < 1 || tf > 0xffffffff) throw corrupt(`term ${t} has a bad posting (document ${doc}, frequency ${tf})`);
      docs[p] = doc;
      tfs[p] = tf;
      previous = doc;
    }
    offsets[t + 1] = p;
  }
  if (p !== postingCount || at !== end) throw corrupt("do not match the counts in their header");
  return { ...params, terms, offsets, docs, tfs, docLengths };
}
