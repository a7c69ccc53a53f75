import type { Chunk } from "../types.js";
import type { AppliedScope, UnlabelledPolicy } from "./access-scope.js";
import { chunkFilterOf, type ChunkFilter } from "./chunk-filter.js";
import { accessKeyOf, OPEN_ACCESS_KEY } from "./access-key.js";

/** Filters kept per knowledge base (scope × domain), least recently used dropped first. */
export const FILTER_CACHE_SIZE = 64;

/** What access control offers the retrieval graph; a `KnowledgeBase` provides it. */
export interface AccessControl {
  /** What a file without `access` is. */
  readonly unlabelled: UnlabelledPolicy;
  /**
   * The chunks a lookup may see under `scope` (null: unscoped, every chunk) and `domain` (null:
   * every domain); null when that is every chunk, so that an unfiltered lookup costs nothing more.
   */
  filter(scope: AppliedScope | null, domain: string | null): ChunkFilter | null;
  /** The domains of the chunks `scope` may read, sorted: what a model or a user of that scope may be told. */
  domainsFor(scope: AppliedScope | null): string[];
  /** The store-side keys (`lk_acl`) of the label sets `scope` may read; null for an unscoped lookup. */
  rowKeysFor(scope: AppliedScope | null): string[] | null;
}

interface LabelSet {
  /** Null for unlabelled chunks. */
  groups: readonly string[] | null;
  key: string;
}

/**
 * Access labels of the chunks of one knowledge base: each chunk's label set (its file's `access`
 * list), and per scope the sets it may read. A set is readable when it names one of the scope's
 * groups; an unlabelled chunk is readable by every scope under `"allow"`, by none under `"deny"`.
 * Filters are built once per scope and domain and cached.
 */
export class ChunkAccess implements AccessControl {
  readonly unlabelled: UnlabelledPolicy;
  readonly #chunks: readonly Chunk[];
  readonly #setOf: Uint32Array;
  readonly #sets: LabelSet[] = [];
  readonly #cache = new Map<string, ChunkFilter | null>();
  readonly #domains = new Map<string, string[]>();

  constructor(chunks: readonly Chunk[], unlabelled: UnlabelledPolicy = "allow") {
    this.unlabelled = unlabelled;
    this.#chunks = chunks;
    this.#setOf = new Uint32Array(chunks.length);
    const byKey = new Map<string, number>();
    chunks.forEach((chunk, id) => {
      const key = accessKeyOf(chunk.meta.access);
      let set = byKey.get(key);
      if (set === undefined) {
        set =
          this.#sets.push({ groups: chunk.meta.access === undefined ? null : [...new Set(chunk.meta.access)], key }) -
          1;
        byKey.set(key, set);
      }
      this.#setOf[id] = set;
    });
  }

  /** Per label set, 1 when `scope` may read it. */
  #readableSets(scope: AppliedScope): Uint8Array {
    const groups = new Set(scope.groups);
    return Uint8Array.from(this.#sets, ({ groups: labels }) =>
      (labels === null ? this.unlabelled === "allow" : labels.some((group) => groups.has(group))) ? 1 : 0,
    );
  }

  filter(scope: AppliedScope | null, domain: string | null): ChunkFilter | null {
    const key = `${scope === null ? "*" : scope.digest}\u0000${domain === null ? "*" : `=${domain}`}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined || this.#cache.has(key)) {
      this.#cache.delete(key);
      this.#cache.set(key, cached ?? null);
      return cached ?? null;
    }
    const readable = scope === null ? null : this.#readableSets(scope);
    const chunks = this.#chunks;
    const setOf = this.#setOf;
    const everySet = readable === null || readable.every((bit) => bit === 1);
    const filter =
      everySet && domain === null
        ? null
        : chunkFilterOf(
            key,
            chunks.length,
            (id) =>
              (readable === null || readable[setOf[id]] === 1) &&
              (domain === null || chunks[id].meta.domain === domain),
          );
    this.#cache.set(key, filter);
    if (this.#cache.size > FILTER_CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
    return filter;
  }

  domainsFor(scope: AppliedScope | null): string[] {
    const key = scope === null ? "*" : scope.digest;
    let domains = this.#domains.get(key);
    if (domains === undefined) {
      const filter = this.filter(scope, null);
      const found = new Set<string>();
      const add = (id: number) => {
        const domain = this.#chunks[id].meta.domain;
        if (domain) found.add(domain);
      };
      if (filter === null) for (let id = 0; id < this.#chunks.length; id++) add(id);
      else for (const id of filter.ids) add(id);
      domains = [...found].sort();
      if (this.#domains.size >= FILTER_CACHE_SIZE) this.#domains.delete(this.#domains.keys().next().value as string);
      this.#domains.set(key, domains);
    }
    return [...domains];
  }

  rowKeysFor(scope: AppliedScope | null): string[] | null {
    if (scope === null) return null;
    const readable = this.#readableSets(scope);
    const keys = this.#sets.filter((_, set) => readable[set] === 1).map(({ key }) => key);
    // The open key always stands for unlabelled rows: a scope under "allow" reads them even when no chunk is unlabelled yet.
    if (this.unlabelled === "allow" && !keys.includes(OPEN_ACCESS_KEY)) keys.push(OPEN_ACCESS_KEY);
    return keys.sort();
  }
}
