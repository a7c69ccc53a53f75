/**
 * What the packed tarball must hold and must not: pure checks over its file list, its
 * package.json and the repository's tracked files, used by `check-package.ts`.
 */

/** The fields of package.json the checks read. */
export interface PackedManifest {
  name?: string;
  version?: string;
  license?: string;
  keywords?: string[];
  homepage?: string;
  repository?: string | { type?: string; url?: string };
  bugs?: string | { url?: string };
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
}

/** Files every tarball must hold besides those package.json points to. */
export const REQUIRED_FILES = ["package.json", "README.md", "LICENSE", "CHANGELOG.md"];

/** Paths that must never ship: sources, tests, data, results, local state and build leftovers. */
const FORBIDDEN = [
  /^src\//,
  /^test\//,
  /^eval\//,
  /^corpus\//,
  /^traces\//,
  /^scripts\//,
  /^node_modules\//,
  /^bench\/(?!README\.md$)/,
  /^dist\/(?!src\/)/,
  /(^|\/)\.lookup-knowledge\//,
  /(^|\/)\.ci-results\//,
  /\.(tgz|log|tsbuildinfo)$/,
  /(^|\/)\.env(\.|$)/,
  /\.test\.(js|d\.ts)$/,
];

/** The repository's web address from package.json (`https://host/owner/name`), or null. */
export function repositoryUrl(manifest: PackedManifest): string | null {
  const raw = typeof manifest.repository === "string" ? manifest.repository : manifest.repository?.url;
  if (raw === undefined) return null;
  const match = /^(?:git\+)?(https:\/\/[^/]+\/[^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(raw);
  return match === null ? null : match[1];
}

/** Every file package.json names as an entry point: main, types, bin and each export condition. */
export function entryPoints(manifest: PackedManifest): string[] {
  const paths = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined) paths.add(value.replace(/^\.\//, ""));
  };
  add(manifest.main);
  add(manifest.types);
  if (typeof manifest.bin === "string") add(manifest.bin);
  else Object.values(manifest.bin ?? {}).forEach(add);
  for (const target of Object.values(manifest.exports ?? {})) {
    if (typeof target === "string") add(target);
    else Object.values(target).forEach(add);
  }
  return [...paths].sort();
}

/** The metadata a package page needs: what is missing or malformed, one line each. */
export function manifestProblems(manifest: PackedManifest): string[] {
  const problems: string[] = [];
  for (const field of ["name", "version", "license", "homepage"] as const) {
    if (typeof manifest[field] !== "string" || manifest[field] === "") problems.push(`package.json has no "${field}"`);
  }
  if (repositoryUrl(manifest) === null) problems.push('package.json has no https "repository" url');
  const bugs = typeof manifest.bugs === "string" ? manifest.bugs : manifest.bugs?.url;
  if (bugs === undefined || !/^https:\/\//.test(bugs)) problems.push('package.json has no https "bugs" url');
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0)
    problems.push('package.json has no "keywords"');
  if (!Array.isArray(manifest.files) || manifest.files.length === 0) problems.push('package.json has no "files" list');
  return problems;
}

/**
 * What is wrong with the tarball's file list: required files and entry points that are missing,
 * paths that must not ship, and files outside `dist/` that the repository does not track (local
 * leftovers that `files` swept in).
 */
export function contentProblems(
  files: readonly string[],
  manifest: PackedManifest,
  tracked: ReadonlySet<string>,
): string[] {
  const present = new Set(files);
  const problems: string[] = [];
  for (const file of [...REQUIRED_FILES, ...entryPoints(manifest)]) {
    if (!present.has(file)) problems.push(`missing ${file}`);
  }
  for (const file of files) {
    if (FORBIDDEN.some((pattern) => pattern.test(file))) problems.push(`ships ${file}, which must not be published`);
    else if (!file.startsWith("dist/") && file !== "package.json" && !tracked.has(file))
      problems.push(`ships ${file}, which the repository does not track`);
  }
  return problems;
}
