import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";

interface SavedManifest {
  generation: string;
  checksums: Record<string, string>;
  crc32?: Record<string, string>;
}

/**
 * Rewrites the saved index in `dir` into the layout of earlier versions: the vector label map
 * appended to `vectors.hnsw` instead of its own `vector-labels.bin`, the manifest's checksums to match.
 */
export async function toPreviousVectorLayout(dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as SavedManifest;
  const part = (name: string) => join(dir, manifest.generation, name);
  const joined = Buffer.concat([await readFile(part("vectors.hnsw")), await readFile(part("vector-labels.bin"))]);
  await writeFile(part("vectors.hnsw"), joined);
  await rm(part("vector-labels.bin"));
  const { "vector-labels.bin": _sha, ...checksums } = manifest.checksums;
  const { "vector-labels.bin": _crc, ...crcs } = manifest.crc32 ?? {};
  checksums["vectors.hnsw"] = createHash("sha256").update(joined).digest("hex");
  crcs["vectors.hnsw"] = crc32(joined).toString(16).padStart(8, "0");
  await writeFile(join(dir, "manifest.json"), JSON.stringify({ ...manifest, checksums, crc32: crcs }));
}
