/**
 * Shared setup of the integration tests: fixture paths, temp folders that are removed after the
 * file, JSONL reading, and a real `Embeddings` subclass whose queries can be made to fail.
 */
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { LookupKnowledgeError, type LookupKnowledgeErrorCode } from "../../../src/index.js";

/** Root of the repository (the working directory the CLI is spawned in). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** The clean fixture corpus: three domains with overlapping vocabulary, plus one file without a domain. */
export const KB_DIR = join(REPO_ROOT, "test/fixtures/kb");
/** Good files mixed with files the loader must skip. */
export const KB_BAD_DIR = join(REPO_ROOT, "test/fixtures/kb-bad");

/** Temp folders made by one test file; `cleanup` removes all of them. */
export function createTempDirs(prefix = "lookup-knowledge-int-") {
  const made: string[] = [];
  return {
    async make(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async cleanup(): Promise<void> {
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** Parses a JSONL file, one value per non-empty line. */
export async function readJsonl(path: string): Promise<unknown[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

/** Awaits a promise that must reject with a `LookupKnowledgeError` of `code`, and returns the error. */
export async function expectLookupError(
  promise: Promise<unknown>,
  code: LookupKnowledgeErrorCode,
): Promise<LookupKnowledgeError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LookupKnowledgeError);
  expect((error as LookupKnowledgeError).code).toBe(code);
  return error as LookupKnowledgeError;
}

/** Message of the embedding failure {@link QueryFailingEmbeddings} throws. */
export const EMBEDDING_FAILURE = "embedding service unavailable (simulated)";

/**
 * LangChain's fixed-vector fake embeddings, except that queries throw once `failQueries` is set:
 * an embedding service that indexed fine and then went down.
 */
export class QueryFailingEmbeddings extends FakeEmbeddings {
  failQueries = false;
  queryCalls = 0;

  override async embedQuery(text: string): Promise<number[]> {
    this.queryCalls += 1;
    if (this.failQueries) throw new Error(EMBEDDING_FAILURE);
    return super.embedQuery(text);
  }
}
