/** Child process of `loadCorpusAsUnprivileged`: loads the corpus folder in argv[2] and prints it as JSON. */
import { loadCorpus } from "../../../src/corpus/load-corpus.js";

const corpus = await loadCorpus(process.argv[2]);
process.stdout.write(JSON.stringify(corpus));
