import { existsSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(import.meta.url);
/** `.ts` when running from src/ (tsx, promptfoo's loader), `.js` when installed from dist/. */
const EXTENSION = extname(HERE);
/** src/eval or dist/src/eval. */
const EVAL_ROOT = join(dirname(HERE), "..");

/**
 * Absolute path of one of the package's eval modules, e.g. `evalModule("assertions/trace-line")`,
 * resolved from this file so that a generated promptfoo config works from any folder.
 */
export function evalModule(name: string): string {
  return join(EVAL_ROOT, `${name}${EXTENSION}`);
}

/**
 * {@link evalModule} as promptfoo configs reference it: `file://` + the plain absolute path (promptfoo
 * strips the prefix and does not URL-decode), optionally with `:function`.
 */
export function evalModuleRef(name: string, exportName?: string): string {
  const ref = `file://${evalModule(name)}`;
  return exportName ? `${ref}:${exportName}` : ref;
}

/** True when the module exists (a broken install or build shows up as one clear error). */
export function evalModuleExists(name: string): boolean {
  return existsSync(evalModule(name));
}
