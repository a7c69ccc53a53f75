/** A short English stopword list: function words only, so that domain words such as "access" or "freeze" survive. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have having he her hers him his how " +
    "i if in into is it its itself me my of on or our ours she should so than that the their theirs them then there these they " +
    "this those through to too very was we were what when where which while who whom why will with would you your yours"
  ).split(" "),
);
