import type { EditTiming } from "../tasks/document-sync-task.js";
import type { BenchReport } from "./report-model.js";
import { formatRatio, formatTable } from "./text-table.js";

const seconds = (ms: number | undefined) => (ms === undefined ? "-" : (ms / 1000).toFixed(2));

function row(label: string, edit: EditTiming | undefined, baseline: EditTiming | undefined): string[] {
  return [
    label,
    seconds(edit?.loadMs),
    seconds(edit?.applyMs),
    seconds(edit?.saveMs),
    seconds(edit?.totalMs),
    edit === undefined ? "-" : String(edit.chunksEmbedded),
    edit && baseline ? formatRatio(edit.totalMs / baseline.totalMs) : "-",
  ];
}

/** The document-sync rows: one edited source as a corpus file and as a LangChain document, side by side. Pure. */
export function syncLines(report: Pick<BenchReport, "documentSync" | "failures">): string[] {
  const sync = report.documentSync;
  const failure = report.failures.find((f) => f.step === "sync");
  if (!sync && !failure) return [];
  const size = sync?.size?.toLocaleString("en-US") ?? "?";
  const lines = [
    `one edited source at ${size} chunks (${sync?.files ?? "?"} sources of ${sync?.sectionsPerFile ?? "?"} sections; load + apply + save, s):`,
    formatTable(
      ["edit", "load", "apply", "save", "total", "chunks embedded", "total / file edit"],
      [
        row("corpus file: update({ corpusDir })", sync?.folderEdit, sync?.folderEdit),
        row("documents: syncDocuments(all, full)", sync?.syncAll, sync?.folderEdit),
        row("documents: syncDocuments([one])", sync?.syncOne, sync?.folderEdit),
      ],
    ),
  ];
  if (sync?.folderBuild && sync.documentsBuild)
    lines.push(
      `  first build + save: folder ${seconds(sync.folderBuild.totalMs)} s, documents ${seconds(sync.documentsBuild.totalMs)} s (${sync.documentsBuild.chunkCount.toLocaleString("en-US")} chunks)`,
    );
  if (sync?.syncAllCounts !== undefined)
    lines.push(
      `  counts: all ${JSON.stringify(sync.syncAllCounts)}; one ${JSON.stringify(sync.syncOneCounts ?? null)}`,
    );
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}
