/** The benchmark's seeded PRNG is the library's own (`mulberry32`), so copies are reproducible everywhere. */
export { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
