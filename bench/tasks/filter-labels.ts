import type { Chunk } from "../../src/index.js";
import { mulberry32 } from "../dataset/mulberry32.js";

/** Shares of the corpus a filtered lookup may see: 0.1%, 1%, 10%, 50%, 100%. */
export const SELECTIVITIES = [0.001, 0.01, 0.1, 0.5, 1] as const;

/** Domain of the chunks no selectivity domain holds. */
export const REST_DOMAIN = "rest";

/** Seed of the access labels of selectivity number `i`, and of the domain permutation. */
const GROUP_SEED = 0x5eed_a000;
const DOMAIN_SEED = 0x5eed_d000;

/** "0.1%", "1%", ... */
export function percentLabel(selectivity: number): string {
  return `${Number((selectivity * 100).toPrecision(6))}%`;
}

/** The access group held by a share `selectivity` of the chunks: `g0.1`, `g1`, `g10`, `g50`, `g100`. */
export function groupOf(selectivity: number): string {
  return `g${Number((selectivity * 100).toPrecision(6))}`;
}

/** The domain holding a share `selectivity` of the chunks (lower case, as the tool normalises a forced domain): `d0.1`, `d1`, `d10`, `d50`. */
export function domainOf(selectivity: number): string {
  return `d${Number((selectivity * 100).toPrecision(6))}`;
}

/** Chunks a share `selectivity` of `size` is: rounded, at least 1 for a non-empty corpus. */
export function countFor(selectivity: number, size: number): number {
  return size === 0 ? 0 : Math.min(size, Math.max(1, Math.round(selectivity * size)));
}

/** A seeded random permutation of 0..size-1 (Fisher-Yates with mulberry32). Pure given the seed. */
export function permutation(size: number, seed: number): Uint32Array {
  const random = mulberry32(seed);
  const out = new Uint32Array(size);
  for (let i = 0; i < size; i++) out[i] = i;
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}

/** `count` distinct chunk numbers of 0..size-1, drawn uniformly (so spread over the corpus) from a seeded PRNG, ascending. */
export function sampleIds(size: number, count: number, seed: number): Uint32Array {
  const random = mulberry32(seed);
  const pool = new Uint32Array(size);
  for (let i = 0; i < size; i++) pool[i] = i;
  const n = Math.min(count, size);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (size - i));
    const t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  return pool.slice(0, n).sort();
}

/** How many chunks carry each group and each domain. */
export interface FilterLabelCounts {
  groups: Record<string, number>;
  domains: Record<string, number>;
}

/**
 * Labels the chunks for the filtered-lookup rows, in place of their `meta.access` and
 * `meta.domain`: for each selectivity s, group `g<s>` on exactly {@link countFor}(s) chunks drawn
 * independently by a seeded PRNG (a chunk may carry several groups; `g100` is on every chunk, so
 * none is unlabelled); and disjoint domains `d0.1`, `d1`, `d10`, `d50` of those shares, cut from
 * one seeded permutation, the rest in {@link REST_DOMAIN}. Deterministic.
 */
export function labelChunks(chunks: readonly Chunk[]): { chunks: Chunk[]; counts: FilterLabelCounts } {
  const size = chunks.length;
  const access: string[][] = chunks.map(() => []);
  const groups: Record<string, number> = {};
  SELECTIVITIES.forEach((s, i) => {
    const group = groupOf(s);
    const ids =
      s >= 1 ? Uint32Array.from({ length: size }, (_, id) => id) : sampleIds(size, countFor(s, size), GROUP_SEED + i);
    for (const id of ids) access[id].push(group);
    groups[group] = ids.length;
  });
  const domainOfChunk: string[] = new Array<string>(size).fill(REST_DOMAIN);
  const order = permutation(size, DOMAIN_SEED);
  const domains: Record<string, number> = {};
  let at = 0;
  for (const s of SELECTIVITIES) {
    if (s >= 1) continue;
    const domain = domainOf(s);
    const n = Math.min(countFor(s, size), size - at);
    for (let k = 0; k < n; k++) domainOfChunk[order[at + k]] = domain;
    at += n;
    domains[domain] = n;
  }
  domains[REST_DOMAIN] = size - at;
  const labelled = chunks.map((chunk, id) => ({
    ...chunk,
    meta: { ...chunk.meta, access: access[id], domain: domainOfChunk[id] },
  }));
  return { chunks: labelled, counts: { groups, domains } };
}
