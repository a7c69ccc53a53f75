/** Where the CLI reads Markdown from unless `--corpus` says otherwise. */
export const DEFAULT_CORPUS_DIR = "corpus";
/** Where the CLI keeps the built index unless `--index`/`--out` says otherwise. */
export const DEFAULT_INDEX_DIR = ".lookup-knowledge/index";
