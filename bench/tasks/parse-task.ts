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

/** Medians over the rounds of one measure of both paths, in milliseconds. */
export interface PathMedians {
  previous: number;
  grayMatter: number;
}

/**
 * Medians over the rounds, in milliseconds, of one corpus: each path's frontmatter step alone and
 * its whole file parse, in wall-clock time and in CPU time (`process.cpuUsage`, user + system, every
 * thread of the process: GC helpers included). CPU time leaves out the time the process waits for a
 * core, which is most of the wall-clock noise on a busy machine.
 */
export interface CorpusParseTiming {
  corpus: string;
  files: number;
  bytes: number;
  rounds: number;
  /** Passes over the corpus per timed block, at least {@link MIN_FILES_PER_BLOCK} files; the times are per pass. Absent (1) in older results. */
  passes?: number;
  /** The frontmatter step alone over every file's text (decoded beforehand), wall-clock. */
  frontmatterMs: PathMedians;
  /** Decode, frontmatter, fields and chunks of every file's bytes (read beforehand), wall-clock. */
  fileParseMs: PathMedians;
  /** Per-round wall-clock ratios of the frontmatter step and of the file parse. */
  frontmatterRatio: RoundRatios;
  fileParseRatio: RoundRatios;
  /** The frontmatter step's CPU time. Absent in older results. */
  frontmatterCpuMs?: PathMedians;
  /** The file parse's CPU time. Absent in older results. */
  fileParseCpuMs?: PathMedians;
  /** Per-round CPU-time ratios of the frontmatter step and of the file parse. Absent in older results. */
  frontmatterCpuRatio?: RoundRatios;
  fileParseCpuRatio?: RoundRatios;
  /** `loadCorpus(dir)` with the gray-matter path: walk, read, hash and parse, for scale (wall-clock). */
  loadCorpusMs: number;
  /** The same, CPU time (the thread pool's reads included). Absent in older results. */
  loadCorpusCpuMs?: number;
  /** Files whose chunks (or skip) differ between the two paths; 0 expected on these corpora. */
  differingFiles: number;
}

/** What the parse child measured: the sample corpus and a generated one. */
export interface ParseResult {
  corpora: CorpusParseTiming[];
}

/**
 * Files a timed block parses at least, passing over a small corpus several times. The block after a
 * forced collection runs slower (the 66-file sample corpus in one pass took 48 to 68 ms of CPU
 * against 13 ms without one), which alone decided that corpus's ratios when it was timed in one pass.
 */
export const MIN_FILES_PER_BLOCK = 2_000;

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

/** One timed block, in milliseconds. */
interface Sample {
  wallMs: number;
  cpuMs: number;
}

/**
 * Times `run` in wall-clock and CPU time. The heap is collected first (the child runs with
 * `--expose-gc`), so that a block does not pay for the garbage the block before it left.
 */
async function timed(run: () => unknown, passes = 1): Promise<Sample> {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let pass = 0; pass < passes; pass++) await run();
  const wallMs = (performance.now() - start) / passes;
  const { user, system } = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (user + system) / 1000 / passes };
}

type Path = "previous" | "grayMatter";

/** Each path's samples of one measure, round by round. */
type PathSamples = Record<Path, Sample[]>;

const emptySamples = (): PathSamples => ({ previous: [], grayMatter: [] });

const median = (values: number[]) => percentile(values, 50);

function medians(samples: PathSamples, of: keyof Sample): PathMedians {
  return {
    previous: median(samples.previous.map((sample) => sample[of])),
    grayMatter: median(samples.grayMatter.map((sample) => sample[of])),
  };
}

function ratios(samples: PathSamples, of: keyof Sample): RoundRatios {
  const each = samples.grayMatter.map((sample, i) => sample[of] / samples.previous[i][of]);
  return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
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
  const paths: Record<Path, FrontmatterParser> = {
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
  const passes = Math.max(1, Math.ceil(MIN_FILES_PER_BLOCK / files.length));
  const frontmatter = emptySamples();
  const fileParse = emptySamples();
  const load: Sample[] = [];
  const tryParse = (parse: FrontmatterParser, text: string) => {
    try {
      parse(text);
    } catch {
      // A refused file costs what it costs; both paths see the same files.
    }
  };
  for (let round = 0; round < rounds; round++) {
    // Which path goes first alternates between rounds and flips between the two measures, so that
    // neither path always runs first, on a heap the other has just grown, or next to the load.
    const first: readonly Path[] = round % 2 === 0 ? ["previous", "grayMatter"] : ["grayMatter", "previous"];
    for (const path of first) {
      frontmatter[path].push(await timed(() => texts.forEach((text) => tryParse(paths[path], text)), passes));
    }
    for (const path of [...first].reverse()) {
      fileParse[path].push(
        await timed(() => files.forEach(({ file, bytes }) => outcome(parsers[path], file, bytes)), passes),
      );
    }
    load.push(await timed(() => loadCorpus(dir)));
  }
  const timing: CorpusParseTiming = {
    corpus,
    files: files.length,
    bytes: files.reduce((sum, { bytes }) => sum + bytes.length, 0),
    rounds,
    passes,
    frontmatterMs: medians(frontmatter, "wallMs"),
    fileParseMs: medians(fileParse, "wallMs"),
    frontmatterRatio: ratios(frontmatter, "wallMs"),
    fileParseRatio: ratios(fileParse, "wallMs"),
    frontmatterCpuMs: medians(frontmatter, "cpuMs"),
    fileParseCpuMs: medians(fileParse, "cpuMs"),
    frontmatterCpuRatio: ratios(frontmatter, "cpuMs"),
    fileParseCpuRatio: ratios(fileParse, "cpuMs"),
    loadCorpusMs: median(load.map((sample) => sample.wallMs)),
    loadCorpusCpuMs: median(load.map((sample) => sample.cpuMs)),
    differingFiles,
  };
  log(`${corpus}: ${JSON.stringify(timing)}`);
  return timing;
}

/**
 * Times loading the sample corpus (`corpus/`) and a generated corpus of `spec.size` files (one
 * replicated SciFact document each, under full frontmatter) through the previous frontmatter path
 * and the gray-matter path side by side: the frontmatter step alone and the whole file parse, in
 * alternating order over `spec.rounds` rounds, in wall-clock and CPU time, the heap collected
 * before each block, medians and per-round ratios kept; `loadCorpus` itself for scale.
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
