import { describe, expect, it } from "vitest";
import { environmentErrno, shouldRebuild } from "../../src/cli/rebuild-decision.js";
import { indexUnusable, LookupKnowledgeError, type LookupKnowledgeErrorCode } from "../../src/errors.js";

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe("whether index rebuilds after an error", () => {
  it.each<LookupKnowledgeErrorCode>(["INDEX_NOT_FOUND", "INDEX_CORRUPT", "INDEX_MISMATCH", "EMBEDDINGS_REQUIRED"])(
    "rebuilds an index whose load failed with %s",
    (code) => {
      expect(shouldRebuild(new LookupKnowledgeError(code, "x"), "load")).toBe(true);
    },
  );

  it.each<LookupKnowledgeErrorCode>(["INVALID_OPTION", "INDEX_CORRUPT"])(
    "rebuilds an index whose update failed with %s",
    (code) => {
      expect(shouldRebuild(new LookupKnowledgeError(code, "x"), "update")).toBe(true);
    },
  );

  it.each<LookupKnowledgeErrorCode>([
    "SCRATCH_UNAVAILABLE",
    "INDEX_LOCKED",
    "INDEX_CHANGED",
    "INDEX_WRITE_FAILED",
    "VECTOR_STORE_REQUIRED",
    "VECTOR_STORE_FAILED",
    "EMBEDDINGS_FAILED",
  ])("reports %s instead of rebuilding", (code) => {
    expect(shouldRebuild(new LookupKnowledgeError(code, "x"), "load")).toBe(false);
    expect(shouldRebuild(new LookupKnowledgeError(code, "x"), "update")).toBe(false);
  });

  it.each(["EACCES", "EPERM", "ENOSPC", "EMFILE", "ENFILE", "EIO"])(
    "reports an unreadable file (%s) instead of taking the index for damaged",
    (code) => {
      expect(shouldRebuild(indexUnusable("idx", "file bm25.bin cannot be read", errno(code)), "load")).toBe(false);
    },
  );

  it("rebuilds when a data file is missing (ENOENT): the index is damaged", () => {
    expect(shouldRebuild(indexUnusable("idx", "file bm25.bin is missing", errno("ENOENT")), "load")).toBe(true);
  });

  it("never rebuilds after an error that is not the package's own", () => {
    expect(shouldRebuild(new Error("boom"), "load")).toBe(false);
  });

  it("finds an errno deep in a cause chain, and none in plain errors", () => {
    const deep = new Error("outer", { cause: new Error("middle", { cause: errno("EMFILE") }) });
    expect(environmentErrno(deep)).toBe("EMFILE");
    expect(environmentErrno(new Error("plain"))).toBeNull();
    expect(environmentErrno(null)).toBeNull();
  });
});
