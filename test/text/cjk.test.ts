import { describe, expect, it } from "vitest";
import { containsCjk, forEachCjkPart, MAX_SEGMENTER_INPUT, pushCjkTerms } from "../../src/text/cjk.js";
import { tokenize } from "../../src/text/tokenize.js";

/** The terms two texts have in common. */
function shared(a: string, b: string): string[] {
  const other = new Set(tokenize(b));
  return [...new Set(tokenize(a))].filter((term) => other.has(term));
}

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("containsCjk", () => {
  it("finds Han, kana, Hangul and the CJK compatibility characters", () => {
    for (const text of ["退款", "the の", "カタカナ", "ｶﾀｶﾅ", "ｰ", "환불", "㍿", "﨑"])
      expect(containsCjk(text), text).toBe(true);
  });

  it("finds none in Latin, Greek or Cyrillic text, accents and full-width Latin included", () => {
    for (const text of ["refund policy", "Café résumé", "Ελληνικά", "Привет", "ＡＢＣ １２３", "— “quoted” …"])
      expect(containsCjk(text), text).toBe(false);
  });
});

describe("forEachCjkPart", () => {
  it("hands over the CJK runs and the text between them in order, Hangul runs marked", () => {
    const parts: string[] = [];
    forEachCjkPart(
      "Okta のパスワード、환불 2024",
      (other) => parts.push(`other:${other}`),
      (run, hangul) => parts.push(`${hangul ? "hangul" : "han-kana"}:${run}`),
    );
    expect(parts).toEqual(["other:Okta ", "han-kana:のパスワード", "other:、", "hangul:환불", "other: 2024"]);
  });

  it("keeps the prolonged-sound mark inside the katakana word", () => {
    const runs: string[] = [];
    forEachCjkPart(
      "データベース",
      () => {},
      (run) => runs.push(run),
    );
    expect(runs).toEqual(["データベース"]);
  });
});

describe("pushCjkTerms", () => {
  it("gives a two-character word as itself and a longer one as itself and its bigrams", () => {
    const out: string[] = [];
    pushCjkTerms("データベース", false, true, out);
    expect(out).toEqual(["データベース", "デー", "ータ", "タベ", "ベー", "ース"]);
  });

  it("keeps a Korean word whole and adds its bigrams", () => {
    const out: string[] = [];
    pushCjkTerms("환불은", true, true, out);
    expect(out).toEqual(["환불은", "환불", "불은"]);
  });

  it("keeps stopwords when asked to", () => {
    const kept: string[] = [];
    const dropped: string[] = [];
    pushCjkTerms("ロールバックの方法", false, false, kept);
    pushCjkTerms("ロールバックの方法", false, true, dropped);
    expect(kept).toContain("の");
    expect(dropped).not.toContain("の");
  });
});

describe("tokenize on Chinese, Japanese and Korean text", () => {
  it("keeps voicing marks: ガ stays ガ, and パ, バ and ハ stay three different sounds", () => {
    expect(tokenize("ガ")).toEqual(["ガ"]);
    expect(tokenize("バス")).toEqual(["バス"]);
    expect(tokenize("パス")).toEqual(["パス"]);
    expect(shared("バス", "ハス")).toEqual([]);
    expect(shared("パス", "バス")).toEqual([]);
    expect(tokenize("バックアップ")).not.toContain("ハックアッフ");
  });

  it("turns half-width katakana into full-width, voicing marks included", () => {
    expect(tokenize("ｶﾞ")).toEqual(["ガ"]);
    expect(tokenize("ｶﾞｲﾄﾞ")).toEqual(tokenize("ガイド"));
    expect(tokenize("ﾃﾞｰﾀﾍﾞｰｽ")).toEqual(tokenize("データベース"));
  });

  it("composes a kana and a combining voicing mark into one character", () => {
    expect(tokenize("カ\u3099イト\u3099")).toEqual(tokenize("ガイド"));
  });

  it("maps full-width Latin letters and digits to ASCII terms", () => {
    expect(tokenize("ＯＫＴＡ　ログイン　２０２４")).toEqual(["okta", ...tokenize("ログイン"), "2024"]);
  });

  it("splits a Chinese question into the words a document about the answer uses", () => {
    const query = tokenize("退款需要谁审批");
    expect(query).toEqual(["退款", "需要", "审批"]);
    expect(shared("退款需要谁审批", "退款申请须经财务经理审批。")).toEqual(["退款", "审批"]);
  });

  it("joins characters the dictionary leaves single into bigrams, as in a text where it knew the word", () => {
    expect(tokenize("年假可以结转几天")).toEqual(["年假", "结转", "几天"]);
    expect(shared("年假可以结转几天", "每位员工每年未使用的年假最多可结转五天")).toEqual(["年假", "结转"]);
  });

  it("gives a Japanese question the terms of the document's wording", () => {
    expect(shared("ロールバックの方法", "本番環境のロールバック手順と方法")).toEqual([
      "ロール",
      "ロー",
      "ール",
      "バック",
      "バッ",
      "ック",
      "方法",
    ]);
    expect(shared("データベースのバックアップ", "データベースのバックアップは毎晩取得します")).toEqual(
      tokenize("データベースのバックアップ"),
    );
  });

  it("matches a Korean word with one particle to the same word with another", () => {
    expect(shared("환불은 누가 승인하나요", "환불을 승인하는 사람은 재무팀입니다")).toEqual(["환불", "승인", "인하"]);
  });

  it("drops whole-word function and question words, never characters inside a longer word", () => {
    expect(tokenize("退款的方法是什么")).toEqual(["退款", "方法"]);
    expect(tokenize("的确")).toEqual(["的确"]);
    expect(tokenize("方法は何ですか")).toEqual(["方法"]);
    expect(tokenize("退款的方法是什么", { removeStopwords: false })).toEqual(expect.arrayContaining(["的", "什么"]));
  });

  it("tokenizes the Latin words of mixed text as it does without the CJK parts", () => {
    expect(tokenize("Okta のパスワード")).toEqual(["okta", ...tokenize("パスワード")]);
    expect(tokenize("Refunds の承認は Café で")).toEqual(["refund", "承認", "cafe"]);
    expect(tokenize("退款refunds审批")).toEqual(["退款", "refund", "审批"]);
    expect(tokenize("the customer’s 退款", { stem: false })).toEqual(["customer", "退款"]);
  });

  it("treats a character beyond the Basic Multilingual Plane as one character", () => {
    const terms = tokenize("𠮷野家の牛丼");
    expect(terms).toContain("𠮷");
    expect(terms).toContain("牛丼");
    for (const term of terms) expect(term).not.toMatch(LONE_SURROGATE);
  });
});

describe("tokenize on pathological CJK input", () => {
  const MEGABYTE = 1_000_000;

  it("tokenizes a 1 MB run of Han characters without spaces into a bounded number of terms", () => {
    const text = "退款审批由财务经理负责年假可以结转几天".repeat(Math.ceil(MEGABYTE / 19)).slice(0, MEGABYTE);
    const terms = tokenize(text);
    expect(terms.length).toBeGreaterThan(0);
    expect(terms.length).toBeLessThanOrEqual(2 * text.length);
    expect(terms).toContain("退款");
  });

  it("tokenizes 1 MB of Han characters no dictionary knows in a row into about one bigram a character", () => {
    let text = "";
    for (let i = 0; i < MEGABYTE; i++) text += String.fromCharCode(0x4e00 + ((i * 7919) % 20_000));
    const terms = tokenize(text);
    expect(terms.length).toBeGreaterThan(0);
    expect(terms.length).toBeLessThanOrEqual(2 * text.length);
  });

  it("cuts a long run at fixed offsets, so that the same text always gives the same terms", () => {
    const text = "データベースのバックアップ手順".repeat(100);
    expect(text.length).toBeGreaterThan(MAX_SEGMENTER_INPUT);
    const terms = tokenize(text);
    expect(tokenize(text)).toEqual(terms);
    // A cut can fall inside a word: each one costs at most that occurrence of it.
    const cuts = Math.ceil(text.length / MAX_SEGMENTER_INPUT) - 1;
    expect(terms.filter((term) => term === "データベース").length).toBeGreaterThanOrEqual(100 - cuts);
  });

  it("never cuts a surrogate pair when a long run of characters beyond the Basic Multilingual Plane is cut", () => {
    const text = "𠮷".repeat(3 * MAX_SEGMENTER_INPUT + 1);
    const terms = tokenize(text);
    expect(terms.length).toBeLessThanOrEqual(2 * text.length);
    for (const term of terms) expect(term).not.toMatch(LONE_SURROGATE);
  });
});
