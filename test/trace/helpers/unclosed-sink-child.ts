/**
 * A child process for the sink's lifetime test: `node --expose-gc --import tsx
 * unclosed-sink-child.ts <trace file>`. It appends through a sink it drops without closing,
 * collects it, appends through a second sink it keeps and never closes, and prints
 * `{ kept, collected }`: whether the first sink held one descriptor open after its append, and
 * whether collecting the sink closed it. The process must then exit on its own.
 */
import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonlTraceSink } from "../../../src/trace/jsonl-trace-sink.js";

const path = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;

/** Descriptors of this process open on the trace file (other descriptors come and go with the loader). */
function traceDescriptors(): number {
  let open = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === realpathSync(path)) open++;
    } catch {
      // Closed since the listing.
    }
  }
  return open;
}

async function appendAndDrop(): Promise<boolean> {
  return new JsonlTraceSink(path).append({ n: 1 });
}

const kept = (await appendAndDrop()) && traceDescriptors() === 1;
for (let round = 0; round < 100 && traceDescriptors() > 0; round++) {
  gc?.();
  await sleep(10);
}
const collected = traceDescriptors() === 0;
const survivor = new JsonlTraceSink(path);
await survivor.append({ n: 2 });
process.stdout.write(`${JSON.stringify({ kept, collected })}\n`);
