/**
 * `value` as plain JSON data. Chunks of a loaded index read their text through a getter of their
 * class (see `src/knowledge-base/stored-chunks.ts`), which `toEqual` does not look at; their
 * `toJSON` gives the text, so loaded and built chunks compare by what they hold.
 */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
