import { describe, expect, it } from "vitest";
import { checkedVector, vectorProblem } from "../../src/l1/check-vector.js";

describe("vectorProblem", () => {
  it("accepts an array of finite numbers of the index's length", () => {
    expect(vectorProblem([0.1, -0.2, 0], 3)).toBeNull();
  });

  it("accepts typed arrays", () => {
    expect(vectorProblem(Float32Array.of(1, 2), 2)).toBeNull();
    expect(vectorProblem(Float64Array.of(1, 2), 2)).toBeNull();
  });

  it.each([
    ["null elements", [null, 1], /null at position 0/],
    ["undefined elements", [1, undefined], /undefined at position 1/],
    ["string elements", ["0.1", 1], /a string at position 0/],
    ["NaN", [1, Number.NaN], /NaN at position 1/],
    ["Infinity", [Number.POSITIVE_INFINITY, 1], /Infinity at position 0/],
    ["holes", new Array(2), /undefined at position 0/],
    ["all zeros", [0, 0], /all zeros/],
    ["a short vector", [1], /1 dimensions but the index has 2/],
    ["a long vector", [1, 2, 3], /3 dimensions but the index has 2/],
    ["null", null, /is null/],
    ["a string", "1,2", /is a string/],
    ["an object", { length: 2, 0: 1, 1: 2 }, /is an object/],
    ["a DataView", new DataView(new ArrayBuffer(8)), /is an object/],
    ["bigints", [1n, 2n], /bigint at position 0/],
  ])("names %s", (_name, value, message) => {
    expect(vectorProblem(value, 2)).toMatch(message);
  });

  it("accepts any length of at least one when no dimension is known yet", () => {
    expect(vectorProblem([1, 2, 3, 4], null)).toBeNull();
    expect(vectorProblem([], null)).toMatch(/empty/);
  });
});

describe("checkedVector", () => {
  it("returns a plain array copy of a usable typed array", () => {
    const vector = checkedVector(Float32Array.of(0.5, 0.25), 2);
    expect(Array.isArray(vector)).toBe(true);
    expect(vector).toEqual([0.5, 0.25]);
  });

  it("returns the elements as first read, whatever a proxy answers later", () => {
    const seen = new Set<PropertyKey>();
    const proxy = new Proxy([0.5, 0.25], {
      get: (target, key) =>
        seen.has(key) && /^\d$/.test(String(key)) ? "x" : (seen.add(key), Reflect.get(target, key)),
    });
    expect(checkedVector(proxy, 2)).toEqual([0.5, 0.25]);
  });

  it("reports a vector whose reading throws instead of throwing", () => {
    const { proxy, revoke } = Proxy.revocable([1, 2], {});
    revoke();
    expect(checkedVector(proxy, 2)).toMatch(/cannot be read/);
    const throwing = new Proxy([1, 2], {
      get: (target, key) =>
        key === "length"
          ? (() => {
              throw new Error("boom");
            })()
          : Reflect.get(target, key),
    });
    expect(checkedVector(throwing, 2)).toMatch(/cannot be read \(boom\)/);
  });

  it("judges finiteness and zeros as hnswlib stores them, in 32-bit floats", () => {
    expect(checkedVector([1e300, 0], 2)).toMatch(/beyond the range of a 32-bit float/);
    expect(checkedVector([1e-320, 0], 2)).toMatch(/all zeros/);
  });

  it("returns the problem of an unusable vector", () => {
    expect(checkedVector([Number.NaN, 1], 2)).toMatch(/NaN/);
  });
});
