/**
 * The saved form of every chunk without its content (`chunk-list.json`): JSON in which each
 * distinct string and each distinct frontmatter is written once and referred to by number. The
 * chunks of one file share their frontmatter, and titles repeat in breadcrumbs, so a large corpus
 * parses a fraction of the text a list of chunk objects would take. It is not compressed: at 100k
 * chunks it takes 5 MB, and deflating it would cost a save more than the disk space is worth.
 *
 * ```
 * { "format": "lookup-knowledge-chunks", "version": 1,
 *   "strings": ["guide.md#top", "guide.md", "Guide", ...],
 *   "metas": [[title, domain, [keyword, ...], [entity, ...], [alias, ...], [group, ...]?], ...],
 *   "chunks": [source, file, title, meta, breadcrumbLength, ...breadcrumb, source, ...] }
 * ```
 * Every entry is a string number, except `meta` (a `metas` number) and `breadcrumbLength`; an
 * absent title or domain is -1. The access list (frontmatter `access`) is there only when the file has one.
 */
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import type { Chunk, DocumentMeta } from "../types.js";

const FORMAT = "lookup-knowledge-chunks";
const VERSION = 1;

/** One chunk without its content, as {@link decodeChunkMeta} restores it. */
export type ChunkFields = Omit<Chunk, "content">;

/** A value named in a message: a number as it is, anything else by its type (a crafted list may nest without end). */
function describe(value: unknown): string {
  return typeof value === "number" ? String(value) : Array.isArray(value) ? "a list" : typeof value;
}

function corrupt(detail: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", detail, { cause });
}

class Interner {
  readonly strings: string[] = [];
  readonly #ids = new Map<string, number>();

  id(value: string | undefined): number {
    if (value === undefined) return -1;
    let id = this.#ids.get(value);
    if (id === undefined) this.#ids.set(value, (id = this.strings.push(value) - 1));
    return id;
  }
}

/** The chunk list, each string and each distinct frontmatter written once. */
export function encodeChunkMeta(chunks: readonly Chunk[]): Buffer {
  const strings = new Interner();
  const metas: unknown[] = [];
  const metaIds = new Map<DocumentMeta, number>();
  const metaKeys = new Map<string, number>();
  const metaId = (meta: DocumentMeta): number => {
    let id = metaIds.get(meta);
    if (id !== undefined) return id;
    const entry: unknown[] = [
      strings.id(meta.title),
      strings.id(meta.domain),
      meta.keywords.map((s) => strings.id(s)),
      meta.entities.map((s) => strings.id(s)),
      meta.aliases.map((s) => strings.id(s)),
    ];
    if (meta.access !== undefined) entry.push(meta.access.map((s) => strings.id(s)));
    const key = JSON.stringify(entry);
    id = metaKeys.get(key);
    if (id === undefined) metaKeys.set(key, (id = metas.push(entry) - 1));
    metaIds.set(meta, id);
    return id;
  };
  const records: number[] = [];
  // Field by field: reading `content` would inflate every chunk of a loaded index.
  for (const { source, file, title, breadcrumb, meta } of chunks) {
    records.push(strings.id(source), strings.id(file), strings.id(title), metaId(meta), breadcrumb.length);
    for (const crumb of breadcrumb) records.push(strings.id(crumb));
  }
  const text = JSON.stringify({ format: FORMAT, version: VERSION, strings: strings.strings, metas, chunks: records });
  return Buffer.from(text);
}

function parse(bytes: Uint8Array): { strings?: unknown; metas?: unknown; chunks?: unknown } {
  let parsed: { format?: unknown; version?: unknown; strings?: unknown; metas?: unknown; chunks?: unknown };
  try {
    parsed = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
    ) as typeof parsed;
  } catch (cause) {
    throw corrupt("is not valid JSON", cause);
  }
  if (typeof parsed !== "object" || parsed === null || parsed.format !== FORMAT || parsed.version !== VERSION)
    throw corrupt(`is not a version ${VERSION} chunk list`);
  return parsed;
}

/**
 * Restores the chunks of {@link encodeChunkMeta}, without contents, checking every number and
 * string; `count` is the number of chunks the manifest promises.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` naming what is malformed (and the chunk, numbered from 0).
 */
export function decodeChunkMeta(bytes: Uint8Array, count: number): ChunkFields[] {
  const { strings, metas, chunks: records } = parse(bytes);
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === "string"))
    throw corrupt("has a string table that is not a list of strings");
  if (!Array.isArray(metas) || !Array.isArray(records)) throw corrupt("needs metas and chunks lists");
  const text = (id: unknown, optional: boolean): string | undefined => {
    if (optional && id === -1) return undefined;
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= strings.length)
      throw corrupt(`refers to string ${describe(id)}, which the table does not hold`);
    return strings[id];
  };
  const list = (ids: unknown): string[] => {
    if (!Array.isArray(ids)) throw corrupt("has a frontmatter list that is not a list");
    return ids.map((id) => text(id, false) as string);
  };
  const documentMetas = metas.map((entry: unknown, m): DocumentMeta => {
    if (!Array.isArray(entry) || (entry.length !== 5 && entry.length !== 6))
      throw corrupt(`has frontmatter ${m} that is not [title, domain, keywords, entities, aliases, access?]`);
    const [title, domain] = [text(entry[0], true), text(entry[1], true)];
    const access = entry.length === 6 ? list(entry[5]) : undefined;
    return {
      ...(title !== undefined ? { title } : {}),
      ...(domain !== undefined ? { domain } : {}),
      keywords: list(entry[2]),
      entities: list(entry[3]),
      aliases: list(entry[4]),
      ...(access !== undefined ? { access } : {}),
    };
  });
  const chunks: ChunkFields[] = [];
  const number = (at: number): number => {
    const value: unknown = records[at];
    if (typeof value !== "number" || !Number.isInteger(value))
      throw corrupt("holds an entry that is not a whole number");
    return value;
  };
  const sources = new Set<string>();
  let at = 0;
  try {
    while (at < records.length) {
      if (at + 5 > records.length) throw corrupt("ends inside a chunk");
      const source = text(number(at), false) as string;
      if (source.length === 0) throw corrupt("has an empty source");
      if (sources.has(source)) throw corrupt(`has the source "${source.slice(0, 200)}" of an earlier chunk`);
      sources.add(source);
      const file = text(number(at + 1), false) as string;
      const title = text(number(at + 2), true);
      const meta = documentMetas[number(at + 3)];
      if (meta === undefined)
        throw corrupt(`refers to frontmatter ${describe(records[at + 3])}, which the list does not hold`);
      const crumbs = number(at + 4);
      if (crumbs < 0 || at + 5 + crumbs > records.length)
        throw corrupt("has a breadcrumb length that runs past the list");
      const breadcrumb: string[] = new Array<string>(crumbs);
      for (let c = 0; c < crumbs; c++) breadcrumb[c] = text(number(at + 5 + c), false) as string;
      chunks.push(title === undefined ? { source, file, breadcrumb, meta } : { source, file, title, breadcrumb, meta });
      at += 5 + crumbs;
    }
  } catch (error) {
    throw error instanceof LookupKnowledgeError
      ? corrupt(`chunk ${chunks.length} (numbered from 0) ${errorDetail(error)}`)
      : error;
  }
  if (chunks.length !== count) throw corrupt(`holds ${chunks.length} chunks, not the ${count} of the manifest`);
  return chunks;
}
