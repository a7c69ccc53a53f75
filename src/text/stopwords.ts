/** A short English stopword list: function words only, so that domain words such as "access" or "freeze" survive. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have having he her hers him his how " +
    "i if in into is it its itself me my of on or our ours she should so than that the their theirs them then there these they " +
    "this those through to too very was we were what when where which while who whom why will with would you your yours"
  ).split(" "),
);

/**
 * Chinese, Japanese and Korean function and question words, the counterpart of
 * {@link ENGLISH_STOPWORDS}: particles, copulas, pronouns, demonstratives and question words.
 * They are matched against whole words (a segment of a Han or kana run, a space-separated Korean
 * word), never against a character inside a longer word, so 方法 survives 方 and 的确 survives 的.
 * Chinese in simplified and traditional forms.
 */
export const CJK_STOPWORDS: ReadonlySet<string> = new Set(
  // Chinese
  (
    "的 了 着 过 是 在 有 和 与 及 或 而 也 都 就 把 被 由 给 对 从 向 为 以 之 其 此 这 那 哪 谁 啥 吗 呢 吧 啊 呀 " +
    "我 你 您 他 她 它 我们 你们 他们 什么 怎么 怎样 如何 为什么 哪些 哪个 哪里 多少 可以 能 会 个 这个 那个 " +
    "著 過 與 對 從 為 這 誰 嗎 們 什麼 怎麼 怎樣 為什麼 哪個 哪裡 會 個 這個 那個 " +
    // Japanese
    "の は が を に へ と で も や か な ね よ わ だ た て し です ます でし ませ する して した します される いる ある あり なる " +
    "から まで より など この その あの どの これ それ あれ どれ ここ そこ どこ こと もの ため よう 何 なに なん どう どうして " +
    "どうやって なぜ いつ だれ どんな ください " +
    // Korean
    "및 등 또는 그리고 그 이 저 것 수 더 어떻게 무엇 무슨 누가 누구 왜 언제 어디 어느"
  ).split(" "),
);
