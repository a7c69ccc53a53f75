import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Every `.ts` file under `dir`, recursively. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? sourceFiles(join(dir, entry.name))
        : Promise.resolve(entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []),
    ),
  );
  return nested.flat();
}

/** Every relative module specifier of a file: static imports (type imports included), re-exports and dynamic imports. */
export function relativeSpecifiers(text: string): string[] {
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)].map(
    (match) => match[1],
  );
  return [...new Set(found)];
}

/** `[importer, imported]` pairs of the files under `root`, as paths relative to it with `/` separators and `.ts`. */
export async function importEdges(root: string): Promise<[string, string][]> {
  const edges: [string, string][] = [];
  for (const file of await sourceFiles(root)) {
    for (const specifier of relativeSpecifiers(await readFile(file, "utf8"))) {
      const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
      edges.push([relative(root, file).split(sep).join("/"), relative(root, target).split(sep).join("/")]);
    }
  }
  return edges;
}

/**
 * The import cycles between the members of every folder: in each folder, each of its own files
 * is a member and each subfolder is one member standing for everything under it. So `graph/`
 * importing `tool/` while `tool/` imports `graph/` is a cycle of `src/`, whichever files do it.
 * Each cycle is listed as its members joined by " → ", with one importing file pair per step.
 */
export function folderCycles(edges: readonly (readonly [string, string])[]): string[] {
  const folders = new Set<string>([""]);
  for (const [from] of edges) {
    const parts = from.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const cycles: string[] = [];
  for (const folder of [...folders].sort()) {
    const prefix = folder === "" ? "" : `${folder}/`;
    const member = (path: string): string | null => {
      if (!path.startsWith(prefix)) return null;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      return slash < 0 ? rest : `${rest.slice(0, slash)}/`;
    };
    const next = new Map<string, Map<string, string>>();
    for (const [from, to] of edges) {
      const a = member(from);
      const b = member(to);
      if (a === null || b === null || a === b) continue;
      if (!next.has(a)) next.set(a, new Map());
      if (!next.get(a)!.has(b)) next.get(a)!.set(b, `${from} imports ${to}`);
    }
    for (const cycle of stronglyConnected(next)) {
      const steps = cycle.flatMap((a) => cycle.map((b) => next.get(a)?.get(b)).filter((why) => why !== undefined));
      cycles.push(`${prefix || "src/"}: ${cycle.join(" → ")} (${steps.join("; ")})`);
    }
  }
  return cycles;
}

/** Tarjan's strongly connected components of more than one member. */
function stronglyConnected(next: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}
