/**
 * `npx tsx bench/parse/per-file-pairs.ts [folder] [passes]`: the frontmatter step of each Markdown
 * file below `folder` (default `corpus/`) through the previous path and gray-matter's, back to back
 * in alternating order, `passes` times (default 5). Prints the median time per file of each path
 * and the median of the paired differences: a preempted or collecting call lands in a few pairs,
 * which the medians leave out, so this shows the cost per file underneath a busy machine's noise.
 * The generated corpus of `npm run bench -- --only parse --keep-temp` stays in the bench's work folder.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { normalizeNewlines } from "../../src/corpus/normalize-newlines.js";
import { parseFrontmatter } from "../../src/corpus/parse-frontmatter.js";
import { percentile } from "../measure/percentile.js";
import type { FrontmatterParser } from "./parse-file-with.js";
import { previousParseFrontmatter } from "./previous-frontmatter.js";

function callMs(parse: FrontmatterParser, text: string): number {
  const start = performance.now();
  try {
    parse(text);
  } catch {
    // A refused file costs what it costs; both paths see the same files.
  }
  return performance.now() - start;
}

async function main(): Promise<void> {
  const dir = process.argv[2] ?? "corpus";
  const passes = Number(process.argv[3] ?? 5);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  const texts = await Promise.all(paths.map(async (path) => normalizeNewlines(await readFile(path, "utf8"))));
  for (const text of texts) {
    callMs(previousParseFrontmatter, text);
    callMs(parseFrontmatter, text);
  }
  const previous: number[] = [];
  const grayMatter: number[] = [];
  const differences: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    texts.forEach((text, i) => {
      let before: number;
      let after: number;
      if ((i + pass) % 2 === 0) {
        before = callMs(previousParseFrontmatter, text);
        after = callMs(parseFrontmatter, text);
      } else {
        after = callMs(parseFrontmatter, text);
        before = callMs(previousParseFrontmatter, text);
      }
      previous.push(before);
      grayMatter.push(after);
      differences.push(after - before);
    });
  }
  const us = (values: number[]) => (percentile(values, 50) * 1000).toFixed(2);
  process.stdout.write(
    `${texts.length} files x ${passes} passes, µs per file (medians): previous ${us(previous)}, gray-matter ${us(grayMatter)}, paired difference ${us(differences)}\n`,
  );
}

await main();
