import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import type { CliIO, ParsedCommand } from "./command-spec.js";
import { openCliVectorStore } from "./pgvector-flags.js";

/** Bytes of the data files the manifest of `dir` lists (its committed generation), for the summary. */
async function dataBytes(dir: string): Promise<{ files: number; bytes: number; crc32: boolean }> {
  const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
    generation: string;
    checksums: Record<string, string>;
    crc32?: Record<string, string>;
  };
  const sizes = await Promise.all(
    Object.keys(manifest.checksums).map(async (name) => (await stat(join(dir, manifest.generation, name))).size),
  );
  return {
    files: sizes.length,
    bytes: sizes.reduce((sum, size) => sum + size, 0),
    crc32: manifest.crc32 !== undefined,
  };
}

/**
 * Runs `lookup-knowledge verify`: a load that checks both checksums of every data file, then every
 * chunk's text inflated. Damage is thrown as the load's `INDEX_CORRUPT` error (exit 1).
 */
export async function runVerify({ values }: ParsedCommand, io: CliIO): Promise<number> {
  const dir = String(values.index);
  const started = performance.now();
  const store = await openCliVectorStore(values);
  try {
    const kb = await KnowledgeBase.load(dir, {
      verify: true,
      ...(store.vectorStore ? { vectorStore: store.vectorStore, localVectors: true } : {}),
    });
    let characters = 0;
    for (const chunk of kb.chunks) characters += chunk.content.length;
    const { files, bytes, crc32 } = await dataBytes(dir);
    const sums = crc32 ? "SHA-256 and CRC-32" : "SHA-256 (saved before CRC-32s were recorded)";
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    io.out(
      `${dir} is whole: generation ${kb.generation ?? "?"}, ${files} data files (${(bytes / 2 ** 20).toFixed(1)} MiB) match their ${sums}; ${kb.chunks.length} chunks (${characters} characters of text) decode; checked in ${seconds} s.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
