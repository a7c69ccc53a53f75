/** The offline default embedder (corpus-trained LSA), its persistence and its refit rule. */
export { LsaEmbeddings, type LsaEmbeddingsOptions } from "./lsa-embeddings.js";
export { DEFAULT_MAX_FIT_DOCUMENTS } from "./lsa-fit.js";
export {
  LSA_DRIFT_DEFAULTS,
  lsaRefitNeeded,
  type LsaDriftInput,
  type LsaDriftOptions,
  type LsaRefitDecision,
} from "./lsa-drift.js";
export { LSA_MODEL_FILE, LSA_MODEL_VERSION, LSA_PROJECTION_FILE, type LsaModelHeader } from "./lsa-model-header.js";
