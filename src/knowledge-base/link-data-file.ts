import { constants } from "node:fs";
import { copyFile, link, lstat } from "node:fs/promises";
import { indexUnusable } from "../errors.js";

/** Errors of `link` that mean hard links cannot be made there (another device, a file system without them). */
const NO_HARD_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EOPNOTSUPP", "EMLINK", "ENOSYS"]);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/**
 * Makes `target` (a new name in a private scratch folder) hold the committed data file `source`:
 * a second name of the same file where the file system allows it, else a copy. A second name keeps
 * the file's bytes even when another save removes its generation meanwhile, and costs no copy; a
 * committed generation is never written to, so both names hold the bytes the manifest describes.
 * Only a regular file is taken: a symbolic link or a device is refused before anything is read.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when `source` is missing or not a regular file
 * (a load that lost a race with a save reads the new manifest and starts again); what `copyFile`
 * throws when neither works (the scratch folder is full or read-only).
 */
export async function linkDataFile(dir: string, name: string, source: string, target: string): Promise<void> {
  const before = await lstat(source).catch((cause: unknown) => {
    throw indexUnusable(
      dir,
      codeOf(cause) === "ENOENT" ? `file ${name} is missing` : `file ${name} cannot be read`,
      cause,
    );
  });
  if (!before.isFile()) throw indexUnusable(dir, `file ${name} is not a regular file`);
  try {
    await link(source, target).catch(async (cause: unknown) => {
      if (!NO_HARD_LINK.has(codeOf(cause))) throw cause;
      await copyFile(source, target, constants.COPYFILE_EXCL);
    });
  } catch (cause) {
    // The source went away (another save removed its generation): not the scratch folder's fault.
    if (codeOf(cause) === "ENOENT" && (await lstat(source).catch(() => null)) === null)
      throw indexUnusable(dir, `file ${name} is missing`, cause);
    throw cause;
  }
  const placed = await lstat(target);
  if (!placed.isFile() || placed.size !== before.size)
    throw indexUnusable(dir, `file ${name} changed while it was read`);
}
