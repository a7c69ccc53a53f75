import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { indexUnusable } from "../errors.js";
import { INDEX_FILES } from "./index-layout.js";
import { manifestProblem } from "./manifest-shape.js";
import { INDEX_FORMAT_VERSION, sha256, type IndexManifest } from "./manifest.js";

/** Reads a file's bytes; injectable so that tests can act between the reads of one load. */
export type ReadBytes = (path: string) => Promise<Buffer>;

/** A checked manifest and the exact text it was parsed from (to notice a swap by another save). */
export interface ManifestRead {
  text: string;
  manifest: IndexManifest;
}

/**
 * Reads `manifest.json` and checks its whole shape before any field is used; every failure says
 * to run `lookup-knowledge index`.
 */
export async function readManifest(dir: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(join(dir, INDEX_FILES.manifest), "utf8");
  } catch (cause) {
    throw indexUnusable(dir, `missing ${INDEX_FILES.manifest}`, cause);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not valid JSON`, cause);
  }
  const head = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (head.format !== "lookup-knowledge-index" || head.formatVersion !== INDEX_FORMAT_VERSION) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not a version ${INDEX_FORMAT_VERSION} lookup-knowledge index`);
  }
  const problem = manifestProblem(parsed);
  if (problem !== null) throw indexUnusable(dir, problem);
  return { text, manifest: parsed as IndexManifest };
}

/**
 * Reads every data file the manifest lists from its generation folder and checks it against the
 * manifest's SHA-256, before any of them is parsed; the names were checked by {@link readManifest}.
 */
export async function readDataFiles(dir: string, manifest: IndexManifest, read: ReadBytes = readFile): Promise<Map<string, Buffer>> {
  const contents = new Map<string, Buffer>();
  for (const [name, expected] of Object.entries(manifest.checksums)) {
    let data: Buffer;
    try {
      data = await read(join(dir, manifest.generation, name));
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
