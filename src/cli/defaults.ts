/** Where the CLI reads Markdown from unless `--corpus` says otherwise. */
export const DEFAULT_CORPUS_DIR = "corpus";
/** Where the CLI keeps the built index unless `--index`/`--out` says otherwise. */
export const DEFAULT_INDEX_DIR = ".lookup-knowledge/index";

/** How long an `index` run waits for another writer's lock unless `--lock-wait` says otherwise, in seconds. */
export const DEFAULT_LOCK_WAIT_SECONDS = 60;
