/** The characters of `\s` in a JavaScript regular expression, by UTF-16 code unit. */
export function isRegExpSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** A line feed or a carriage return. */
export function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}
