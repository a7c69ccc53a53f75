import { Index } from "flexsearch";
import { tokenize } from "../text/tokenize.js";
import type { Chunk, DocumentMeta } from "../types.js";

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
  /** The last `add` call that added files to it. */
  addedIn: number;
}

/** What the hint index reads of a chunk: its file and that file's title and frontmatter. */
export type HintSource = Pick<Chunk, "file" | "title" | "meta">;

/** Calls `visit` with each short-field phrase of a chunk's frontmatter, in field order. */
function forEachPhrase(chunk: HintSource, visit: (field: HintField, phrase: string) => void): void {
  const { meta } = chunk;
  if (chunk.title !== undefined) visit("title", chunk.title);
  for (const phrase of meta.keywords) visit("keyword", phrase);
  for (const phrase of meta.aliases) visit("alias", phrase);
  for (const phrase of meta.entities) visit("entity", phrase);
  if (meta.domain !== undefined) visit("domain", meta.domain);
}

/** `files` sorted without repeats; most lists are already sorted, which costs one pass. */
function sortedUnique(files: string[]): string[] {
  let sorted = true;
  for (let i = 1; i < files.length && sorted; i++) sorted = files[i - 1] < files[i];
  return sorted ? files : [...new Set(files)].sort();
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
  /** Entries by id (ids are handed out in order; a removed phrase leaves a hole). */
  readonly #entries: (PhraseEntry | undefined)[] = [];
  #entryCount = 0;
  /** Number of {@link HintIndex.add} calls so far: marks the entries one call grew. */
  #addCalls = 0;
  /** Per field, the id of each phrase. */
  readonly #entryIds: Record<HintField, Map<string, number>> = {
    title: new Map(),
    keyword: new Map(),
    alias: new Map(),
    entity: new Map(),
    domain: new Map(),
  };
  /**
   * Per file, the phrase entries it holds; null until an update needs it (a load only searches):
   * then worked out from the entries' file lists.
   */
  #fileEntries: Map<string, number[]> | null = null;
  #nextId = 0;

  /** Indexes the short fields of every file of `chunks` (a file's first chunk carries its frontmatter). */
  static build(chunks: readonly HintSource[]): HintIndex {
    const index = new HintIndex();
    index.#addFiles(chunks, null);
    return index;
  }

  /** Adds the files of `chunks` that are not indexed yet. */
  add(chunks: readonly HintSource[]): void {
    this.#addFiles(chunks, this.#filesIndexed());
  }

  /** The phrase entries of each indexed file that holds any. */
  #filesIndexed(): Map<string, number[]> {
    if (this.#fileEntries === null) {
      const byFile = new Map<string, number[]>();
      this.#entries.forEach((entry, id) => {
        if (entry === undefined) return;
        for (const file of entry.files) {
          const ids = byFile.get(file);
          if (ids === undefined) byFile.set(file, [id]);
          else ids.push(id);
        }
      });
      this.#fileEntries = byFile;
    }
    return this.#fileEntries;
  }

  /** Adds `chunks`' files; `indexed`: the files indexed so far, kept up to date (null: none, and none kept). */
  #addFiles(chunks: readonly HintSource[], indexed: Map<string, number[]> | null): void {
    // Files sharing one frontmatter object (the chunks of a file, equal frontmatter in a loaded
    // index) resolve their phrases once.
    const idsOf = new Map<DocumentMeta, { title: string | undefined; ids: number[] }>();
    const entries = this.#entries;
    const changed: PhraseEntry[] = [];
    const call = ++this.#addCalls;
    // Without `indexed`, the chunks of one file come together (as every chunk list holds them).
    let previous: string | undefined;
    for (const chunk of chunks) {
      const { file } = chunk;
      if (indexed !== null ? indexed.has(file) : file === previous) continue;
      previous = file;
      let known = idsOf.get(chunk.meta);
      if (known === undefined || known.title !== chunk.title)
        idsOf.set(chunk.meta, (known = { title: chunk.title, ids: this.#phraseIds(chunk) }));
      const { ids } = known;
      for (let i = 0; i < ids.length; i++) {
        const entry = entries[ids[i]];
        if (entry === undefined) continue;
        // Each list this call grows is sorted once at the end.
        if (entry.addedIn !== call) {
          entry.addedIn = call;
          changed.push(entry);
        }
        entry.files.push(file);
      }
      indexed?.set(file, ids);
    }
    // Files arrive in chunk order; sorted (and deduplicated) here, so the order never depends on it.
    for (const entry of changed) entry.files = sortedUnique(entry.files);
  }

  /** The entry ids of a chunk's phrases, each phrase indexed the first time it is seen. */
  #phraseIds(chunk: HintSource): number[] {
    const ids: number[] = [];
    forEachPhrase(chunk, (field, phrase) => {
      const byPhrase = this.#entryIds[field];
      let id = byPhrase.get(phrase);
      if (id === undefined) {
        id = this.#nextId++;
        byPhrase.set(phrase, id);
        this.#entries[id] = { field, phrase, files: [], addedIn: 0 };
        this.#entryCount += 1;
        this.#index.add(id, phrase);
      }
      ids.push(id);
    });
    return ids;
  }

  /** Removes files; a phrase no file holds any more leaves the index. */
  remove(files: Iterable<string>): void {
    const indexed = this.#filesIndexed();
    for (const file of files) {
      const ids = indexed.get(file);
      if (ids === undefined) continue;
      indexed.delete(file);
      for (const id of new Set(ids)) {
        const entry = this.#entries[id];
        if (!entry) continue;
        entry.files = entry.files.filter((other) => other !== file);
        if (entry.files.length > 0) continue;
        this.#entries[id] = undefined;
        this.#entryCount -= 1;
        this.#entryIds[entry.field].delete(entry.phrase);
        this.#index.remove(id);
      }
    }
  }

  /** Number of distinct phrases indexed. */
  get phraseCount(): number {
    return this.#entryCount;
  }

  /**
   * Files with a short-field phrase the query matches (`matches` decides, per distinct phrase),
   * best FlexSearch matches first, at most {@link MAX_HINT_FILES}; `acceptFile` filters them (a
   * forced domain). Each distinct phrase is checked once, however many files share it.
   */
  matchingFiles(
    query: string,
    matches: (field: HintField, phrase: string) => boolean,
    acceptFile: (file: string) => boolean = () => true,
  ): string[] {
    if (this.#entryCount === 0) return [];
    const ids = this.#index.search(query, { limit: MAX_HINT_PHRASES, suggest: true }) as number[];
    const files = new Set<string>();
    for (const id of ids) {
      const entry = this.#entries[id];
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
