/**
 * A re-index run that kills itself: `node --import tsx index-save-child.ts <corpus> <out> <killAt>`
 * builds the corpus, saves it into `out` and, at the `killAt`-th save step (0-based; -1 for none),
 * sends itself SIGKILL, so that nothing after that step runs. Every step is printed on stdout as
 * one JSON line before the kill, written synchronously so that the parent sees it.
 */
import { writeSync } from "node:fs";
import { KnowledgeBase } from "../../../src/knowledge-base/knowledge-base.js";

const [corpusDir, outDir, killAtText] = process.argv.slice(2);
const killAt = Number(killAtText ?? "-1");
const kb = await KnowledgeBase.build({ corpusDir, onWarning: () => {} });
let step = 0;
await kb.save(outDir, {
  onProgress(progress) {
    writeSync(1, `${JSON.stringify(progress)}\n`);
    if (step === killAt) process.kill(process.pid, "SIGKILL");
    step += 1;
  },
});
writeSync(1, `${JSON.stringify({ saved: kb.fingerprint })}\n`);
