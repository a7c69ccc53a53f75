import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { indexUnusable } from "../errors.js";
import { INDEX_FORMAT_VERSION, sha256, type IndexManifest } from "./manifest.js";

/** Names of the files of a saved index. */
export const INDEX_FILES = {
  manifest: "manifest.json",
  chunks: "chunks.json",
  keywordIndex: "keyword-index.json",
  bm25: "bm25.json",
  vectors: "vectors.hnsw",
} as const;

/** Writes `data` beside `path` and renames it into place, so a reader never sees half a file. */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

/** Writes the manifest last, so that a folder with a manifest always holds a complete index. */
export async function writeManifest(dir: string, manifest: IndexManifest): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomically(join(dir, INDEX_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Reads and checks `manifest.json`; every failure says to run `lookup-knowledge index`. */
export async function readManifest(dir: string): Promise<IndexManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, INDEX_FILES.manifest), "utf8");
  } catch (cause) {
    throw indexUnusable(dir, `missing ${INDEX_FILES.manifest}`, cause);
  }
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(text) as IndexManifest;
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not valid JSON`, cause);
  }
  if (manifest?.format !== "lookup-knowledge-index" || manifest.formatVersion !== INDEX_FORMAT_VERSION) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not a version ${INDEX_FORMAT_VERSION} lookup-knowledge index`);
  }
  if (typeof manifest.checksums !== "object" || manifest.checksums === null) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} has no checksums`);
  }
  return manifest;
}

/** Checks every data file against the manifest's SHA-256 before any of them is parsed. */
export async function verifyChecksums(dir: string, manifest: IndexManifest): Promise<Map<string, Buffer>> {
  const contents = new Map<string, Buffer>();
  for (const [name, expected] of Object.entries(manifest.checksums)) {
    let data: Buffer;
    try {
      data = await readFile(join(dir, name));
    } catch (cause) {
      throw indexUnusable(dir, `file ${name} is missing`, cause);
    }
    if (sha256(data) !== expected) throw indexUnusable(dir, `file ${name} is corrupted (checksum mismatch)`);
    contents.set(name, data);
  }
  return contents;
}

/** Parses one JSON data file of a verified index. */
export function parseJsonFile<T>(dir: string, contents: Map<string, Buffer>, name: string): T {
  const data = contents.get(name);
  if (data === undefined) throw indexUnusable(dir, `file ${name} is not listed in the manifest`);
  try {
    return JSON.parse(data.toString("utf8")) as T;
  } catch (cause) {
    throw indexUnusable(dir, `file ${name} is not valid JSON`, cause);
  }
}
