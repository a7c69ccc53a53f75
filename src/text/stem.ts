/**
 * English suffix-stripping stemmer: the Porter2 algorithm ("English Snowball"),
 * in its classic form (R1 exceptions "gener", "commun", "arsen"), which is the
 * form most search engines and NLP libraries ship.
 *
 * Written for speed on millions of tokens: no regular expressions, and the
 * steps work on char codes in one reused buffer, so a word costs one string
 * allocation at most.
 */

const LOWER_A = 97;
const LOWER_E = 101;
const LOWER_I = 105;
const LOWER_L = 108;
const LOWER_S = 115;
const LOWER_T = 116;
const LOWER_W = 119;
const LOWER_X = 120;
const LOWER_Y = 121;
const LOWER_Z = 122;
const UPPER_Y = 89;
const APOSTROPHE = 39;

/** 1 at the char code of a vowel. "Y" (a y acting as a consonant) is not a vowel. */
const VOWEL = new Uint8Array(128);
for (const c of "aeiouy") VOWEL[c.charCodeAt(0)] = 1;

/** Letters after which a "li" suffix may be removed in step 2. */
const VALID_LI = new Uint8Array(128);
for (const c of "cdeghkmnrt") VALID_LI[c.charCodeAt(0)] = 1;

/** Letters that step 1b undoubles: "hopp" -> "hop". */
const UNDOUBLE = new Uint8Array(128);
for (const c of "bdfgmnprt") UNDOUBLE[c.charCodeAt(0)] = 1;

/** Words whose stem the rules get wrong, and words the rules must leave alone. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ["skis", "ski"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["idly", "idl"],
  ["gently", "gentl"],
  ["ugly", "ugli"],
  ["early", "earli"],
  ["only", "onli"],
  ["singly", "singl"],
  ["sky", "sky"],
  ["news", "news"],
  ["howe", "howe"],
  ["atlas", "atlas"],
  ["cosmos", "cosmos"],
  ["bias", "bias"],
  ["andes", "andes"],
]);
const LONGEST_EXCEPTION = 6;

/** Words left as they are once step 1a has run (so "innings" becomes "inning", not "in"). */
const INVARIANT_AFTER_STEP_1A: ReadonlySet<string> = new Set([
  "inning",
  "outing",
  "canning",
  "herring",
  "earring",
  "proceed",
  "exceed",
  "succeed",
]);

type Codes = Uint8Array;

function codes(s: string): Codes {
  return Uint8Array.from(s, (ch) => ch.charCodeAt(0));
}

/** Prefixes after which R1 starts, so that "generous" and "general" keep "gener". */
const R1_PREFIXES: readonly Codes[] = ["gener", "commun", "arsen"].map(codes);

const SSES = codes("sses");
const IED = codes("ied");
const IES = codes("ies");
const US = codes("us");
const SS = codes("ss");
const APOSTROPHE_S_APOSTROPHE = codes("'s'");
const APOSTROPHE_S = codes("'s");
const EEDLY = codes("eedly");
const INGLY = codes("ingly");
const EDLY = codes("edly");
const EED = codes("eed");
const ING = codes("ing");
const ED = codes("ed");
const AT = codes("at");
const BL = codes("bl");
const IZ = codes("iz");

/** The extra condition a suffix rule needs besides its region. */
type Guard = "none" | "after-l" | "after-valid-li" | "after-s-or-t" | "in-r2";

interface SuffixRule {
  readonly suffix: Codes;
  readonly replacement: Codes;
  readonly guard: Guard;
}

/** Suffix rules grouped by the char code of their last letter, longest suffix first. */
type SuffixTable = readonly (readonly SuffixRule[] | undefined)[];

function suffixTable(rules: readonly [suffix: string, replacement: string, guard?: Guard][]): SuffixTable {
  const table: SuffixRule[][] = [];
  for (const [suffix, replacement, guard = "none"] of rules) {
    const last = suffix.charCodeAt(suffix.length - 1);
    (table[last] ??= []).push({ suffix: codes(suffix), replacement: codes(replacement), guard });
  }
  // Longest first, so the first rule that matches is the longest match, as the algorithm requires.
  for (const group of table) group?.sort((x, y) => y.suffix.length - x.suffix.length);
  return table;
}

const STEP_2 = suffixTable([
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["entli", "ent"],
  ["izer", "ize"],
  ["ization", "ize"],
  ["ational", "ate"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["alli", "al"],
  ["fulness", "ful"],
  ["ousli", "ous"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["bli", "ble"],
  ["ogi", "og", "after-l"],
  ["fulli", "ful"],
  ["lessli", "less"],
  ["li", "", "after-valid-li"],
]);

const STEP_3 = suffixTable([
  ["tional", "tion"],
  ["ational", "ate"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
  ["ative", "", "in-r2"],
]);

const STEP_4 = suffixTable([
  ["al", ""],
  ["ance", ""],
  ["ence", ""],
  ["er", ""],
  ["ic", ""],
  ["able", ""],
  ["ible", ""],
  ["ant", ""],
  ["ement", ""],
  ["ment", ""],
  ["ent", ""],
  ["ism", ""],
  ["ate", ""],
  ["iti", ""],
  ["ous", ""],
  ["ive", ""],
  ["ize", ""],
  ["ion", "", "after-s-or-t"],
]);

/**
 * Working buffer of char codes, reused across calls (a word never grows while
 * it is stemmed). Safe because `stem` is synchronous and never re-entered.
 */
let buffer = new Uint8Array(64);

function isVowel(code: number): boolean {
  return VOWEL[code] === 1;
}

function hasVowel(b: Codes, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (VOWEL[b[i]] === 1) return true;
  return false;
}

/** True when `b[0 .. n)` ends with `suffix`. */
function endsWith(b: Codes, n: number, suffix: Codes): boolean {
  const m = suffix.length;
  if (m > n) return false;
  for (let i = 1; i <= m; i++) if (b[n - i] !== suffix[m - i]) return false;
  return true;
}

function startsWith(b: Codes, n: number, prefix: Codes): boolean {
  if (prefix.length > n) return false;
  for (let i = 0; i < prefix.length; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

/** Index just after the first non-vowel that follows a vowel, searching from `from`; `n` if none. */
function regionStart(b: Codes, n: number, from: number): number {
  let i = from;
  while (i < n && !isVowel(b[i])) i++;
  while (i < n && isVowel(b[i])) i++;
  return i < n ? i + 1 : n;
}

function r1Start(b: Codes, n: number): number {
  for (const prefix of R1_PREFIXES) if (startsWith(b, n, prefix)) return prefix.length;
  return regionStart(b, n, 0);
}

/**
 * True when `b[0 .. end)` finishes with a short syllable: non-vowel, vowel,
 * non-vowel other than w, x or Y; or, for a two-letter stem, vowel then
 * non-vowel.
 */
function endsWithShortSyllable(b: Codes, end: number): boolean {
  if (end === 2) return isVowel(b[0]) && !isVowel(b[1]);
  if (end < 3) return false;
  const c = b[end - 1];
  return !isVowel(c) && c !== LOWER_W && c !== LOWER_X && c !== UPPER_Y && isVowel(b[end - 2]) && !isVowel(b[end - 3]);
}

/**
 * Replaces the longest suffix of `b[0 .. n)` found in `table`, provided it
 * starts at or after `region` and its guard holds; returns the new length. A
 * longest match that fails its conditions blocks shorter ones, as in the
 * reference algorithm.
 */
function replaceSuffix(b: Codes, n: number, table: SuffixTable, region: number, r2: number): number {
  const group = table[b[n - 1]];
  if (group === undefined) return n;
  for (let r = 0; r < group.length; r++) {
    const rule = group[r];
    if (!endsWith(b, n, rule.suffix)) continue;
    const start = n - rule.suffix.length;
    if (start < region || !guardHolds(rule.guard, b, start, r2)) return n;
    const replacement = rule.replacement;
    // A plain loop: TypedArray#set costs more than it saves on two or three bytes.
    for (let i = 0; i < replacement.length; i++) b[start + i] = replacement[i];
    return start + replacement.length;
  }
  return n;
}

function guardHolds(guard: Guard, b: Codes, start: number, r2: number): boolean {
  switch (guard) {
    case "none":
      return true;
    case "after-l":
      return start > 0 && b[start - 1] === LOWER_L;
    case "after-valid-li":
      return start > 0 && VALID_LI[b[start - 1]] === 1;
    case "after-s-or-t":
      return start > 0 && (b[start - 1] === LOWER_S || b[start - 1] === LOWER_T);
    case "in-r2":
      return start >= r2;
  }
}

/** Step 0 and step 1a: apostrophe endings, then plural endings. Every rewrite here is a truncation. */
function step1a(b: Codes, n: number): number {
  if (endsWith(b, n, APOSTROPHE_S_APOSTROPHE)) n -= 3;
  else if (endsWith(b, n, APOSTROPHE_S)) n -= 2;
  else if (n > 0 && b[n - 1] === APOSTROPHE) n -= 1;
  if (endsWith(b, n, SSES)) return n - 2;
  // "cries" -> "cri", but "ties" -> "tie": one letter before the suffix keeps the e.
  if (endsWith(b, n, IED) || endsWith(b, n, IES)) return n > 4 ? n - 2 : n - 1;
  if (endsWith(b, n, US) || endsWith(b, n, SS)) return n;
  // "gaps" -> "gap" but "gas" stays: a vowel must come before the letter preceding the s.
  if (n > 0 && b[n - 1] === LOWER_S && hasVowel(b, 0, n - 2)) return n - 1;
  return n;
}

/** Step 1b: "-eed", "-ed", "-ing" and their "-ly" forms. */
function step1b(b: Codes, n: number, p1: number): number {
  let cut: number;
  if (endsWith(b, n, EEDLY)) return n - 5 >= p1 ? n - 3 : n;
  if (endsWith(b, n, INGLY)) cut = 5;
  else if (endsWith(b, n, EDLY)) cut = 4;
  else if (endsWith(b, n, EED)) return n - 3 >= p1 ? n - 1 : n;
  else if (endsWith(b, n, ING)) cut = 3;
  else if (endsWith(b, n, ED)) cut = 2;
  else return n;
  const s = n - cut;
  if (!hasVowel(b, 0, s)) return n;
  if (endsWith(b, s, AT) || endsWith(b, s, BL) || endsWith(b, s, IZ)) {
    b[s] = LOWER_E;
    return s + 1;
  }
  if (s >= 2 && b[s - 1] === b[s - 2] && UNDOUBLE[b[s - 1]] === 1) return s - 1;
  if (p1 >= s && endsWithShortSyllable(b, s)) {
    b[s] = LOWER_E;
    return s + 1;
  }
  return s;
}

/** Step 1c: final y after a non-vowel (not the first letter) becomes i: "cry" -> "cri", "by" stays. */
function step1c(b: Codes, n: number): void {
  const c = b[n - 1];
  if ((c === LOWER_Y || c === UPPER_Y) && n > 2 && !isVowel(b[n - 2])) b[n - 1] = LOWER_I;
}

/** Step 5: a final e, or the second l of a final "ll". */
function step5(b: Codes, n: number, p1: number, p2: number): number {
  const start = n - 1;
  const last = b[start];
  if (last === LOWER_E) {
    if (start >= p2 || (start >= p1 && !endsWithShortSyllable(b, start))) return start;
  } else if (last === LOWER_L) {
    if (start >= p2 && b[start - 1] === LOWER_L) return start;
  }
  return n;
}

/** The stem in `b[0 .. n)` as a string, sharing the unchanged prefix of `source` (read from `offset`). */
function toStemString(b: Codes, n: number, source: string, offset: number): string {
  let same = 0;
  while (same < n && b[same] === source.charCodeAt(offset + same)) same++;
  if (same === n) return offset === 0 && n === source.length ? source : source.slice(offset, offset + n);
  let out = source.slice(offset, offset + same);
  for (let i = same; i < n; i++) out += String.fromCharCode(b[i]);
  return out;
}

/**
 * Reduces an English word to its stem with the Porter2 ("English Snowball")
 * algorithm, so that "refunds", "refunded" and "refunding" all become
 * "refund", and "generously" becomes "generous".
 *
 * Expects a lower-cased word, as `tokenize` produces. Words of two letters or
 * fewer, and words holding anything other than a-z and apostrophes (numbers,
 * other scripts, upper case), are returned unchanged. Deterministic: the
 * result depends on the word alone.
 *
 * @example
 * stem("running"); // "run"
 * stem("relational"); // "relat"
 */
export function stem(word: string): string {
  const length = word.length;
  if (length <= 2) return word;
  if (length > buffer.length) buffer = new Uint8Array(Math.max(length, buffer.length * 2));
  const b = buffer;
  // A leading apostrophe is dropped ("'tis" -> "tis").
  const offset = word.charCodeAt(0) === APOSTROPHE ? 1 : 0;
  let n = 0;
  for (let i = offset; i < length; i++) {
    const c = word.charCodeAt(i);
    if ((c < LOWER_A || c > LOWER_Z) && c !== APOSTROPHE) return word;
    // A y that is word-initial or follows a vowel acts as a consonant: mark it "Y".
    b[n] = c === LOWER_Y && (n === 0 || isVowel(b[n - 1])) ? UPPER_Y : c;
    n++;
  }
  if (length <= LONGEST_EXCEPTION) {
    const exception = EXCEPTIONS.get(word);
    if (exception !== undefined) return exception;
  }
  if (n <= 2) return word.slice(offset);

  const p1 = r1Start(b, n);
  const p2 = regionStart(b, n, p1);

  n = step1a(b, n);
  if ((n === 6 || n === 7) && INVARIANT_AFTER_STEP_1A.has(word.slice(offset, offset + n))) {
    return word.slice(offset, offset + n);
  }
  if (n === 0) return "";
  n = step1b(b, n, p1);
  step1c(b, n);
  n = replaceSuffix(b, n, STEP_2, p1, p2);
  n = replaceSuffix(b, n, STEP_3, p1, p2);
  n = replaceSuffix(b, n, STEP_4, p2, p2);
  n = step5(b, n, p1, p2);
  for (let i = 0; i < n; i++) if (b[i] === UPPER_Y) b[i] = LOWER_Y;
  return toStemString(b, n, word, offset);
}
