import { open } from "node:fs/promises";
import { errorMessage, LookupKnowledgeError } from "../errors.js";

/** Where `index --documents` reads its JSONL from: a file, or stdin for `-`. */
export interface DocumentsInput {
  /** How messages name it: the path as given, or `stdin`. */
  name: string;
  /**
   * The bytes, from the start. A file can be read again (a sync that turns out to need a rebuild);
   * stdin only once.
   * @throws LookupKnowledgeError `DOCUMENTS_UNREADABLE` when it cannot be read (again).
   */
  open(): Promise<AsyncIterable<Uint8Array | string>>;
  /** Closes the file opened ahead when it was never read. */
  close(): Promise<void>;
}

function unreadable(name: string, why: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "DOCUMENTS_UNREADABLE",
    `cannot read the documents of --documents ${JSON.stringify(name)}: ${why}; pass a JSONL file, or - for stdin.`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The input `--documents` names; a file is opened at once, so that a missing one fails before the
 * index is locked or touched.
 * @throws LookupKnowledgeError `DOCUMENTS_UNREADABLE` for a file that is missing, unreadable or a folder.
 */
export async function documentsInput(
  path: string,
  stdin: AsyncIterable<Uint8Array | string> = process.stdin,
): Promise<DocumentsInput> {
  if (path === "-") {
    let read = false;
    return {
      name: "stdin",
      open: async () => {
        if (read) throw unreadable("-", "stdin was read already; run again with --full to rebuild from the documents");
        read = true;
        return stdin;
      },
      close: async () => {},
    };
  }
  const openFile = async () => {
    let handle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      throw unreadable(path, (error as NodeJS.ErrnoException).code ?? errorMessage(error), error);
    }
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      throw unreadable(path, "it is a folder");
    }
    return handle;
  };
  let first: Awaited<ReturnType<typeof openFile>> | null = await openFile();
  return {
    name: path,
    open: async () => {
      const handle = first ?? (await openFile());
      first = null;
      return handle.createReadStream();
    },
    close: async () => {
      await first?.close();
      first = null;
    },
  };
}
