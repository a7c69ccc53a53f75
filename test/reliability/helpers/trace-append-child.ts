/**
 * A child process of the multi-process trace scenario: `node --import tsx trace-append-child.ts
 * <trace file> <child name> <appends>`. It builds its records, prints "ready", waits for "go" on
 * stdin (so that every child appends at once), appends them all concurrently through the real
 * `JsonlTraceSink`, and prints `{ written, failed }` (invocation ids) as one JSON line.
 */
import { once } from "node:events";
import { JsonlTraceSink } from "../../../src/trace/jsonl-trace-sink.js";
import { scenarioRecord } from "./trace-records.js";

const [tracePath, name, count] = process.argv.slice(2);
const records = Array.from({ length: Number(count) }, (_, i) => scenarioRecord(`${name}-${i}`, i));
const sink = new JsonlTraceSink(tracePath);

process.stdout.write("ready\n");
process.stdin.setEncoding("utf8");
let input = "";
while (!input.includes("go")) {
  const [chunk] = (await once(process.stdin, "data")) as [string];
  input += chunk;
}
const outcomes = await Promise.all(records.map((record) => sink.append(record)));
const ids = records.map((record) => record.invocation_id);
process.stdout.write(
  `${JSON.stringify({ written: ids.filter((_, i) => outcomes[i]), failed: ids.filter((_, i) => !outcomes[i]) })}\n`,
);
process.exit(0);
