/**
 * One hostile corpus folder: frontmatter that would run code, YAML bombs and tags, pathological
 * headings, odd line endings and encodings, symlinks in and out of the root, FIFOs, sockets,
 * unreadable files and folders that must be left out. Every case is recorded with what the build
 * must do with it, so the test asserts each one and counts what it tried.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A file the build must index; `word` appears only in it, so a lookup for it must find it. */
export interface GoodCase {
  file: string;
  word: string;
}

/** What the hostile corpus holds and what indexing it must give. */
export interface HostileCorpus {
  /** The temp folder holding the corpus, the folder outside it and the proof folder. */
  root: string;
  /** The corpus folder. */
  dir: string;
  /** World-writable folder where code from a frontmatter would leave its proof files. */
  proofDir: string;
  /** Proof files that exist only if some frontmatter was run as code. */
  proofFiles: string[];
  /** Files that must be indexed. */
  good: GoodCase[];
  /** Corpus entries that must be listed in `skipped`, with what the reason must say. */
  skipped: Record<string, RegExp>;
  /** Entries that are unreadable only for a user without root's privileges. */
  unreadable: Record<string, { reason: RegExp; good?: GoodCase }>;
  /** Files in hidden or excluded folders: never indexed, never listed. Each holds its own word. */
  ignored: GoodCase[];
  /** Every hostile entry created (files, links, pipes, sockets), counted as they were made. */
  inputsTried: number;
  /** Closes the socket listening in the corpus and removes everything. */
  cleanup(): Promise<void>;
}

/** Five YAML anchors of ten aliases each: 10^5 items if expanded. */
function aliasBomb(): string {
  const lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i <= 5; i++)
    lines.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(", ")}]`,
    );
  return lines.join("\n");
}

/** Writes the hostile corpus into a new temp folder readable by everyone. */
export async function createHostileCorpus(): Promise<HostileCorpus> {
  const root = await mkdtemp(join(tmpdir(), "lk-hostile-"));
  await chmod(root, 0o755);
  const dir = join(root, "corpus");
  const outside = join(root, "outside");
  const proofDir = join(root, "proof");
  await Promise.all([dir, outside, proofDir].map((path) => mkdir(path, { recursive: true })));
  await chmod(proofDir, 0o777);
  const proof = (name: string) => join(proofDir, `${name}.txt`);
  const proofFiles: string[] = [];
  const good: GoodCase[] = [];
  const skipped: Record<string, RegExp> = {};
  const ignored: GoodCase[] = [];
  let inputsTried = 0;

  const write = async (file: string, content: string | Uint8Array) => {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), content);
  };
  const bad = async (file: string, content: string | Uint8Array, reason: RegExp) => {
    await write(file, content);
    skipped[file] = reason;
    inputsTried++;
  };
  const fine = async (file: string, word: string, content: string) => {
    await write(file, content);
    good.push({ file, word });
    inputsTried++;
  };
  const runsCode = (name: string) => {
    proofFiles.push(proof(name));
    return `require("node:fs").writeFileSync(${JSON.stringify(proof(name))}, "ran")`;
  };

  // Frontmatter in a language other than YAML or JSON: gray-matter used to eval ---js / ---javascript.
  for (const language of ["js", "javascript", "JS", "Javascript"]) {
    await bad(
      `frontmatter/${language}-lang.md`,
      `---${language}\n{ title: (${runsCode(`lang-${language}`)}, "x") }\n---\nbody\n`,
      new RegExp(`language "${language}" is not accepted`),
    );
  }
  await bad(
    "frontmatter/js-statements.md",
    `---js\n${runsCode("js-statements")};\nmodule.exports = { title: "x" };\n---\nbody\n`,
    /language "js" is not accepted/,
  );
  await bad(
    "frontmatter/coffee-lang.md",
    `---coffee\ntitle: do -> ${runsCode("coffee")}\n---\nbody\n`,
    /language "coffee" is not accepted/,
  );
  await bad("frontmatter/cson-lang.md", `---cson\ntitle: 'x'\n---\nbody\n`, /language "cson" is not accepted/);
  await bad(
    "frontmatter/coffeescript-lang.md",
    `---coffeescript\ntitle: do -> ${runsCode("coffeescript")}\n---\nbody\n`,
    /language "coffeescript" is not accepted/,
  );
  await bad("frontmatter/toml-lang.md", `---toml\ntitle = "x"\n---\nbody\n`, /language "toml" is not accepted/);
  // A name gray-matter's engine lookup finds on every object.
  await bad(
    "frontmatter/constructor-lang.md",
    `---constructor\n{ title: (${runsCode("constructor")}, "x") }\n---\nbody\n`,
    /language "constructor" is not accepted/,
  );
  await bad(
    "frontmatter/unknown-lang.md",
    `---python\nimport os; os.system("touch ${proof("python")}")\n---\nbody\n`,
    /language "python" is not accepted/,
  );
  proofFiles.push(proof("python"));
  await bad("frontmatter/huge-lang.md", `---${"x".repeat(100_000)}\ntitle: x\n---\nbody\n`, /is not accepted/);
  // YAML that must never become objects, code or a memory blow-up.
  await bad("frontmatter/alias-bomb.md", `---\n${aliasBomb()}\ntitle: Bomb\n---\nbody\n`, /alias count/);
  await bad(
    "frontmatter/js-function-tag.md",
    `---\ntitle: !!js/function 'function () { ${runsCode("js-function")} }'\n---\nbody\n`,
    /Unresolved tag.*js\/function/,
  );
  await bad(
    "frontmatter/js-undefined-tag.md",
    "---\ntitle: !!js/undefined ''\n---\nbody\n",
    /Unresolved tag.*js\/undefined/,
  );
  await bad(
    "frontmatter/python-tag.md",
    `---\ntitle: !!python/object/apply:os.system ["touch ${proof("python-tag")}"]\n---\nbody\n`,
    /Unresolved tag.*python/,
  );
  proofFiles.push(proof("python-tag"));
  await bad("frontmatter/binary-tag.md", "---\ntitle: !!binary aGVsbG8=\n---\nbody\n", /Unresolved tag.*binary/);
  await bad("frontmatter/local-tag.md", "---\ntitle: !exec 'id'\n---\nbody\n", /Unresolved tag: !exec/);
  await bad("frontmatter/duplicate-keys.md", "---\ntitle: One\ntitle: Two\n---\nbody\n", /unique/);
  await bad("frontmatter/top-level-list.md", "---\n- title\n- domain\n---\nbody\n", /must be a mapping/);
  await bad("frontmatter/deep-nesting.md", `---\ntitle: ${"[".repeat(50_000)}\n---\nbody\n`, /^malformed frontmatter/);
  await bad(
    "frontmatter/never-closed.md",
    "---\ntitle: Open\n\n# Heading\nbody that must not be indexed\n",
    /never closed/,
  );
  // gray-matter's comment scan of a block is quadratic in a run of blank lines.
  await bad(
    "frontmatter/blank-lines-1m.md",
    `---\n${"\n".repeat(1_000_000)}title: x\n---\nbody\n`,
    /runs of thousands of blank lines/,
  );
  await bad(
    "frontmatter/closing-line-suffix.md",
    "---\ntitle: x\n----\nbody\n",
    /the line that closes it holds more than "---"/,
  );
  await fine(
    "frontmatter/excerpt-separator.md",
    "excerptword",
    "---\ntitle: Excerpt\nexcerpt_separator: { toString: x }\n---\nexcerptword body.\n",
  );
  await bad("frontmatter/wrong-type.md", "---\ntitle: [a, b]\n---\nbody\n", /"title" must be a string/);
  await fine("frontmatter/date-title.md", "dateword", "---\ntitle: 2024-01-01\n---\nNew year dateword notes.\n");
  await fine(
    "frontmatter/huge-title.md",
    "megaword",
    `---\ntitle: ${"Huge ".repeat(200_000).trim()}\n---\nA one-megabyte title over megaword text.\n`,
  );
  await fine(
    "frontmatter/proto-yaml.md",
    "protoword",
    "---\n__proto__: { polluted: yes }\nconstructor: { prototype: { polluted: yes } }\n---\nprotoword body.\n",
  );
  await fine(
    "frontmatter/proto-json.md",
    "jsonprotoword",
    '---json\n{ "__proto__": { "polluted": "yes" }, "title": "JSON" }\n---\njsonprotoword body.\n',
  );

  // Text: encodings and line endings.
  await bad(
    "text/invalid-utf8.md",
    Uint8Array.from([0x2d, 0x2d, 0x2d, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0xff, 0xfe, 0x0a]),
    /invalid UTF-8/,
  );
  await bad("text/empty.md", "", /no text/);
  await bad("text/only-frontmatter.md", "---\ntitle: Nothing\n---\n\n", /no text/);
  await fine("text/cr-only.md", "crword", "---\rtitle: CR only\r---\rIntro.\r\r## Carriage\rcrword returns only.\r");
  await fine("text/crlf.md", "crlfword", "---\r\ntitle: CRLF\r\n---\r\n## Windows\r\ncrlfword line endings.\r\n");
  await fine("text/bom.md", "bomword", "\uFEFF---\ntitle: BOM\n---\nbomword after a byte order mark.\n");

  // Headings that made the old parser backtrack for hours, and slugs that were quadratic.
  await fine(
    "headings/spaces-20k.md",
    "spaceword",
    `# ${" ".repeat(20_000)}Spaced${" ".repeat(20_000)}x\nspaceword text.\n`,
  );
  await fine(
    "headings/hashes-20k.md",
    "hashword",
    `## ${"#".repeat(20_000)} \nhashword text.\n# ${" #".repeat(10_000)}\nmore.\n`,
  );
  await fine("headings/tabs-mixed-20k.md", "tabword", `### \t${" \t#".repeat(7_000)}y\ntabword text.\n`);
  await fine("headings/line-30kb.md", "lineword", `# ${"Heading ".repeat(3_840)}\nlineword text.\n`);
  await fine(
    "headings/repeated-50k.md",
    "repeatword",
    `${"## Step\n".repeat(50_000)}repeatword after fifty thousand headings.\n`,
  );

  // Symlinks: inside the root (followed, indexed once), outside (skipped), cycles, dangling.
  await write("shared/linked-doc.md", "---\ntitle: Shared\n---\nfolderlinkword text.\n");
  await write("targets/target.md", "---\ntitle: Target\n---\nfilelinkword text.\n");
  await writeFile(join(outside, "secret.md"), "---\ntitle: Secret\n---\noutsideword text.\n");
  await mkdir(join(outside, "folder"));
  await writeFile(join(outside, "folder", "inner.md"), "---\ntitle: Inner\n---\noutsideword inner.\n");
  await mkdir(join(dir, "links"));
  const link = async (target: string, file: string) => {
    await symlink(target, join(dir, file));
    inputsTried++;
  };
  await link("../targets/target.md", "links/a-file-link.md");
  good.push({ file: "links/a-file-link.md", word: "filelinkword" });
  skipped["targets/target.md"] = /^same file as "links\/a-file-link\.md"/;
  await link("../shared", "links/b-folder-link");
  good.push({ file: "links/b-folder-link/linked-doc.md", word: "folderlinkword" });
  skipped.shared = /^same folder as "links\/b-folder-link"/;
  await link(join(outside, "secret.md"), "links/outside-file.md");
  skipped["links/outside-file.md"] = /pointing outside the corpus folder/;
  await link(join(outside, "folder"), "links/outside-folder");
  skipped["links/outside-folder"] = /folder outside the corpus folder/;
  await link("..", "links/cycle-up");
  skipped["links/cycle-up"] = /^same folder as "\."/;
  await link("self-loop.md", "links/self-loop.md");
  skipped["links/self-loop.md"] = /^broken symlink/;
  await link("missing.md", "links/dangling.md");
  skipped["links/dangling.md"] = /^broken symlink/;

  // Special files named *.md: none may block the build.
  await mkdir(join(dir, "special"));
  execFileSync("mkfifo", [join(dir, "special/x.md")]);
  skipped["special/x.md"] = /not a regular file \(a FIFO\)/;
  inputsTried++;
  await link("/dev/zero", "special/y.md");
  skipped["special/y.md"] = /pointing outside the corpus folder/;
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(join(dir, "special/socket.md"), done));
  skipped["special/socket.md"] = /not a regular file \(a socket\)/;
  inputsTried++;

  // Unreadable for anyone but root.
  await write("locked/unreadable.md", "---\ntitle: Locked\n---\nlockedword text.\n");
  await chmod(join(dir, "locked/unreadable.md"), 0o000);
  await write("locked-folder/inner.md", "---\ntitle: Locked folder\n---\nlockedfolderword text.\n");
  await chmod(join(dir, "locked-folder"), 0o000);
  inputsTried += 2;
  const unreadable = {
    "locked/unreadable.md": {
      reason: /^cannot be read: permission denied/,
      good: { file: "locked/unreadable.md", word: "lockedword" },
    },
    "locked-folder": {
      reason: /^folder cannot be read: permission denied/,
      good: { file: "locked-folder/inner.md", word: "lockedfolderword" },
    },
  };

  // Hidden and excluded folders and dot-files: silently left out.
  for (const [file, word] of [
    [".git/config.md", "gitword"],
    [".git/objects/pack.md", "gitpackword"],
    ["node_modules/pkg/README.md", "moduleword"],
    ["docs/node_modules/deep/README.md", "deepmoduleword"],
    [".hidden/secret.md", "hiddenword"],
    ["docs/.drafts/draft.md", "draftword"],
    [".dotfile.md", "dotfileword"],
  ]) {
    await write(file, `---\ntitle: Ignored\n---\n${word} text.\n`);
    ignored.push({ file, word });
    inputsTried++;
  }

  const cleanup = async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await chmod(join(dir, "locked/unreadable.md"), 0o644);
    await chmod(join(dir, "locked-folder"), 0o755);
    await rm(root, { recursive: true, force: true });
  };

  return {
    root,
    dir,
    proofDir,
    proofFiles,
    good,
    skipped,
    unreadable,
    ignored,
    inputsTried,
    cleanup,
  };
}
