import { describe, expect, it } from "vitest";
import {
  MAX_METADATA_FIELD_CHARS,
  MAX_METADATA_LIST_ITEMS,
  metaOfMetadata,
} from "../../src/documents/document-meta.js";
import { DEFAULT_DOCUMENT_OPTIONS, resolveDocumentOptions } from "../../src/documents/document-options.js";
import { errorDetail, LookupKnowledgeError } from "../../src/errors.js";

const fields = DEFAULT_DOCUMENT_OPTIONS.metadataFields;

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("CORPUS_FILE_INVALID");
    return errorDetail(error);
  }
  throw new Error("expected a CORPUS_FILE_INVALID error");
}

describe("metaOfMetadata", () => {
  it("reads the default keys, with category and tags as aliases, and ignores other metadata", () => {
    expect(
      metaOfMetadata(
        {
          source: "a.pdf",
          title: "Refunds",
          category: "Billing",
          tags: "refund, money",
          entities: ["Stripe"],
          aliases: [],
          access: ["finance"],
          pdf: { version: "1.7" },
        },
        fields,
      ),
    ).toEqual({
      title: "Refunds",
      domain: "billing",
      keywords: ["refund", "money"],
      entities: ["Stripe"],
      aliases: [],
      access: ["finance"],
    });
  });

  it("reads the keys a mapping names, the first present winning", () => {
    const mapped = resolveDocumentOptions({
      metadataFields: { keywords: ["labels", "keywords"], access: ["groups"] },
    }).metadataFields;
    expect(metaOfMetadata({ labels: ["a"], keywords: ["b"], groups: "hr" }, mapped)).toMatchObject({
      keywords: ["a"],
      access: ["hr"],
    });
    expect(metaOfMetadata({ keywords: ["b"] }, mapped).keywords).toEqual(["b"]);
    // The default key is no longer read once a mapping replaces it.
    expect(metaOfMetadata({ access: ["hr"] }, mapped).access).toBeUndefined();
  });

  it("lets metadata win over the document's frontmatter, field by field, aliases included", () => {
    const meta = metaOfMetadata({ domain: "it", keywords: ["meta"] }, fields, {
      title: "From frontmatter",
      category: "hr",
      tags: ["fm"],
    });
    expect(meta).toMatchObject({ title: "From frontmatter", domain: "it", keywords: ["meta"] });
  });

  it("names the metadata key of a field with the wrong type", () => {
    expect(reasonOf(() => metaOfMetadata({ title: { text: "x" } }, fields))).toBe(
      'metadata field "title" must be a string, got object',
    );
    const mapped = resolveDocumentOptions({ metadataFields: { keywords: ["labels"] } }).metadataFields;
    expect(reasonOf(() => metaOfMetadata({ labels: [1, { a: 1 }] }, mapped))).toMatch(
      /^metadata field "labels" must be a list of strings/,
    );
    expect(reasonOf(() => metaOfMetadata({}, fields, { title: ["x"] }))).toMatch(
      /^frontmatter field "title" must be a string/,
    );
  });

  it("refuses an oversized field or list, naming it", () => {
    expect(reasonOf(() => metaOfMetadata({ title: "t".repeat(MAX_METADATA_FIELD_CHARS + 1) }, fields))).toMatch(
      /^metadata field "title" holds 65537 characters/,
    );
    expect(
      reasonOf(() =>
        metaOfMetadata({ keywords: Array.from({ length: MAX_METADATA_LIST_ITEMS + 1 }, (_, i) => `k${i}`) }, fields),
      ),
    ).toMatch(/^metadata field "keywords" has 1001 items/);
  });

  it("fails closed on a present but empty access field", () => {
    expect(metaOfMetadata({ access: null }, fields).access).toEqual([]);
    expect(metaOfMetadata({ access: [] }, fields).access).toEqual([]);
  });
});

describe("resolveDocumentOptions", () => {
  it("applies the documented defaults", () => {
    const settings = resolveDocumentOptions();
    expect(settings).toMatchObject({
      sourceIdKey: "source",
      contentFormat: "auto",
      splitter: null,
      maxChunkChars: 2000,
      maxDocumentChars: 64 * 1024 * 1024,
    });
    expect(settings.sourceIdOf({ pageContent: "", metadata: { source: "a.md" } })).toBe("a.md");
  });

  it("refuses bad options with INVALID_OPTION naming the option", () => {
    const bad = [
      { sourceIdKey: "" },
      { metadataFields: { summary: ["s"] } },
      { metadataFields: { title: "title" } },
      { contentFormat: "pdf" },
      { splitter: {} },
      { maxChunkChars: 0 },
      { maxDocumentChars: 1.5 },
    ];
    for (const options of bad) {
      expect(() => resolveDocumentOptions(options as never), JSON.stringify(options)).toThrow(LookupKnowledgeError);
    }
    expect(() => resolveDocumentOptions({ metadataFields: { summary: ["s"] } } as never)).toThrow(
      /metadataFields\.summary is not a field/,
    );
  });
});
