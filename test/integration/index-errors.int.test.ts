import { spawnSync } from "node:child_process";
import { cp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type IndexManifest } from "../../src/index.js";
import { VectorIndex } from "../../src/l1/vector-index.js";
import { encodeVectorLabels } from "../../src/l1/vector-labels.js";
import { createTempDirs, expectLookupError, KB_DIR } from "./helpers/integration-fixtures.js";

const ADVICE = "lookup-knowledge index";
const CHUNKS = "chunk-list.json";
const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256));

/** A manifest as parsed JSON, to be damaged field by field. */
type RawManifest = Record<string, unknown> & {
  settings: Record<string, unknown>;
  checksums: Record<string, unknown>;
  crc32?: Record<string, unknown>;
  heads?: Record<string, { size: number; bytes: number; crc32: string }>;
};

async function readManifest(dir: string): Promise<IndexManifest> {
  return JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as IndexManifest;
}

async function editManifest(dir: string, edit: (manifest: RawManifest) => void): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as RawManifest;
  edit(manifest);
  await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** Where a data file of the saved index lives: in the generation folder the manifest names. */
async function dataPath(dir: string, name: string): Promise<string> {
  const { generation } = (await readManifest(dir)) as IndexManifest & { generation?: string };
  return generation === undefined ? join(dir, name) : join(dir, generation, name);
}

function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Rewrites a data file and its checksums, so that the bytes reach the parser (or hnswlib) itself. */
async function replaceWithValidChecksum(dir: string, name: string, data: Buffer | string): Promise<void> {
  await writeFile(await dataPath(dir, name), data);
  await editManifest(dir, (manifest) => {
    manifest.checksums[name] = sha256(data);
    if (manifest.crc32) manifest.crc32[name] = crc32(data).toString(16).padStart(8, "0");
    const head = manifest.heads?.[name];
    if (head !== undefined) {
      // The head a load reads, as long as the file still has one.
      const bytes = Math.min(head.bytes, Buffer.byteLength(data));
      const prefix = Buffer.from(data).subarray(0, bytes);
      manifest.heads = {
        ...manifest.heads,
        [name]: { size: Buffer.byteLength(data), bytes, crc32: crc32(prefix).toString(16).padStart(8, "0") },
      };
    }
  });
}

/** The saved chunk list (see `chunk-meta-codec.ts`), to be damaged entry by entry. */
interface ChunkTable {
  strings: unknown[];
  metas: unknown[][];
  chunks: unknown[];
}

/** Rewrites the chunk list (JSON) behind a valid checksum, so that its shape reaches the checks. */
async function replaceChunks(dir: string, table: ChunkTable): Promise<void> {
  await replaceWithValidChecksum(dir, CHUNKS, JSON.stringify(table));
}

async function savedChunks(dir: string): Promise<ChunkTable> {
  return JSON.parse(await readFile(await dataPath(dir, CHUNKS), "utf8")) as ChunkTable;
}

/** Where chunk `n` starts in the flat `chunks` list: `source, file, title, meta, breadcrumbLength, ...breadcrumb`. */
function recordOf(table: ChunkTable, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) at += 5 + (table.chunks[at + 4] as number);
  return at;
}

/** Ways to damage a saved index, and what the error must name; each must end in INDEX_CORRUPT. */
const CORRUPTIONS: [string, (dir: string) => Promise<void>, RegExp][] = [
  [
    "vectors.hnsw overwritten with garbage bytes",
    async (dir) => writeFile(await dataPath(dir, "vectors.hnsw"), GARBAGE),
    /vectors\.hnsw is corrupted/,
  ],
  [
    "chunk-list.json truncated",
    async (dir) => {
      const file = await dataPath(dir, CHUNKS);
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
    /chunk-list\.json is corrupted/,
  ],
  [
    "manifest.json replaced by garbage",
    (dir) => writeFile(join(dir, "manifest.json"), GARBAGE),
    /manifest\.json is not valid JSON/,
  ],
  [
    "manifest.json valid JSON of another format",
    (dir) => writeFile(join(dir, "manifest.json"), JSON.stringify({ format: "something-else", formatVersion: 1 })),
    /not a version \d+ lookup-knowledge index/,
  ],
  ["bm25.bin deleted", async (dir) => rm(await dataPath(dir, "bm25.bin")), /bm25\.bin is missing/],
  [
    "bm25.bin replaced by a FIFO nobody writes to (must not hang)",
    async (dir) => {
      const path = await dataPath(dir, "bm25.bin");
      await rm(path);
      expect(spawnSync("mkfifo", [path]).status).toBe(0);
    },
    /bm25\.bin cannot be read .*not a regular file/,
  ],
  [
    "bm25.bin replaced by a symbolic link to /dev/zero (must not read without end)",
    async (dir) => {
      const path = await dataPath(dir, "bm25.bin");
      await rm(path);
      await symlink("/dev/zero", path);
    },
    /bm25\.bin cannot be read/,
  ],
  [
    "vectors.hnsw garbage behind an updated checksum (reaches hnswlib)",
    (dir) => replaceWithValidChecksum(dir, "vectors.hnsw", GARBAGE),
    /vector index does not load/,
  ],
  [
    "vectors.hnsw truncated behind an updated checksum (reaches hnswlib)",
    async (dir) =>
      replaceWithValidChecksum(
        dir,
        "vectors.hnsw",
        (await readFile(await dataPath(dir, "vectors.hnsw"))).subarray(0, 300),
      ),
    /vector index does not load/,
  ],
  [
    "chunk-list.json cut short behind an updated checksum (reaches the parser)",
    async (dir) =>
      replaceWithValidChecksum(dir, CHUNKS, (await readFile(await dataPath(dir, CHUNKS))).subarray(0, 500)),
    /chunk-list\.json: is not valid JSON/,
  ],
  [
    "chunk-list.json holding fewer chunks than the manifest",
    async (dir) => {
      const table = await savedChunks(dir);
      await replaceChunks(dir, { ...table, chunks: table.chunks.slice(0, recordOf(table, 2)) });
    },
    /chunk-list\.json: holds 2 chunks, not the \d+ of the manifest/,
  ],
  [
    "chunk-list.json of another format behind a valid checksum",
    async (dir) =>
      replaceWithValidChecksum(dir, CHUNKS, JSON.stringify([{ source: "a", file: "a", breadcrumb: [], meta: {} }])),
    /chunk-list\.json: is not a version 1 chunk list/,
  ],
  [
    "vectors.hnsw of another corpus (fewer vectors) behind an updated checksum",
    async (dir) => {
      const { dimensions } = (await readManifest(dir)).settings.embedder;
      const d = dimensions ?? 1;
      const rows = new Float32Array([...unitVector(d, 0), ...unitVector(d, 1)]);
      const other = await VectorIndex.build(rows, d, ["a", "b"]);
      await other.save(join(dir, "other.hnsw"));
      await replaceWithValidChecksum(dir, "vectors.hnsw", await readFile(join(dir, "other.hnsw")));
    },
    /has \d+ labels for 2 stored vectors/,
  ],
  [
    "vector-labels.bin of another index (fewer labels) behind an updated checksum",
    async (dir) => {
      await replaceWithValidChecksum(dir, "vector-labels.bin", encodeVectorLabels(Int32Array.from([0, 1])));
    },
    /has 2 labels for \d+ stored vectors/,
  ],
  // The manifest's shape: every field checked before it is used.
  [
    "manifest.json without settings.embedder",
    (dir) => editManifest(dir, (m) => delete m.settings.embedder),
    /manifest\.json.*settings\.embedder/,
  ],
  [
    "manifest.json with settings.embedder.dimensions a string",
    (dir) => editManifest(dir, (m) => ((m.settings.embedder as Record<string, unknown>).dimensions = "64")),
    /settings\.embedder\.dimensions/,
  ],
  [
    "manifest.json with an unknown embedder kind",
    (dir) => editManifest(dir, (m) => ((m.settings.embedder as Record<string, unknown>).kind = "magic")),
    /settings\.embedder\.kind/,
  ],
  [
    "manifest.json without settings",
    (dir) => editManifest(dir, (m) => delete (m as Record<string, unknown>).settings),
    /manifest\.json.*settings/,
  ],
  ["manifest.json without settings.hnsw", (dir) => editManifest(dir, (m) => delete m.settings.hnsw), /settings\.hnsw/],
  [
    "manifest.json with settings.bm25.k1 a string",
    (dir) => editManifest(dir, (m) => ((m.settings.bm25 as Record<string, unknown>).k1 = "0.9")),
    /settings\.bm25\.k1/,
  ],
  ["manifest.json with chunkCount a string", (dir) => editManifest(dir, (m) => (m.chunkCount = "33")), /chunkCount/],
  ["manifest.json with a negative fileCount", (dir) => editManifest(dir, (m) => (m.fileCount = -1)), /fileCount/],
  [
    "manifest.json with domains not a list of strings",
    (dir) => editManifest(dir, (m) => (m.domains = [1, 2])),
    /domains/,
  ],
  [
    "manifest.json with a skipped entry without a reason",
    (dir) => editManifest(dir, (m) => (m.skipped = [{ file: "a.md" }])),
    /skipped/,
  ],
  ["manifest.json without a fingerprint", (dir) => editManifest(dir, (m) => delete m.fingerprint), /fingerprint/],
  [
    "manifest.json with checksums a list",
    (dir) => editManifest(dir, (m) => (m.checksums = [] as unknown as Record<string, unknown>)),
    /checksums/,
  ],
  [
    "manifest.json with a checksum that is not a SHA-256",
    (dir) => editManifest(dir, (m) => (m.checksums["bm25.bin"] = 42)),
    /checksum.*bm25\.bin/,
  ],
  // Names the manifest lists: only the store's own, inside the folder.
  ["manifest.json without a generation folder", (dir) => editManifest(dir, (m) => delete m.generation), /generation/],
  [
    "manifest.json naming a generation folder outside the index (../)",
    (dir) => editManifest(dir, (m) => (m.generation = "../elsewhere")),
    /generation/,
  ],
  [
    "manifest.json naming an absolute generation folder",
    (dir) => editManifest(dir, (m) => (m.generation = "/etc")),
    /generation/,
  ],
  [
    "manifest.json listing an unknown file name",
    (dir) => editManifest(dir, (m) => (m.checksums["notes.txt"] = sha256(""))),
    /unknown file.*notes\.txt/,
  ],
  [
    "manifest.json listing a file name with a folder",
    (dir) => editManifest(dir, (m) => (m.checksums["sub/chunks.json"] = sha256(""))),
    /unknown file.*sub\/chunks\.json/,
  ],
  ["manifest.json listing ..", (dir) => editManifest(dir, (m) => (m.checksums[".."] = sha256(""))), /unknown file/],
  // The chunk list: order and shape.
  [
    "contents.bin truncated behind an updated checksum",
    async (dir) => {
      const bytes = await readFile(await dataPath(dir, "contents.bin"));
      await replaceWithValidChecksum(dir, "contents.bin", bytes.subarray(0, bytes.length - 10));
    },
    /contents\.bin: chunk contents do not fill the file/,
  ],
  [
    "contents.bin of another chunk count behind an updated checksum",
    async (dir) => {
      const bytes = await readFile(await dataPath(dir, "contents.bin"));
      const header = bytes
        .subarray(4, 4 + bytes.readUInt32LE(0))
        .toString("utf8")
        .replace(/"count":\d+/, '"count":1');
      const head = Buffer.alloc(4);
      head.writeUInt32LE(Buffer.byteLength(header));
      await replaceWithValidChecksum(
        dir,
        "contents.bin",
        Buffer.concat([head, Buffer.from(header), bytes.subarray(4 + bytes.readUInt32LE(0))]),
      );
    },
    /contents\.bin: chunk contents are not version 2 contents of \d+ chunks/,
  ],
  [
    "chunk-list.json with a chunk whose frontmatter number is out of range, behind a valid checksum",
    async (dir) => {
      const table = await savedChunks(dir);
      table.chunks[recordOf(table, 3) + 3] = table.metas.length;
      await replaceChunks(dir, table);
    },
    /chunk-list\.json: chunk 3 .*frontmatter/,
  ],
  [
    "chunk-list.json with a breadcrumb length that is a string, behind a valid checksum",
    async (dir) => {
      const table = await savedChunks(dir);
      table.chunks[recordOf(table, 1) + 4] = "Access > Keys";
      await replaceChunks(dir, table);
    },
    /chunk-list\.json: chunk 1 .*not a whole number/,
  ],
  [
    "chunk-list.json with frontmatter keywords not a list, behind a valid checksum",
    async (dir) => {
      const table = await savedChunks(dir);
      table.metas[0][2] = "api key";
      await replaceChunks(dir, table);
    },
    /chunk-list\.json: .*frontmatter list that is not a list/,
  ],
  [
    "chunk-list.json with a numeric source string, behind a valid checksum",
    async (dir) => {
      const table = await savedChunks(dir);
      table.strings[table.chunks[recordOf(table, 2)] as number] = 7;
      await replaceChunks(dir, table);
    },
    /chunk-list\.json: .*string table that is not a list of strings/,
  ],
];

function unitVector(dimensions: number | null, axis: number): number[] {
  return Array.from({ length: dimensions ?? 1 }, (_, i) => (i === axis ? 1 : 0));
}

describe("loading a saved index that is missing or damaged", () => {
  const temp = createTempDirs();
  let pristine: string;

  beforeAll(async () => {
    pristine = await temp.make();
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    await kb.save(pristine);
  });
  afterAll(() => temp.cleanup());

  it("reports INDEX_NOT_FOUND, with the command that builds it, for a folder that does not exist", async () => {
    const dir = join(await temp.make(), "no-such-index");
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_NOT_FOUND");
    expect(error.message).toContain(ADVICE);
    expect(error.message).toContain(dir);
  });

  it("reports INDEX_NOT_FOUND for an existing folder without a manifest", async () => {
    const dir = await temp.make();
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_NOT_FOUND");
    expect(error.message).toContain(ADVICE);
  });

  it("loads the undamaged copy, so that each failure below comes from its damage", async () => {
    const dir = await temp.make();
    await cp(pristine, dir, { recursive: true });
    const kb = await KnowledgeBase.load(dir);
    expect(kb.chunks.length).toBeGreaterThan(0);
    expect(kb.l1).not.toBeNull();
  });

  it.each(CORRUPTIONS)(
    "reports INDEX_CORRUPT with rebuild advice, never a native crash, when %s",
    async (_name, damage, detail) => {
      const dir = await temp.make();
      await cp(pristine, dir, { recursive: true });
      await damage(dir);
      const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");
      expect(error.message).toMatch(/^lookup-knowledge: /);
      expect(error.message).toContain(ADVICE);
      expect(error.message).toContain(dir);
      expect(error.message).toMatch(detail);
    },
  );

  it("never reads a file outside the index folder that the manifest lists, even with its correct checksum", async () => {
    const parent = await temp.make();
    const dir = join(parent, "index");
    await cp(pristine, dir, { recursive: true });
    const outside = join(parent, "secret.json");
    await writeFile(outside, "{}");
    await editManifest(dir, (manifest) => {
      manifest.checksums["../secret.json"] = sha256("{}");
      manifest.checksums["../../secret.json"] = sha256("{}");
    });
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");
    expect(error.message).toMatch(/unknown file name "\.\.\/(\.\.\/)?secret\.json"/);
    expect(error.message).toContain(ADVICE);
  });
});
