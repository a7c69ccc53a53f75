/** Varints and text for the BM25 binary form (`bm25-codec.ts`): a growing writer and a bounded reader. */
import { LookupKnowledgeError } from "../errors.js";

/** An `INDEX_CORRUPT` error whose message is `subject` followed by `detail`. */
export function bm25Corrupt(detail: string, subject = "BM25 postings"): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", `${subject} ${detail}`);
}

/** Appends unsigned LEB128 varints (7 bits a byte, low bits first, shortest form) and raw bytes. */
export class VarintWriter {
  #buffer = new Uint8Array(1 << 16);
  #length = 0;

  /** Appends `value`, an integer in `0 .. 2^32 - 1`. */
  varint(value: number): void {
    if (this.#length + 5 > this.#buffer.length) this.#grow(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.#buffer[this.#length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buffer[this.#length++] = v;
  }

  /** Appends `data` as it is. */
  bytes(data: Uint8Array): void {
    if (this.#length + data.length > this.#buffer.length) this.#grow(data.length);
    this.#buffer.set(data, this.#length);
    this.#length += data.length;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  /** What was written (a view of the writer's buffer). */
  result(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }

  #grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.#buffer.length * 2, this.#length + extra));
    next.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = next;
  }
}

/**
 * Reads what {@link VarintWriter} writes from `bytes[at .. end)`, refusing to run past `end`, a
 * number over 32 bits, and a varint not in its shortest form (which would make a re-encode differ).
 * Errors come from `corrupt`, given what is wrong ("end early").
 */
export class VarintReader {
  /** Position of the next byte to read. */
  at: number;
  readonly #bytes: Uint8Array;
  readonly #end: number;
  readonly #corrupt: (detail: string) => LookupKnowledgeError;

  constructor(
    bytes: Uint8Array,
    at = 0,
    end = bytes.length,
    corrupt: (detail: string) => LookupKnowledgeError = bm25Corrupt,
  ) {
    this.#bytes = bytes;
    this.at = at;
    this.#end = end;
    this.#corrupt = corrupt;
  }

  /** The next varint. */
  varint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.at >= this.#end) throw this.corrupt("end early");
      if (shift > 28) throw this.corrupt("hold a number that does not fit 32 bits");
      const byte = this.#bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte === 0 && shift > 0) throw this.corrupt("hold a number not in its shortest form");
      if (byte < 0x80) break;
    }
    if (value > 0xffffffff) throw this.corrupt("hold a number that does not fit 32 bits");
    return value;
  }

  /** Fills `out` with the next `out.length` varints: {@link VarintReader.varint} with one- and two-byte values inline, four times faster. */
  varints(out: Uint32Array): void {
    const bytes = this.#bytes;
    const end = this.#end;
    let at = this.at;
    for (let i = 0; i < out.length; i++) {
      const first = bytes[at];
      if (at < end && first < 0x80) {
        out[i] = first;
        at += 1;
      } else if (at + 1 < end && first >= 0x80 && bytes[at + 1] < 0x80 && bytes[at + 1] !== 0) {
        out[i] = (first & 0x7f) | (bytes[at + 1] << 7);
        at += 2;
      } else {
        this.at = at;
        out[i] = this.varint();
        at = this.at;
      }
    }
    this.at = at;
  }

  /** The next `length` bytes as UTF-8 (a leading byte-order mark kept as a character). */
  text(length: number): string {
    if (this.at + length > this.#end) throw this.corrupt("end early");
    let value: string;
    try {
      value = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
        this.#bytes.subarray(this.at, this.at + length),
      );
    } catch {
      throw this.corrupt("hold text that is not UTF-8");
    }
    this.at += length;
    return value;
  }

  /** The error for `detail`, as this reader reports it. */
  corrupt(detail: string): LookupKnowledgeError {
    return this.#corrupt(detail);
  }
}
