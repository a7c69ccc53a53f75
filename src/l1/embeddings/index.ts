/** The offline default embedder (corpus-trained LSA) and its persistence. */
export { LsaEmbeddings, type LsaEmbeddingsOptions } from "./lsa-embeddings.js";
export { LSA_MODEL_FILE, LSA_MODEL_VERSION, LSA_PROJECTION_FILE, type LsaModelHeader } from "./lsa-model-header.js";
