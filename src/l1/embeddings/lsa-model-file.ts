import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LsaEmbeddings } from "./lsa-embeddings.js";
import type { LsaModelHeader } from "./lsa-model-header.js";

/** File holding the JSON header of a saved model. */
export const LSA_MODEL_FILE = "lsa-model.json";
/** File holding the little-endian Float32 projection of a saved model. */
export const LSA_PROJECTION_FILE = "lsa-projection.f32";

/**
 * Writes a fitted model into `dir` (created if missing) as {@link LSA_MODEL_FILE} and
 * {@link LSA_PROJECTION_FILE}. Each file is written beside its final name and renamed into
 * place, so a reader never sees a half-written file.
 */
export async function saveLsaModel(dir: string, model: LsaEmbeddings): Promise<void> {
  const { header, projection } = model.serialize();
  await mkdir(dir, { recursive: true });
  await writeAtomically(join(dir, LSA_PROJECTION_FILE), projection);
  await writeAtomically(join(dir, LSA_MODEL_FILE), JSON.stringify(header));
}

/**
 * Reads a model written by {@link saveLsaModel}.
 * @throws Error when a file is missing, the header is not valid JSON, or header and projection do not match.
 */
export async function loadLsaModel(dir: string): Promise<LsaEmbeddings> {
  const headerPath = join(dir, LSA_MODEL_FILE);
  const projectionPath = join(dir, LSA_PROJECTION_FILE);
  const [headerText, projection] = await Promise.all([
    readFile(headerPath, "utf8").catch((cause: unknown) => missing(headerPath, cause)),
    readFile(projectionPath).catch((cause: unknown) => missing(projectionPath, cause)),
  ]);
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch (cause) {
    throw new Error(`LsaEmbeddings model: ${headerPath} is not valid JSON; rebuild the index`, { cause });
  }
  try {
    return LsaEmbeddings.deserialize(header as LsaModelHeader, projection);
  } catch (cause) {
    throw new Error(`${(cause as Error).message} (reading ${dir})`, { cause });
  }
}

async function writeAtomically(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

function missing(path: string, cause: unknown): never {
  throw new Error(`LsaEmbeddings model: cannot read ${path}; build the index first`, { cause });
}
