import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The version in this package's package.json, found by walking up from this file (it runs from
 * `src/cli` in the repository and from `dist/src/cli` when installed).
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "lookup-knowledge" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // No package.json here: keep walking up.
    }
    dir = dirname(dir);
  }
  return "unknown";
}
