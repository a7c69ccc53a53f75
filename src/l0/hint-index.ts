import { Index } from "flexsearch";
import { tokenize } from "../text/tokenize.js";
import type { Chunk } from "../types.js";

/** The short fields L0 turns into hints. */
export type HintField = "title" | "keyword" | "alias" | "entity" | "domain";

/**
 * At most this many distinct phrases are checked per query, best FlexSearch matches first (those
 * holding the most query terms); the rest of a very common word's phrases are not looked at.
 */
export const MAX_HINT_PHRASES = 256;
/** At most this many files are reached from the matched phrases per query (in path order per phrase). */
export const MAX_HINT_FILES = 512;

interface PhraseEntry {
  field: HintField;
  phrase: string;
  /** Files whose frontmatter holds the phrase, sorted, so that the order never depends on the history of changes. */
  files: string[];
}

function phrasesOf(chunk: Chunk): [HintField, string][] {
  const { meta } = chunk;
  return [
    ...(chunk.title !== undefined ? [["title", chunk.title] as [HintField, string]] : []),
    ...meta.keywords.map((phrase): [HintField, string] => ["keyword", phrase]),
    ...meta.aliases.map((phrase): [HintField, string] => ["alias", phrase]),
    ...meta.entities.map((phrase): [HintField, string] => ["entity", phrase]),
    ...(meta.domain !== undefined ? [["domain", meta.domain] as [HintField, string]] : []),
  ];
}

/**
 * FlexSearch over the distinct short-field phrases of a corpus (titles, keywords, aliases,
 * entities, domains), each indexed once however many files share it. A query costs a bounded
 * number of phrase checks ({@link MAX_HINT_PHRASES}), not a walk over the chunks. Files are added
 * and removed in place when a corpus changes.
 */
export class HintIndex {
  // One tokenizer everywhere: FlexSearch stores the same stemmed terms that BM25 and the hints use.
  readonly #index = new Index({ tokenize: "strict", encode: (text: string) => tokenize(text) });
  readonly #entries = new Map<number, PhraseEntry>();
  readonly #entryIds = new Map<string, number>();
  /** Per file, the phrase entries it holds. */
  readonly #fileEntries = new Map<string, number[]>();
  #nextId = 0;

  /** Indexes the short fields of every file of `chunks` (a file's first chunk carries its frontmatter). */
  static build(chunks: readonly Chunk[]): HintIndex {
    const index = new HintIndex();
    index.add(chunks);
    return index;
  }

  /** Adds the files of `chunks` that are not indexed yet. */
  add(chunks: readonly Chunk[]): void {
    const changed = new Set<PhraseEntry>();
    for (const chunk of chunks) {
      if (this.#fileEntries.has(chunk.file)) continue;
      const ids: number[] = [];
      for (const [field, phrase] of phrasesOf(chunk)) {
        const key = `${field}\u0000${phrase}`;
        let id = this.#entryIds.get(key);
        if (id === undefined) {
          id = this.#nextId++;
          this.#entryIds.set(key, id);
          this.#entries.set(id, { field, phrase, files: [] });
          this.#index.add(id, phrase);
        }
        const entry = this.#entries.get(id);
        if (entry) {
          entry.files.push(chunk.file);
          changed.add(entry);
        }
        ids.push(id);
      }
      this.#fileEntries.set(chunk.file, ids);
    }
    for (const entry of changed) entry.files = [...new Set(entry.files)].sort();
  }

  /** Removes files; a phrase no file holds any more leaves the index. */
  remove(files: Iterable<string>): void {
    for (const file of files) {
      const ids = this.#fileEntries.get(file);
      if (ids === undefined) continue;
      this.#fileEntries.delete(file);
      for (const id of new Set(ids)) {
        const entry = this.#entries.get(id);
        if (!entry) continue;
        entry.files = entry.files.filter((other) => other !== file);
        if (entry.files.length > 0) continue;
        this.#entries.delete(id);
        this.#entryIds.delete(`${entry.field}\u0000${entry.phrase}`);
        this.#index.remove(id);
      }
    }
  }

  /** Number of distinct phrases indexed. */
  get phraseCount(): number {
    return this.#entries.size;
  }

  /**
   * Files with a short-field phrase the query matches (`matches` decides, per distinct phrase),
   * best FlexSearch matches first, at most {@link MAX_HINT_FILES}; `acceptFile` filters them (a
   * forced domain). Each distinct phrase is checked once, however many files share it.
   */
  matchingFiles(query: string, matches: (field: HintField, phrase: string) => boolean, acceptFile: (file: string) => boolean = () => true): string[] {
    if (this.#entries.size === 0) return [];
    const ids = this.#index.search(query, { limit: MAX_HINT_PHRASES, suggest: true }) as number[];
    const files = new Set<string>();
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry === undefined || !matches(entry.field, entry.phrase)) continue;
      for (const file of entry.files) {
        if (files.has(file) || !acceptFile(file)) continue;
        files.add(file);
        if (files.size >= MAX_HINT_FILES) return [...files];
      }
    }
    return [...files];
  }
}
