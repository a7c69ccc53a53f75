import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { normalizeNewlines } from "../../src/corpus/normalize-newlines.js";
import { parseFrontmatter } from "../../src/corpus/parse-frontmatter.js";
import { parseMarkdownFile } from "../../src/corpus/parse-markdown-file.js";
import type { Chunk } from "../../src/types.js";
import { BenchError } from "../bench-error.js";
import { loadSciFact, REPO_ROOT } from "../dataset/load-scifact.js";
import { replicateCorpus } from "../dataset/replicate-corpus.js";
import { toMarkdownFiles, writeMarkdownFiles, type MarkdownFile } from "../dataset/write-markdown-corpus.js";
import { percentile } from "../measure/percentile.js";
import { parseFileWith, type FrontmatterParser } from "../parse/parse-file-with.js";
import { previousParseFrontmatter } from "../parse/previous-frontmatter.js";
import type { KeepPartial, ParseSpec } from "./task-spec.js";

/** gray-matter's time over the previous path's, per round (the two timed back to back): the median and the range, which is the noise. */
export interface RoundRatios {
  median: number;
  min: number;
  max: number;
}

/** Medians over the rounds, in milliseconds, of one corpus: each path's frontmatter step alone and its whole file parse. */
export interface CorpusParseTiming {
  corpus: string;
  files: number;
  bytes: number;
  rounds: number;
  /** The frontmatter step alone over every file's text (decoded beforehand). */
  frontmatterMs: { previous: number; grayMatter: number };
  /** Decode, frontmatter, fields and chunks of every file's bytes (read beforehand). */
  fileParseMs: { previous: number; grayMatter: number };
  /** Per-round ratios of the frontmatter step and of the file parse. */
  frontmatterRatio: RoundRatios;
  fileParseRatio: RoundRatios;
  /** `loadCorpus(dir)` with the gray-matter path: walk, read, hash and parse, for scale. */
  loadCorpusMs: number;
  /** Files whose chunks (or skip) differ between the two paths; 0 expected on these corpora. */
  differingFiles: number;
}

/** What the parse child measured: the sample corpus and a generated one. */
export interface ParseResult {
  corpora: CorpusParseTiming[];
}

const DOMAINS = ["billing", "it", "hr", "support", "security"];

/** The generated corpus's files carry full frontmatter, as the sample corpus's do, so that the frontmatter step has work. */
function withFullFrontmatter(file: MarkdownFile, n: number): MarkdownFile {
  const body = file.text.slice(file.text.indexOf("\n---\n") + 5);
  const words = body.split(/\s+/).filter((word) => /^[a-z]{5,}$/.test(word));
  const pick = (from: number, count: number) => JSON.stringify(words.slice(from, from + count));
  const frontmatter = [
    `title: ${JSON.stringify(`SciFact batch ${n}`)}`,
    `domain: ${DOMAINS[n % DOMAINS.length]}`,
    `keywords: ${pick(0, 5)}`,
    `entities: ${pick(5, 3)}`,
    `aliases: ${pick(8, 2)}`,
  ].join("\n");
  return { ...file, text: `---\n${frontmatter}\n---\n${body}` };
}

async function markdownFiles(dir: string): Promise<{ file: string; bytes: Uint8Array }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => join(entry.parentPath, entry.name));
  paths.sort();
  return Promise.all(paths.map(async (path) => ({ file: relative(dir, path), bytes: await readFile(path) })));
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function timed(run: () => void): number {
  gc();
  const start = performance.now();
  run();
  return performance.now() - start;
}

function outcome(
  parse: (file: string, bytes: Uint8Array) => Chunk[],
  file: string,
  bytes: Uint8Array,
): Chunk[] | string {
  try {
    return parse(file, bytes);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function timeCorpus(
  corpus: string,
  dir: string,
  rounds: number,
  log: (line: string) => void,
): Promise<CorpusParseTiming> {
  const files = await markdownFiles(dir);
  const decoder = new TextDecoder();
  const texts = files.map(({ bytes }) => normalizeNewlines(decoder.decode(bytes)));
  const paths: Record<"previous" | "grayMatter", FrontmatterParser> = {
    previous: previousParseFrontmatter,
    grayMatter: parseFrontmatter,
  };
  const parsers = { previous: parseFileWith(previousParseFrontmatter), grayMatter: parseFileWith(parseFrontmatter) };
  let differingFiles = 0;
  for (const { file, bytes } of files) {
    const expected = outcome((name: string, data: Uint8Array) => parseMarkdownFile(name, data).chunks, file, bytes);
    if (!isDeepStrictEqual(outcome(parsers.grayMatter, file, bytes), expected))
      throw new BenchError(`the bench's file parse differs from parseMarkdownFile on ${file}.`);
    if (!isDeepStrictEqual(outcome(parsers.previous, file, bytes), expected)) differingFiles++;
  }
  const samples = {
    frontmatter: { previous: [] as number[], grayMatter: [] as number[] },
    fileParse: { previous: [] as number[], grayMatter: [] as number[] },
    load: [] as number[],
  };
  const tryParse = (parse: FrontmatterParser, text: string) => {
    try {
      parse(text);
    } catch {
      // A refused file costs what it costs; both paths see the same files.
    }
  };
  for (let round = 0; round < rounds; round++) {
    // Alternate which path goes first, so that neither always runs on a warmer heap.
    const order = round % 2 === 0 ? (["previous", "grayMatter"] as const) : (["grayMatter", "previous"] as const);
    for (const path of order) {
      samples.frontmatter[path].push(timed(() => texts.forEach((text) => tryParse(paths[path], text))));
      samples.fileParse[path].push(
        timed(() => files.forEach(({ file, bytes }) => outcome(parsers[path], file, bytes))),
      );
    }
    gc();
    const start = performance.now();
    await loadCorpus(dir);
    samples.load.push(performance.now() - start);
  }
  const median = (values: number[]) => percentile(values, 50);
  const ratios = (pair: { previous: number[]; grayMatter: number[] }): RoundRatios => {
    const each = pair.grayMatter.map((ms, i) => ms / pair.previous[i]);
    return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
  };
  const timing: CorpusParseTiming = {
    corpus,
    files: files.length,
    bytes: files.reduce((sum, { bytes }) => sum + bytes.length, 0),
    rounds,
    frontmatterMs: {
      previous: median(samples.frontmatter.previous),
      grayMatter: median(samples.frontmatter.grayMatter),
    },
    fileParseMs: { previous: median(samples.fileParse.previous), grayMatter: median(samples.fileParse.grayMatter) },
    frontmatterRatio: ratios(samples.frontmatter),
    fileParseRatio: ratios(samples.fileParse),
    loadCorpusMs: median(samples.load),
    differingFiles,
  };
  log(`${corpus}: ${JSON.stringify(timing)}`);
  return timing;
}

/**
 * Times loading the sample corpus (`corpus/`) and a generated corpus of `spec.size` files (one
 * replicated SciFact document each, under full frontmatter) through the previous frontmatter path
 * and the gray-matter path side by side: the frontmatter step alone and the whole file parse, in
 * alternating order over `spec.rounds` rounds, medians kept; `loadCorpus` itself for scale.
 */
export async function runParseTask(
  spec: ParseSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<ParseResult> {
  const result: ParseResult = { corpora: [] };
  result.corpora.push(await timeCorpus("sample corpus (corpus/)", join(REPO_ROOT, "corpus"), spec.rounds, log));
  keep(result);
  const { docs } = await loadSciFact(spec.dataset);
  const generated = toMarkdownFiles(replicateCorpus(docs, spec.size), 1).map(withFullFrontmatter);
  const dir = join(spec.workDir, "corpus");
  await writeMarkdownFiles(dir, generated);
  log(`wrote ${generated.length} Markdown files`);
  result.corpora.push(
    await timeCorpus(`generated (${spec.size.toLocaleString("en-US")} files)`, dir, spec.rounds, log),
  );
  return result;
}
