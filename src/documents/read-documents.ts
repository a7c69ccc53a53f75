import { createHash } from "node:crypto";
import type { DocumentInterface } from "@langchain/core/documents";
import { errorDetail } from "../errors.js";
import { capText } from "../text/cap-text.js";
import { invalidCorpusFile, MAX_SKIP_REASON_LENGTH } from "../corpus/corpus-file-error.js";
import type { SkippedFile } from "../types.js";
import type { SourceDocument } from "./document-chunks.js";
import type { DocumentSettings } from "./document-options.js";
import { documentsOf, type DocumentSource } from "./document-source.js";
import { stableJson } from "./stable-json.js";

/** Longest source id read, in characters; a longer one skips its document. */
export const MAX_SOURCE_ID_CHARS = 1024;

/** Control characters and the format characters a terminal acts on: never in a source id, which the model and traces read. */
const NOT_TEXT = /[\u0000-\u001f\u007f-\u009f\p{Cf}]/u;

/** A checked document with the SHA-256 of its content and metadata. */
export interface HashedDocument extends SourceDocument {
  sha256: string;
}

/** What {@link readDocuments} read: the usable documents by source id (in the order given), and the skipped ones. */
export interface ReadDocuments {
  sources: Map<string, HashedDocument[]>;
  skipped: SkippedFile[];
  /** Documents read, usable or not. */
  count: number;
}

function reasonOf(error: unknown): string {
  return capText(errorDetail(error).split("\n", 1)[0], MAX_SKIP_REASON_LENGTH);
}

function sourceIdProblem(value: unknown, name: string): string | null {
  if (typeof value !== "string" || value.length === 0) return `no source id: ${name} must be a non-empty string`;
  if (value.length > MAX_SOURCE_ID_CHARS)
    return `source id too long: ${name} has ${value.length} characters, at most ${MAX_SOURCE_ID_CHARS}`;
  if (NOT_TEXT.test(value)) return `source id not plain text: ${name} holds control characters`;
  return null;
}

function whole(value: unknown, min: number): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min ? value : null;
}

/** Where a loader placed a document in its source: a PDF page (`loc.pageNumber`), a line range (`loc.lines`), a line (`line`). */
export function locationOf(metadata: Readonly<Record<string, unknown>>): { key: string; label: string } | null {
  const loc =
    typeof metadata.loc === "object" && metadata.loc !== null ? (metadata.loc as Record<string, unknown>) : {};
  const page = whole(loc.pageNumber, 0);
  if (page !== null) return { key: `page-${page}`, label: `page ${page}` };
  const lines = typeof loc.lines === "object" && loc.lines !== null ? (loc.lines as Record<string, unknown>) : {};
  const from = whole(lines.from, 1);
  const to = whole(lines.to, 1);
  if (from !== null && to !== null && to >= from) return { key: `lines-${from}-${to}`, label: `lines ${from}-${to}` };
  const line = whole(metadata.line, 1);
  if (line !== null) return { key: `line-${line}`, label: `line ${line}` };
  return null;
}

/** Gives the documents of one source their keys: their location, else `part-<n>`; a repeated key gets `.2`, `.3`, .... */
function assignKeys(documents: HashedDocument[]): void {
  if (documents.length === 1 && documents[0].label === null) return;
  const used = new Map<string, number>();
  documents.forEach((document, i) => {
    const base = document.key ?? `part-${i + 1}`;
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    document.key = seen === 0 ? base : `${base}.${seen + 1}`;
  });
}

/**
 * Reads and checks every document of `source`: a `pageContent` string within `maxDocumentChars`,
 * a metadata object that can be hashed, a source id that is short plain text. A document that
 * fails is skipped with a reason naming it (its source id and location, or its position) and never
 * quoting its content; the others are grouped by source id, each keeping the order given.
 * @throws LookupKnowledgeError `DOCUMENTS_UNREADABLE` / `INVALID_OPTION` from {@link documentsOf}.
 */
export async function readDocuments(source: DocumentSource, settings: DocumentSettings): Promise<ReadDocuments> {
  const sources = new Map<string, HashedDocument[]>();
  const skipped: SkippedFile[] = [];
  const name = settings.sourceIdKey !== null ? `metadata.${settings.sourceIdKey}` : "the sourceIdKey function's value";
  let count = 0;
  for await (const item of documentsOf(source)) {
    const position = `document ${++count}`;
    try {
      if (typeof item !== "object" || item === null)
        throw invalidCorpusFile("not a LangChain document (an object with pageContent)");
      const { pageContent, metadata = {} } = item as Partial<DocumentInterface>;
      if (typeof pageContent !== "string") throw invalidCorpusFile("pageContent must be a string");
      if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
        throw invalidCorpusFile("metadata must be an object");
      let sourceId: unknown;
      try {
        sourceId = settings.sourceIdOf(item as DocumentInterface);
      } catch (error) {
        throw invalidCorpusFile(`the sourceIdKey function threw: ${reasonOf(error)}`, error);
      }
      if (typeof sourceId === "number" && Number.isFinite(sourceId)) sourceId = String(sourceId);
      const problem = sourceIdProblem(sourceId, name);
      if (problem !== null) throw invalidCorpusFile(problem);
      const id = sourceId as string;
      const location = locationOf(metadata as Record<string, unknown>);
      const named = location !== null ? `${id}#${location.key}` : id;
      if (pageContent.length > settings.maxDocumentChars) {
        skipped.push({
          file: named,
          reason: `too large: ${pageContent.length} characters of page content, at most ${settings.maxDocumentChars} (maxDocumentChars)`,
        });
        continue;
      }
      let sha256: string;
      try {
        sha256 = createHash("sha256").update(stableJson({ pageContent, metadata })).digest("hex");
      } catch (error) {
        skipped.push({ file: named, reason: `metadata cannot be read as data: it ${reasonOf(error)}` });
        continue;
      }
      const document: HashedDocument = {
        sourceId: id,
        key: location?.key ?? null,
        label: location?.label ?? null,
        content: pageContent,
        metadata: metadata as Record<string, unknown>,
        sha256,
      };
      const list = sources.get(id);
      if (list) list.push(document);
      else sources.set(id, [document]);
    } catch (error) {
      skipped.push({ file: position, reason: reasonOf(error) });
    }
  }
  for (const documents of sources.values()) assignKeys(documents);
  return { sources, skipped, count };
}
