import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import LookupKnowledgeProvider, { type LookupProviderMetadata } from "../../src/eval/promptfoo/lookup-provider.js";
import { KB_DIR } from "../integration/helpers/integration-fixtures.js";

describe("the promptfoo provider over the real tool", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "provider-int-"));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("reads back exactly this call's trace line", async () => {
    const provider = new LookupKnowledgeProvider({ config: { corpusDir: KB_DIR, traceDir: join(dir, "traces") } });

    const response = await provider.callApi("refund approval limits");

    expect(response.error).toBeUndefined();
    const metadata = response.metadata as unknown as LookupProviderMetadata;
    expect(metadata.artifact.traceWritten).toBe(true);
    expect(metadata.traceLines).toEqual([expect.objectContaining({ invocation_id: metadata.artifact.invocationId })]);
  });

  it("answers with no trace lines, not an error, when the trace can no longer be written", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const traceDir = join(dir, "replaced");
    const provider = new LookupKnowledgeProvider({ config: { variant: "L0", corpusDir: KB_DIR, traceDir } });
    expect((await provider.callApi("refund approval limits")).error).toBeUndefined();
    // Someone replaces the trace folder with a file between two calls.
    await rm(traceDir, { recursive: true });
    await writeFile(traceDir, "not a folder");

    const response = await provider.callApi("refund approval limits");

    expect(response.error).toBeUndefined();
    const metadata = response.metadata as unknown as LookupProviderMetadata;
    expect(metadata.artifact.traceWritten).toBe(false);
    expect(metadata.traceLines).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
