import { LookupKnowledgeError } from "../errors.js";
import type { Chunk, DocumentMeta } from "../types.js";

/** The contents of one loaded `contents.bin`: compressed texts, their digests, inflated on demand. */
export interface ContentStore {
  /** The text of chunk `index`, inflated (and kept a while). */
  content(index: number): string;
  /** The deflated text of chunk `index`, as the file holds it. */
  compressed(index: number): Uint8Array;
  /** The content digest saved for chunk `index`. */
  digest(index: number): Uint8Array;
}

/**
 * A chunk of a loaded index: its text stays compressed in the store until `content` is read.
 * `content` is a getter of the class, not an own property (100k chunks load in a fraction of the
 * time): `JSON.stringify` includes it (see `toJSON`), a spread does not, so copy a chunk with
 * `{ ...chunk, content: chunk.content }`. A copy is a plain chunk, never taken for the stored text;
 * `structuredClone` and worker messages keep own fields only, so they drop the text too.
 */
export class StoredChunk implements Chunk {
  readonly source: string;
  readonly file: string;
  declare readonly title?: string;
  readonly breadcrumb: string[];
  readonly meta: DocumentMeta;
  readonly #store: ContentStore;
  readonly #index: number;

  constructor(fields: Omit<Chunk, "content">, store: ContentStore, index: number) {
    this.source = fields.source;
    this.file = fields.file;
    if (fields.title !== undefined) (this as { title?: string }).title = fields.title;
    this.breadcrumb = fields.breadcrumb;
    this.meta = fields.meta;
    this.#store = store;
    this.#index = index;
  }

  get content(): string {
    // A clone that kept the prototype but not the text (lodash's cloneDeep) says so, not a TypeError.
    if (!(#store in this))
      throw new LookupKnowledgeError(
        "INVALID_INPUT",
        "this chunk is a copy of a loaded chunk without its text: copy chunks with `{ ...chunk, content: chunk.content }`.",
      );
    return this.#store.content(this.#index);
  }

  /** The deflated text, as `contents.bin` holds it. */
  compressedContent(): Uint8Array {
    return this.#store.compressed(this.#index);
  }

  /** The content digest saved beside the text. */
  storedDigest(): Uint8Array {
    return this.#store.digest(this.#index);
  }

  /** The chunk as a plain object, its text inflated. */
  toJSON(): Chunk {
    const { source, file, title, breadcrumb, meta, content } = this;
    return title === undefined
      ? { source, file, breadcrumb, content, meta }
      : { source, file, title, breadcrumb, content, meta };
  }
}
