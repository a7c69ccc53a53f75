export { MAX_SHOWN_CHARS, shownJson, shownValue } from "../../shown-value.js";
