import { describe, expect, it } from "vitest";
import { pinnedSslMode } from "../../../src/l1/vector-store/pg-ssl-mode.js";

const BASE = "postgresql://app:secret@db.internal:5432/knowledge";

describe("pinnedSslMode", () => {
  it("writes the modes pg 8 takes for verify-full as verify-full, keeping every other parameter", () => {
    for (const mode of ["prefer", "require", "verify-ca"])
      expect(pinnedSslMode(`${BASE}?sslmode=${mode}&sslrootcert=/etc/ca.pem`)).toBe(
        `${BASE}?sslmode=verify-full&sslrootcert=/etc/ca.pem`,
      );
    expect(pinnedSslMode(`${BASE}?application_name=kb&sslmode=require`)).toBe(
      `${BASE}?application_name=kb&sslmode=verify-full`,
    );
  });

  it("leaves the other modes, libpq's meanings chosen with uselibpqcompat=true, and strings without a mode as they are", () => {
    for (const url of [
      BASE,
      `${BASE}?sslmode=disable`,
      `${BASE}?sslmode=verify-full`,
      `${BASE}?sslmode=no-verify`,
      `${BASE}?uselibpqcompat=true&sslmode=require`,
      `${BASE}?sslmode=requirex`,
      "postgresql://app:sslmode=require@db/knowledge",
      "/var/run/postgresql knowledge",
    ])
      expect(pinnedSslMode(url)).toBe(url);
  });
});
