import { watch, type FSWatcher } from "node:fs";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import type { PinnedSource, RetrievalSource } from "../graph/options.js";
import { readManifest } from "./index-files.js";
import { KnowledgeBase } from "./knowledge-base.js";
import type { LoadOptions } from "./load-generation.js";
import { GenerationLeases } from "./generation-leases.js";
import {
  createKnowledgeRetriever,
  type KnowledgeBaseRetriever,
  type KnowledgeRetrieverOptions,
} from "../retriever/knowledge-retriever.js";

/** Options of {@link followKnowledgeBase}: a load's options plus how the folder is followed. */
export interface FollowOptions extends LoadOptions {
  /**
   * How often the manifest is read to look for a new committed generation, besides the file
   * watcher (which some file systems, network mounts among them, never fire). 0 turns polling off.
   * @default 1000
   */
  pollMs?: number;
  /**
   * Whether a file watcher on the folder also notices new generations (within milliseconds,
   * where the file system supports it); false follows by polling alone.
   * @default true
   */
  watch?: boolean;
  /** Called with one line when a new generation fails to load (the current one keeps serving). @default a no-op */
  onWarning?: (message: string) => void;
  /** Called after a swap to a new generation, with its name and the one it replaced. @default a no-op */
  onGeneration?: (event: { generation: string | null; previous: string | null }) => void;
}

/** Default of {@link FollowOptions.pollMs}. */
export const DEFAULT_FOLLOW_POLL_MS = 1000;

/**
 * A knowledge base that follows its index folder: when `lookup-knowledge index` (or `save`)
 * commits a new generation, the next lookups run on it. A lookup pins one generation for its
 * whole run ({@link pin}); in-flight lookups finish on the generation they started on, which is
 * dropped after them. A generation that fails to load is reported and the current one keeps
 * serving. Pass it wherever a knowledge base goes: the tool, `createRetrievalGraph`, the retriever.
 */
export class FollowedKnowledgeBase implements RetrievalSource {
  /** The index folder followed, as given to {@link followKnowledgeBase}. */
  readonly dir: string;
  #current: KnowledgeBase;
  readonly #options: FollowOptions;
  readonly #leases = new GenerationLeases<KnowledgeBase>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #watcher: FSWatcher | null = null;
  /** The manifest text last acted on (loaded, or failed to load): a failed one is not retried until it changes. */
  #seenManifest: string | null = null;
  #checking: Promise<boolean> | null = null;
  #closed = false;

  /** Use {@link followKnowledgeBase}. */
  constructor(dir: string, first: KnowledgeBase, manifestText: string | null, options: FollowOptions) {
    this.dir = dir;
    this.#current = first;
    this.#seenManifest = manifestText;
    this.#options = options;
    const pollMs = options.pollMs ?? DEFAULT_FOLLOW_POLL_MS;
    if (pollMs > 0) {
      this.#timer = setInterval(() => void this.refresh(), pollMs);
      this.#timer.unref();
    }
    if (options.watch === false) return;
    try {
      this.#watcher = watch(dir, { persistent: false }, () => void this.refresh());
      this.#watcher.on("error", () => this.#watcher?.close());
    } catch {
      // Polling still follows the folder.
    }
  }

  /** The generation new lookups run on. */
  get current(): KnowledgeBase {
    return this.#current;
  }
  /** The current generation's keyword layer (`KnowledgeBase.l0`). */
  get l0() {
    return this.#current.l0;
  }
  /** The current generation's dense layer (`KnowledgeBase.l1`); null for an L0-only index. */
  get l1() {
    return this.#current.l1;
  }
  /** The current generation's fingerprint (`KnowledgeBase.fingerprint`). */
  get fingerprint() {
    return this.#current.fingerprint;
  }
  /** The current generation's domains, sorted (`KnowledgeBase.domains`). */
  get domains() {
    return this.#current.domains;
  }
  /** The current generation's calibration (`KnowledgeBase.calibration`). */
  get calibration() {
    return this.#current.calibration;
  }
  /** The current generation's access labels (`KnowledgeBase.access`). */
  get access() {
    return this.#current.access;
  }
  /** The committed generation new lookups run on (`gen-<16 hex digits>`). */
  get generation() {
    return this.#current.generation;
  }
  /** Generations still held by in-flight lookups after a newer one took over (0 once they finish). */
  get retiredInUse(): number {
    return this.#leases.heldExcept(this.#current);
  }

  /** A LangChain retriever whose every query runs on the generation current when it starts (see `KnowledgeBase.asRetriever`). */
  asRetriever(options: Omit<KnowledgeRetrieverOptions, "knowledgeBase"> = {}): KnowledgeBaseRetriever {
    return createKnowledgeRetriever({ ...options, knowledgeBase: this });
  }

  /** Pins the current generation for one lookup; `release` it when the lookup ends. */
  pin(): PinnedSource<KnowledgeBase> {
    return this.#leases.take(this.#current);
  }

  /**
   * Reads the manifest now and swaps to a newly committed generation; true when it swapped.
   * Concurrent calls share one check. Never throws: a failed load goes to `onWarning`.
   */
  refresh(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    this.#checking ??= this.#check().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #check(): Promise<boolean> {
    let text: string;
    try {
      text = (await readManifest(this.dir)).text;
    } catch {
      return false; // Between a writer's renames, or the folder is gone for now: the current generation serves.
    }
    if (text === this.#seenManifest) return false;
    this.#seenManifest = text;
    let next: KnowledgeBase;
    try {
      next = await KnowledgeBase.load(this.dir, this.#options);
    } catch (error) {
      this.#options.onWarning?.(
        `lookup-knowledge: the new index generation in "${this.dir}" does not load, the current one keeps serving: ${errorDetail(error)}`,
      );
      return false;
    }
    if (this.#closed || next.generation === this.#current.generation) return false;
    const previous = this.#current.generation;
    this.#current = next;
    this.#options.onGeneration?.({ generation: next.generation, previous });
    return true;
  }

  /** Stops following (the watcher and the poll); lookups keep running on the current generation. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#watcher?.close();
    this.#timer = null;
    this.#watcher = null;
  }
}

/**
 * Loads the index in `dir` and follows it: see {@link FollowedKnowledgeBase}.
 * @throws the errors of `KnowledgeBase.load` for the first generation; `INVALID_OPTION` for a bad `pollMs`.
 * @example
 * const kb = await followKnowledgeBase(".lookup-knowledge/index", { onWarning: console.warn });
 * const lookup = createLookupKnowledgeTool({ knowledgeBase: kb });
 */
export async function followKnowledgeBase(dir: string, options: FollowOptions = {}): Promise<FollowedKnowledgeBase> {
  const pollMs = options.pollMs ?? DEFAULT_FOLLOW_POLL_MS;
  if (typeof pollMs !== "number" || !Number.isFinite(pollMs) || pollMs < 0) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `pollMs must be a number of milliseconds, 0 or more (0 turns polling off); got ${String(pollMs)}.`,
    );
  }
  const text = await readManifest(dir).then(
    (read) => read.text,
    () => null,
  );
  const first = await KnowledgeBase.load(dir, options);
  return new FollowedKnowledgeBase(dir, first, text, { ...options, pollMs });
}
