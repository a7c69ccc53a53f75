import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../bench/dataset/load-scifact.js";
import { portablePath } from "../../bench/report/portable-path.js";

/** Every string of a parsed JSON value, depth first. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

/** An absolute POSIX path of two segments or more, alone or inside a command line. */
const ABSOLUTE_PATH = /(^|[\s"'=])\/[\w.-]+\/[\w.-]+/;

describe("portablePath", () => {
  it("records a path relative to the repository root with forward slashes", () => {
    expect(portablePath("/home/ann/lookup-knowledge/bench/results/x.json", "/home/ann/lookup-knowledge")).toBe(
      "bench/results/x.json",
    );
    expect(portablePath("/home/ann/shared/datasets/scifact", "/home/ann/lookup-knowledge")).toBe(
      "../shared/datasets/scifact",
    );
    expect(portablePath("/home/ann/lookup-knowledge", "/home/ann/lookup-knowledge")).toBe(".");
    expect(portablePath("data/scifact", "/home/ann/lookup-knowledge")).toBe("data/scifact");
  });
});

describe("the committed bench results", () => {
  const dir = join(REPO_ROOT, "bench/results");
  const committed = readdirSync(dir).filter((name) => name.endsWith(".json") && name !== "latest.json");

  it("exist, so that the check below has files to read", () => {
    expect(committed).toEqual(expect.arrayContaining(["filtered-lookups.json", "vector-store-sizing.json"]));
  });

  it.each(committed)("%s holds no absolute machine path", (name) => {
    const paths = stringsOf(JSON.parse(readFileSync(join(dir, name), "utf8"))).filter((s) => ABSOLUTE_PATH.test(s));
    expect(paths).toEqual([]);
  });

  it("would catch one: the check finds a checkout's path", () => {
    expect(ABSOLUTE_PATH.test("/work/main/bench/results/x.json")).toBe(true);
    expect(ABSOLUTE_PATH.test("npm run bench -- --out /tmp/run")).toBe(true);
    expect(ABSOLUTE_PATH.test("23:25:51 up 13:45, load average: 1.95")).toBe(false);
  });
});
