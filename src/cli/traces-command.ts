import { stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { DEFAULT_TRACE_PATH } from "../graph/options.js";
import { formatTraceSummary, htmlTraceSummary, parseSince, summarizeTraceFile } from "../trace/summary/index.js";
import { makeFolders } from "../make-folders.js";
import { stderrLine } from "./terminal-text.js";
import { integerValue, stringValue, usageError, type CommandSpec, type ParsedCommand } from "./command-spec.js";

const NAME = "traces";

/** `--since` as epoch milliseconds, null when absent. @throws LookupKnowledgeError `USAGE` for a value that is neither a date nor an age. */
function sinceOf(parsed: ParsedCommand): number | null {
  const raw = stringValue(parsed, "since");
  if (raw === undefined) return null;
  const since = parseSince(raw, Date.now());
  if (since === null)
    throw usageError(
      NAME,
      `--since must be an ISO date or date-time (2026-12-01, 2026-12-01T08:00Z) or an age like 24h or 7d, got "${raw}".`,
    );
  return since;
}

/** The trace file to read: the one positional after `summary`, or the default trace path. */
function fileOf(parsed: ParsedCommand): string {
  const [subcommand, file, ...extra] = parsed.positionals;
  if (subcommand !== "summary")
    throw usageError(
      NAME,
      `unknown subcommand "${subcommand ?? ""}"; the only one is summary (lookup-knowledge traces summary [FILE]).`,
    );
  if (extra.length > 0)
    throw usageError(NAME, `takes one trace FILE, got ${1 + extra.length} ("${extra[0]}" too many).`);
  return file ?? DEFAULT_TRACE_PATH;
}

/** @throws LookupKnowledgeError `USAGE` when `html` names the trace file itself (a path, a symlink or a hard link to it): writing it would destroy the trace. */
async function checkNotTrace(html: string, file: string): Promise<void> {
  const [report, trace] = await Promise.all([stat(html).catch(() => null), stat(file).catch(() => null)]);
  if (report !== null && trace !== null && report.dev === trace.dev && report.ino === trace.ino) {
    throw usageError(
      NAME,
      `--html "${html}" is the trace file "${file}" itself, and writing the report would destroy it; pass another path, such as trace-report.html.`,
    );
  }
}

/** `lookup-knowledge traces summary [FILE]`: counts, latency percentiles and the queries that found nothing, from a JSONL trace. */
export const TRACES_COMMAND: CommandSpec = {
  name: NAME,
  summary: "Summarise a JSONL trace file: lookup-knowledge traces summary [FILE].",
  details:
    "Reads the trace as a stream (any size) and prints counts by status, retrieval layer, fallback reason, relevance level and L1 status; " +
    "latency p50/p95/p99 of duration_ms and of each stage; domain-filter use (forced by the caller or hinted by L0); and the queries " +
    "asked most often that found no evidence or only low relevance. Malformed lines and a partial last line are skipped and counted.",
  positionals: [
    { name: "summary", description: "The subcommand (the only one).", required: true },
    { name: "FILE", description: `The JSONL trace file (default: ${DEFAULT_TRACE_PATH}).` },
  ],
  options: {
    since: {
      type: "string",
      value: "WHEN",
      description:
        "Only lookups started at or after WHEN: an ISO date/date-time (UTC unless it has an offset) or an age: 90m, 24h, 7d, 2w.",
    },
    top: { type: "string", value: "N", description: "Queries listed per list, 1 to 1000.", default: "10" },
    json: { type: "boolean", description: "Print the summary as JSON only." },
    html: { type: "string", value: "FILE", description: "Also write a self-contained HTML report to FILE." },
  },
  examples: [
    "lookup-knowledge traces summary",
    "lookup-knowledge traces summary traces/tool_invocation.jsonl --since 24h --json",
    "lookup-knowledge traces summary --html trace-report.html",
  ],
  async run(parsed, io) {
    const file = fileOf(parsed);
    const since = sinceOf(parsed);
    const top = integerValue(NAME, "top", stringValue(parsed, "top") ?? "10", 1, 1000);
    const html = stringValue(parsed, "html");
    if (html !== undefined && html.trim() === "") throw usageError(NAME, "--html needs a file path, got an empty one.");
    if (html !== undefined) await checkNotTrace(html, file);
    const summary = await summarizeTraceFile(file, { since, top });
    if (html !== undefined) {
      try {
        await makeFolders(dirname(html));
        await writeFile(html, htmlTraceSummary(summary, file));
      } catch (error) {
        throw new LookupKnowledgeError(
          "TRACE_UNAVAILABLE",
          `traces: cannot write the HTML report "${html}" (${errorMessage(error)}); pass a writable --html path.`,
          { cause: error },
        );
      }
    }
    io.out(
      parsed.values.json === true
        ? `${JSON.stringify({ file, ...summary }, null, 2)}\n`
        : formatTraceSummary(summary, file),
    );
    if (html !== undefined) io.err(`${stderrLine(`HTML report written to ${html}`)}\n`);
    return 0;
  },
};
