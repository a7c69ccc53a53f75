/**
 * A document sync that kills itself: `node --import tsx sync-save-child.ts <documents.json> <index> <killAt>`
 * loads the index built from documents in `index`, syncs it with the documents of the JSON file
 * (`cleanup: "full"`), saves it back and, at the `killAt`-th save step (0-based; -1 for none),
 * sends itself SIGKILL. Every step is printed on stdout as one JSON line before the kill.
 */
import { readFileSync, writeSync } from "node:fs";
import type { DocumentInterface } from "@langchain/core/documents";
import { KnowledgeBase } from "../../../src/knowledge-base/knowledge-base.js";

const [documentsFile, indexDir, killAtText] = process.argv.slice(2);
const killAt = Number(killAtText ?? "-1");
const documents = JSON.parse(readFileSync(documentsFile, "utf8")) as DocumentInterface[];
const loaded = await KnowledgeBase.load(indexDir);
const { knowledgeBase, result } = await loaded.syncDocuments(documents, { cleanup: "full", onWarning: () => {} });
let step = 0;
await knowledgeBase.save(indexDir, {
  onProgress(progress) {
    writeSync(1, `${JSON.stringify(progress)}\n`);
    if (step === killAt) process.kill(process.pid, "SIGKILL");
    step += 1;
  },
});
writeSync(1, `${JSON.stringify({ saved: knowledgeBase.fingerprint, result })}\n`);
