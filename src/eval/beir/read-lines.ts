import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { Transform, type TransformCallback } from "node:stream";
import { datasetError } from "./dataset-error.js";

/** Longest line read (in UTF-16 code units, about bytes for Latin text): a BEIR row is a few KiB; a file of one endless line (`/dev/zero`) must not fill memory. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/** Passes text through and fails as soon as a line grows past `max` characters. */
function lineLengthGuard(max: number): Transform {
  let current = 0;
  return new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding: BufferEncoding, done: TransformCallback) {
      const tooLong = () => done(new Error(`a line is longer than ${max} characters`));
      let start = 0;
      for (let next = chunk.indexOf("\n"); next >= 0; next = chunk.indexOf("\n", start)) {
        if (current + next - start > max) return tooLong();
        current = 0;
        start = next + 1;
      }
      current += chunk.length - start;
      return current > max ? tooLong() : done(null, chunk);
    },
  });
}

/** One line of a text file, without its line terminator. */
export interface NumberedLine {
  /** The line's text; a UTF-8 byte-order mark at the start of the file is removed. */
  text: string;
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  lineNumber: number;
}

/**
 * Streams a UTF-8 text file line by line (LF or CRLF), so a multi-gigabyte corpus never sits in
 * memory as one string, and no line longer than `maxLineChars` is held. Read failures and
 * over-long lines become a `DATASET_INVALID` error naming the file.
 */
export async function* readLines(file: string, maxLineChars: number = MAX_LINE_CHARS): AsyncGenerator<NumberedLine> {
  const source = createReadStream(file, { encoding: "utf8" });
  const input = source.pipe(lineLengthGuard(maxLineChars));
  source.on("error", (error) => input.destroy(error));
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
    source.destroy();
  }
}
