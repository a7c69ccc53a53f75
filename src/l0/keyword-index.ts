import { Document } from "flexsearch";
import { tokenize } from "../text/tokenize.js";
import type { Chunk } from "../types.js";

/** The fields L0 matches a query against, short hint fields first. */
export const KEYWORD_FIELDS = ["title", "keywords", "aliases", "entities", "domain", "body"] as const;
export type KeywordField = (typeof KEYWORD_FIELDS)[number];

/** For each chunk number that matched: which field matched which query terms. */
export type FieldMatches = Map<number, Map<KeywordField, Set<string>>>;

/** A FlexSearch export: its keys and their serialised data. */
export type KeywordIndexSnapshot = Record<string, string>;

type FlexDocument = Document<Record<string, string>>;
type FieldResult = { field: string; result: (string | number)[] };

function createDocumentIndex(): FlexDocument {
  return new Document<Record<string, string>>({
    tokenize: "strict",
    // One tokenizer everywhere: FlexSearch stores the same stemmed terms that BM25 and the hints use.
    encode: (text: string) => tokenize(text),
    document: { id: "id", index: [...KEYWORD_FIELDS] },
  });
}

function toDocument(id: number, chunk: Chunk): Record<string, string> {
  const { meta } = chunk;
  return {
    id: String(id),
    title: [chunk.title ?? "", ...chunk.breadcrumb.slice(1)].join(" \n "),
    keywords: meta.keywords.join(" \n "),
    aliases: meta.aliases.join(" \n "),
    entities: meta.entities.join(" \n "),
    domain: meta.domain ?? "",
    body: chunk.content,
  };
}

/**
 * FlexSearch behind a narrow interface: it answers which chunks contain which query terms in which
 * field. It is the L0 candidate generator; ranking is BM25's job (see `l0-search.ts`).
 */
export class KeywordIndex {
  private constructor(
    private readonly index: FlexDocument,
    /** Number of chunks indexed. */
    readonly size: number,
  ) {}

  /** Indexes every chunk; chunk number `i` is `chunks[i]`. */
  static build(chunks: readonly Chunk[]): KeywordIndex {
    const index = createDocumentIndex();
    chunks.forEach((chunk, id) => index.add(toDocument(id, chunk)));
    return new KeywordIndex(index, chunks.length);
  }

  /** Restores an index from {@link KeywordIndex.export}; `size` is the chunk count it was built over. */
  static import(snapshot: KeywordIndexSnapshot, size: number): KeywordIndex {
    const index = createDocumentIndex();
    for (const [key, data] of Object.entries(snapshot)) index.import(key, data);
    return new KeywordIndex(index, size);
  }

  /** Serialises the index (FlexSearch's own export format). */
  export(): KeywordIndexSnapshot {
    const snapshot: KeywordIndexSnapshot = {};
    void this.index.export((key: string, data: string) => {
      snapshot[key] = data;
    });
    return snapshot;
  }

  /**
   * Looks every query word up on its own, so that each hit knows which term produced it. Every
   * chunk sharing a term is returned (no limit), so a caller's domain filter afterwards is exact;
   * FlexSearch's own tag filter is not used, because combined with several fields it drops hits.
   */
  match(query: string): FieldMatches {
    const matches: FieldMatches = new Map();
    if (this.size === 0) return matches;
    const words = new Set(tokenize(query, { stem: false }));
    for (const word of words) {
      const [term] = tokenize(word);
      if (term === undefined) continue;
      const options = { index: [...KEYWORD_FIELDS], limit: this.size };
      const results = this.index.search(word, options) as unknown as FieldResult[];
      for (const { field, result } of results) {
        for (const id of result) {
          const chunkId = Number(id);
          let fields = matches.get(chunkId);
          if (!fields) matches.set(chunkId, (fields = new Map()));
          let terms = fields.get(field as KeywordField);
          if (!terms) fields.set(field as KeywordField, (terms = new Set()));
          terms.add(term);
        }
      }
    }
    return matches;
  }
}
