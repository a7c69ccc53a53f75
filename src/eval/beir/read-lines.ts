import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { datasetError } from "./dataset-error.js";

/** One line of a text file, without its line terminator. */
export interface NumberedLine {
  /** The line's text; a UTF-8 byte-order mark at the start of the file is removed. */
  text: string;
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  lineNumber: number;
}

/**
 * Streams a UTF-8 text file line by line (LF or CRLF), so a multi-gigabyte corpus never sits in
 * memory as one string. Read failures become a `DATASET_INVALID` error naming the file.
 */
export async function* readLines(file: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const raw of lines) {
      lineNumber += 1;
      yield { text: lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw, lineNumber };
    }
  } catch (error) {
    throw datasetError(file, undefined, `cannot be read (${String(error)}).`, error);
  } finally {
    lines.close();
    input.destroy();
  }
}
