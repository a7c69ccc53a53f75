/**
 * Generated Markdown corpora for the re-index scenarios: deterministic, as large as asked, and
 * different from one `variant` to the next, so that two indexes never share a fingerprint.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "../../../src/l1/embeddings/linear-algebra.js";

const DOMAINS = ["billing", "deployment", "access", "support", "data-platform", "security"];
const WORDS = (
  "invoice refund rollback canary release freeze deploy pipeline cluster node replica backup restore " +
  "credential rotation vault token audit review approval ticket escalation incident outage latency " +
  "throughput schema migration index query cache queue worker retry timeout quota budget forecast " +
  "ledger account customer tenant region failover snapshot archive retention policy compliance"
).split(" ");

/** Size and flavour of a generated corpus. */
export interface CorpusShape {
  /** Markdown files to write. */
  files: number;
  /** `##` sections per file (each one chunk). */
  sections: number;
  /** Words per section. */
  words: number;
  /** Changes every text, so that each variant indexes differently. */
  variant: number;
}

function document(index: number, shape: CorpusShape, next: () => number): string {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)];
  const domain = DOMAINS[index % DOMAINS.length];
  const lines = [
    "---",
    `title: ${pick()} ${pick()} guide ${index} v${shape.variant}`,
    `domain: ${domain}`,
    `keywords: [${pick()}, ${pick()}]`,
    "---",
    "",
  ];
  for (let section = 0; section < shape.sections; section += 1) {
    lines.push(`## ${pick()} ${pick()} step ${section}`, "", Array.from({ length: shape.words }, pick).join(" "), "");
  }
  return lines.join("\n");
}

/** Writes a corpus of `shape` into `dir` (spread over one folder per domain); returns `dir`. */
export async function writeCorpus(dir: string, shape: CorpusShape): Promise<string> {
  const next = mulberry32(1000 + shape.variant);
  for (const domain of DOMAINS) await mkdir(join(dir, domain), { recursive: true });
  for (let index = 0; index < shape.files; index += 1) {
    await writeFile(join(dir, DOMAINS[index % DOMAINS.length], `doc-${index}.md`), document(index, shape, next));
  }
  return dir;
}
