import type { CorpusCalibration } from "../calibration/calibration.js";
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { Chunk, DocumentMeta, SkippedFile } from "../types.js";
import { contentDigest } from "./content-digest.js";
import type { RetainedRows } from "./row-retention.js";

/**
 * Version of the saved index layout; a different version must be rebuilt. Version 2 keeps the
 * data files in a generation folder that `manifest.json` names, so that a save swaps indexes atomically;
 * version 3 stores BM25 postings in binary (`bm25.bin`), keeps no FlexSearch export (the hint index
 * is rebuilt from the chunks at load) and lists the corpus files with their hashes (`files.json`);
 * version 4 writes each string of the chunk list once and lets a load decode BM25 postings term by
 * term when they are first needed.
 */
export const INDEX_FORMAT_VERSION = 5;

/** How L1 embeds text: the built-in statistical embedder, a caller's embeddings, or no L1. */
export interface EmbedderInfo {
  /**
   * `statistical-lsa`: the built-in `LsaEmbeddings`; `custom`: embeddings the caller passed;
   * `none`: an L0-only index.
   */
  kind: "statistical-lsa" | "custom" | "none";
  /** Class name of custom embeddings, for the error when they are missing at load. */
  name?: string;
  /** Length of the chunk vectors; null without L1, or for custom embeddings of a corpus with no chunks. */
  dimensions: number | null;
}

/** Settings that change what an index answers; part of the fingerprint. */
export interface IndexSettings {
  /** Version of the term rules the indexes were built with. */
  tokenizerVersion: number;
  /** The BM25 parameters of L0 ranking, defaults resolved (see `Bm25Options`). */
  bm25: { k1: number; b: number };
  /**
   * The HNSW graph's build settings, defaults resolved (see `VectorIndexOptions`); `efSearch` is
   * not saved, so a loaded index searches with its default.
   */
  hnsw: { m: number; efConstruction: number; randomSeed: number };
  /** What embeds text for L1. */
  embedder: EmbedderInfo;
  /**
   * `"deny"` when files without an `access` field are readable by no scope (`KnowledgeBase`
   * option `unlabelled`); absent for the default `"allow"`, so that indexes saved before access
   * labels keep their fingerprint.
   */
  unlabelled?: "deny";
}

/** How the saved index came to be: a full build or incremental updates since, and the embedder's fit. */
export interface IndexHistory {
  /** `full`: built from scratch; `incremental`: updated from an earlier index. */
  mode: "full" | "incremental";
  /** The statistical embedder: fitted by a full build, kept (new chunks folded in) or refitted by an update; null without it. */
  lsa: "fitted" | "kept" | "refitted" | null;
  /** Chunks added, changed or removed since the embedder was fitted (the drift rule's count). */
  changedSinceFit: number;
  /** The drift rule's reason for the last keep or refit. */
  lsaReason?: string;
}

/** `manifest.json` of a saved index. */
export interface IndexManifest {
  /** Always `"lookup-knowledge-index"`: marks the file as the manifest of a lookup-knowledge index. */
  format: "lookup-knowledge-index";
  /** Version of the saved index layout; a load refuses any other than the one this version of the package writes. */
  formatVersion: number;
  /** The generation folder (`gen-<16 hex digits>`) beside the manifest that holds every data file. */
  generation: string;
  /** When the save wrote this manifest (ISO 8601). */
  createdAt: string;
  /** {@link fingerprintOf} the saved chunks, in order; checked at load. */
  fingerprint: string;
  /** Number of chunks indexed. */
  chunkCount: number;
  /**
   * Number of Markdown files the corpus held, indexed or skipped (for ready-made chunks, the count
   * given, else the chunk count).
   */
  fileCount: number;
  /** The distinct domains of the chunks, sorted (`KnowledgeBase.domains`). */
  domains: string[];
  /** Corpus files that were not indexed, and why. */
  skipped: SkippedFile[];
  /** The settings the index was built with. */
  settings: IndexSettings;
  /** How the index came to be; absent in indexes saved before updates existed. */
  history?: IndexHistory;
  /** What index-time calibration found (see `CorpusCalibration`). */
  calibration: CorpusCalibration;
  /**
   * The vector store that holds L1: its dialect, where in it (never the connection string), the
   * knowledge base's namespace, the generation of rows this index reads, and the rows to delete
   * once this save is committed; `revision` (updates since the generation's build; absent in
   * indexes saved before it) and `retained` (earlier commits whose rows stay for replicas, newest
   * first; absent: none). Absent when L1 is the HNSW graph.
   */
  vectorStore?: {
    dialect: string;
    target: Record<string, string | number | null>;
    namespace: string;
    generation: string;
    pendingDeletes: string[];
    revision?: number;
    retained?: RetainedRows[];
  };
  /**
   * The corpus folder the index was built or last updated from (see `CorpusOrigin`); the files and
   * their SHA-256 are in `files.json`. Absent for an index built from ready-made chunks and in
   * indexes saved before it was recorded (their provenance is unknown).
   */
  corpus?: { root: string; fromIndex: string };
  /**
   * SHA-256 of every data file: checked at load in indexes without `crc32`, and by a load with
   * `verify` (`lookup-knowledge verify`) in every index.
   */
  checksums: Record<string, string>;
  /**
   * CRC-32 of every data file (8 hex digits, the same file names as `checksums`), checked before
   * anything is parsed: about three times faster than SHA-256 and as sure to catch a truncated,
   * damaged or swapped file. Absent in indexes saved before it was recorded.
   */
  crc32?: Record<string, string>;
  /**
   * Data files a load may open without reading them whole (`contents.bin`): each file's size and
   * the length and CRC-32 of its head (header, offsets, digests), which the load reads and checks;
   * the rest is checked piece by piece when it is read (each chunk text against its digest). Absent
   * in indexes saved before it was recorded: their files are read whole.
   */
  heads?: Record<string, DataFileHead>;
}

/** A data file's size and the length and CRC-32 of its first bytes, its head (see `IndexManifest.heads`). */
export interface DataFileHead {
  /** Bytes of the whole file. */
  size: number;
  /** Bytes of its head, from the start of the file. */
  bytes: number;
  /** CRC-32 of the head (8 hex digits). */
  crc32: string;
}

/** CRC-32 of `data` as 8 hex digits (zlib's polynomial, as gzip and zip files use). */
export function crc32Hex(data: string | Uint8Array): string {
  return crc32(data).toString(16).padStart(8, "0");
}

/** Hex SHA-256 of `data`. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Hash of the indexed content and the index settings. Traces and eval results carry it, so
 * numbers from different corpora or settings are never compared silently.
 */
export function fingerprintOf(chunks: readonly Chunk[], settings: IndexSettings): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ formatVersion: INDEX_FORMAT_VERSION, settings }));
  // Each chunk adds `JSON.stringify([source, breadcrumb, meta, digest])`, written out piece by piece
  // so that a frontmatter shared by the chunks of a file is serialised once. A chunk's content enters
  // through its digest, which a loaded index keeps without inflating the text.
  const metaJson = new Map<DocumentMeta, string>();
  let pending = "";
  for (const chunk of chunks) {
    let meta = metaJson.get(chunk.meta);
    if (meta === undefined) metaJson.set(chunk.meta, (meta = JSON.stringify(chunk.meta)));
    const digest = contentDigest(chunk);
    pending += `[${JSON.stringify(chunk.source)},${JSON.stringify(chunk.breadcrumb)},${meta},"${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex")}"]`;
    if (pending.length > 1 << 16) {
      hash.update(pending);
      pending = "";
    }
  }
  hash.update(pending);
  return `sha256:${hash.digest("hex").slice(0, 16)}`;
}
