import { parseArgs } from "node:util";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_INDEX_DIR } from "./defaults.js";
import { createProgressBar } from "./progress.js";

/** Builds both indexes from a corpus folder and saves them; returns the knowledge base. */
export async function buildAndSave(corpusDir: string, outDir: string, log: (line: string) => void): Promise<KnowledgeBase> {
  const bar = createProgressBar();
  const started = performance.now();
  const warn = (message: string) => (bar.done(), log(message));
  const kb = await KnowledgeBase.build({ corpusDir, onProgress: bar.update, onWarning: warn });
  await kb.save(outDir, { onProgress: bar.update, onWarning: warn });
  bar.done();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(`Indexed ${kb.chunks.length} chunks from ${corpusDir} (${kb.domains.length} domains, ${kb.skipped.length} files skipped) into ${outDir} in ${seconds} s; fingerprint ${kb.fingerprint}.`);
  return kb;
}

/** `lookup-knowledge index [--corpus DIR] [--out DIR]` */
export async function indexCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { corpus: { type: "string", default: DEFAULT_CORPUS_DIR }, out: { type: "string", default: DEFAULT_INDEX_DIR } },
    strict: true,
  });
  await buildAndSave(values.corpus, values.out, (line) => process.stderr.write(`${line}\n`));
  return 0;
}
