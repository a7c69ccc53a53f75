import { describe, expect, it } from "vitest";
import {
  classifyEntry,
  LEGACY_DATA_FILES,
  isGenerationName,
  newGenerationName,
  writerMarkerName,
} from "../../src/knowledge-base/index-layout.js";

describe("the names of an index folder", () => {
  it("makes random generation names that match the generation pattern", () => {
    const names = new Set(Array.from({ length: 50 }, newGenerationName));
    expect(names.size).toBe(50);
    for (const name of names) expect(isGenerationName(name), name).toBe(true);
  });

  it.each(["gen-0123456789abcdef", "gen-ffffffffffffffff"])("takes %s for a generation folder", (name) => {
    expect(classifyEntry(name)).toEqual({ kind: "generation" });
  });

  it.each([
    "gen-notes",
    "gen-0123456789abcde",
    "gen-0123456789abcdef0",
    "gen-0123456789ABCDEF",
    "gen-0123456789abcdef/",
    "../gen-0123456789abcdef",
    "xgen-0123456789abcdef",
  ])("takes %s for someone else's entry, never a generation", (name) => {
    expect(isGenerationName(name)).toBe(false);
    expect(classifyEntry(name).kind).not.toBe("generation");
  });

  it("reads the generation and the pid out of a writer marker", () => {
    const name = writerMarkerName("gen-0123456789abcdef", 4321);
    expect(name).toBe("gen-0123456789abcdef.4321.writing");
    expect(classifyEntry(name)).toEqual({ kind: "writer", generation: "gen-0123456789abcdef", pid: 4321 });
  });

  it.each([
    "gen-0123456789abcdef.0.writing",
    "gen-0123456789abcdef.-1.writing",
    "gen-0123456789abcdef.12.writing.bak",
    "gen-notes.12.writing",
  ])("does not take %s for a writer marker", (name) => {
    expect(classifyEntry(name).kind).toBe("foreign");
  });

  it("knows the data files and the flat layout's temporaries, and nothing that merely looks like them", () => {
    for (const name of LEGACY_DATA_FILES) expect(classifyEntry(name), name).toEqual({ kind: "legacy-data" });
    expect(classifyEntry("manifest.json")).toEqual({ kind: "manifest" });
    expect(classifyEntry("chunks.json.4242.tmp")).toEqual({ kind: "legacy-temporary" });
    expect(classifyEntry("manifest.json.17.tmp")).toEqual({ kind: "legacy-temporary" });
    for (const name of [
      "chunks.json.backup",
      "chunks.json.tmp",
      "notes.4242.tmp",
      "chunks.json.42a.tmp",
      "web-manifest.json",
      "index.html",
    ]) {
      expect(classifyEntry(name), name).toEqual({ kind: "foreign" });
    }
  });
});
