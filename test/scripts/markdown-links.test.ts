import { describe, expect, it } from "vitest";
import {
  extractLinks,
  headingSlug,
  linkKind,
  pageAnchors,
  splitTarget,
} from "../../scripts/package-check/markdown-links.js";

describe("extractLinks", () => {
  it("finds inline links, images, reference definitions and HTML hrefs with their lines", () => {
    const page = [
      'See [the CLI](docs/cli.md#query) and ![plot](docs/plot.png "a title").',
      "[`examples/`](examples/README.md) and [spaced](<docs/a b.md>)",
      "[ref]: docs/trace.md",
      '<a href="DESIGN.md">design</a>',
    ].join("\n");
    expect(extractLinks(page)).toEqual([
      { target: "docs/cli.md#query", line: 1 },
      { target: "docs/plot.png", line: 1 },
      { target: "examples/README.md", line: 2 },
      { target: "docs/a b.md", line: 2 },
      { target: "docs/trace.md", line: 3 },
      { target: "DESIGN.md", line: 4 },
    ]);
  });

  it("ignores links inside fenced code blocks and code spans", () => {
    const page = [
      "```md",
      "[in a fence](missing.md)",
      "```",
      "Text `[in a span](missing.md)` [real](real.md)",
      "~~~",
      "[x](y.md)",
      "~~~",
    ].join("\n");
    expect(extractLinks(page)).toEqual([{ target: "real.md", line: 4 }]);
  });
});

describe("headingSlug", () => {
  it("makes the anchors a package page gives headings", () => {
    expect(headingSlug("`lookup-knowledge index --watch`")).toBe("lookup-knowledge-index---watch");
    expect(headingSlug("Speed under selective filters")).toBe("speed-under-selective-filters");
    expect(headingSlug("What's new? (0.1.0)")).toBe("whats-new-010");
    expect(headingSlug("The [index](x.md) folder")).toBe("the-index-folder");
    expect(headingSlug("snake_case names")).toBe("snake_case-names");
  });
});

describe("pageAnchors", () => {
  it("numbers repeated headings, skips headings in code and adds HTML ids", () => {
    const page = [
      "# Setup",
      "## Setup",
      "```",
      "# Not a heading",
      "```",
      '<a id="custom"></a>',
      "### Options ###",
    ].join("\n");
    expect([...pageAnchors(page)].sort()).toEqual(["custom", "options", "setup", "setup-1"]);
  });
});

describe("linkKind and splitTarget", () => {
  it("tells in-page, relative, absolute and other links apart", () => {
    expect(linkKind("#options")).toBe("anchor");
    expect(linkKind("docs/cli.md")).toBe("relative");
    expect(linkKind("HTTPS://example.org")).toBe("absolute");
    expect(linkKind("mailto:someone@example.org")).toBe("other");
  });

  it("splits a relative link into its decoded path and anchor", () => {
    expect(splitTarget("docs/a%20b.md?x=1#The%20part")).toEqual({ path: "docs/a b.md", anchor: "The part" });
    expect(splitTarget("#only")).toEqual({ path: "", anchor: "only" });
    expect(splitTarget("docs/")).toEqual({ path: "docs/", anchor: null });
  });
});
