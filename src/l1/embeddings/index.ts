/** The offline default embedder (corpus-trained LSA) and its persistence. */
export { LsaEmbeddings, type LsaEmbeddingsOptions } from "./lsa-embeddings.js";
export { LSA_MODEL_VERSION, type LsaModelHeader } from "./lsa-model-header.js";
export { LSA_MODEL_FILE, LSA_PROJECTION_FILE, loadLsaModel, saveLsaModel } from "./lsa-model-file.js";
