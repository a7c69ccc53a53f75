/** Whether tests can run a child as the unprivileged `nobody` user against this repository. */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const NOBODY = 65534;

let cached: string | null | undefined;

/**
 * Null when the tests do not run as root (children run as this user) or when `nobody` can read
 * the repository; otherwise why an unprivileged child cannot load it (a clone below a folder only
 * its owner may enter, such as one made by `mktemp -d`), for the test to report as a skip.
 */
export function unprivilegedSkipReason(): string | null {
  if (cached !== undefined) return cached;
  if (process.getuid?.() !== 0) return (cached = null);
  const probe = spawnSync(
    process.execPath,
    ["-e", "require('node:fs').accessSync(process.argv[1])", join(REPO_ROOT, "package.json")],
    { uid: NOBODY, gid: NOBODY, stdio: "ignore" },
  );
  cached =
    probe.status === 0
      ? null
      : `the user nobody cannot read ${REPO_ROOT}, so no unprivileged child can load it; clone the repository below a folder everyone may enter`;
  return cached;
}
