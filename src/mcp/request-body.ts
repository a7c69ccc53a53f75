import type { IncomingMessage } from "node:http";

/** A request body read up to its cap: the text, or why it was not read whole. */
export type ReadBody = { ok: true; text: string } | { ok: false; reason: "too-large" | "aborted" };

/**
 * Reads `req`'s body as UTF-8, up to `maxBytes`: a body that declares more (`Content-Length`) is
 * refused before a byte is read, and one that streams more stops being read at the cap. A
 * client that stops sending or drips its body is cut by the server's request timeout, which ends
 * the request (`aborted`).
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<ReadBody> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, reason: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (outcome: ReadBody) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return done({ ok: false, reason: "too-large" });
      chunks.push(chunk);
    };
    const onEnd = () => done({ ok: true, text: Buffer.concat(chunks).toString("utf8") });
    const onClose = () => done({ ok: false, reason: "aborted" });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
  });
}
