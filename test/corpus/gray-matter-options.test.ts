import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { parseJsonFrontmatter, parseYamlFrontmatter } from "../../src/corpus/frontmatter-engines.js";
import { grayMatterOptions } from "../../src/corpus/gray-matter-options.js";

const CODE_LANGUAGES = ["javascript", "js", "coffee", "coffeescript", "cson", "toml"];

describe("grayMatterOptions", () => {
  it("hands out one frozen object per usual spelling, with frozen engines", () => {
    for (const language of ["", "yaml", "yml", "json"]) {
      const options = grayMatterOptions(language);
      expect(grayMatterOptions(language)).toBe(options);
      expect(Object.isFrozen(options)).toBe(true);
      expect(Object.isFrozen(options.engines)).toBe(true);
    }
  });

  it("registers the engine under the name gray-matter looks up: yaml for none, else the name as written", () => {
    expect(grayMatterOptions("").engines.yaml).toBe(parseYamlFrontmatter);
    expect(grayMatterOptions("yml").engines.yml).toBe(parseYamlFrontmatter);
    expect(grayMatterOptions("YAML").engines.YAML).toBe(parseYamlFrontmatter);
    expect(grayMatterOptions("Json").engines.Json).toBe(parseJsonFrontmatter);
  });

  it("maps each of gray-matter's code engines to a refusal in every options object", () => {
    for (const language of ["", "yaml", "json", "JSON"]) {
      const { engines } = grayMatterOptions(language);
      for (const code of CODE_LANGUAGES) {
        expect(() => engines[code]("{ a: 1 }"), `${language}/${code}`).toThrow(`frontmatter language "${code}" is not accepted`);
      }
    }
  });

  it.each(["js", "toml", "python", "constructor", "__proto__", "yaml2"])("refuses the language %s", (language) => {
    expect(() => grayMatterOptions(language)).toThrow(expect.objectContaining({ code: "CORPUS_FILE_INVALID" }));
  });

  it("is used by gray-matter without being written to, so one object can serve every file", () => {
    const options = grayMatterOptions("");

    const first = matter("---\ntitle: A\nexcerpt_separator: x\n---\nbody x\n", options);
    const second = matter("---\ntitle: B\n---\nbody\n", options);

    expect([first.data, second.data]).toEqual([{ title: "A", excerpt_separator: "x" }, { title: "B" }]);
    expect(Object.keys(options).sort()).toEqual(["engines", "excerpt"]);
  });
});
