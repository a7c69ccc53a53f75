/** A raw TCP client for what no HTTP client does: a body that never comes, headers sent a byte at a time. */
import { connect, type Socket } from "node:net";

/** A raw connection and what it has seen. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the connection is closed, with whether it ended in an error (a reset). */
  closed: Promise<{ error: string | null }>;
  /** Writes `data`, resolving once the socket took it or the connection is gone (false then). */
  write(data: string | Buffer): Promise<boolean>;
}

/** Opens a connection to `url`'s host and port. */
export async function openRaw(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let text = "";
  let gone = false;
  let error: string | null = null;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (text += chunk));
  socket.on("error", (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
  const closed = new Promise<{ error: string | null }>((resolve) =>
    socket.once("close", () => {
      gone = true;
      resolve({ error });
    }),
  );
  return {
    socket,
    received: () => text,
    closed,
    write(data) {
      if (gone || socket.destroyed) return Promise.resolve(false);
      return new Promise((resolve) => {
        const flushed = socket.write(data, (failure) => resolve(!failure));
        if (!flushed) void closed.then(() => resolve(false));
      });
    },
  };
}

/** The head of a POST to `url` with these extra header lines (`Name: value`). */
export function postHead(url: string, headers: string[]): string {
  const { host, pathname } = new URL(url);
  return [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${host}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    "MCP-Protocol-Version: 2025-06-18",
    ...headers,
    "",
    "",
  ].join("\r\n");
}

/** Resolves after `ms` milliseconds. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
