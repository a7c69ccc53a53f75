import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TLSSocket } from "node:tls";
import { promisify } from "node:util";

/** A Postgres reached over TLS: a proxy in front of a plain one, with the CA a client must trust. */
export interface TlsPostgres {
  /** The upstream's URL with the proxy's host and port, and `query` (e.g. `sslmode=require`) added. */
  url(query: string): string;
  /** PEM file of the self-signed certificate the proxy presents (for IP 127.0.0.1), the `sslrootcert` to trust it. */
  caFile: string;
  stop(): Promise<void>;
}

/** The first message of a Postgres client that wants TLS: length 8, code 80877103. */
function isSslRequest(chunk: Buffer): boolean {
  return chunk.length >= 8 && chunk.readInt32BE(0) === 8 && chunk.readInt32BE(4) === 80877103;
}

/**
 * Makes a self-signed certificate with the `openssl` command. @returns the reason, for the caller's skip, when it
 * cannot (no `openssl` here).
 */
async function selfSignedCertificate(dir: string): Promise<{ key: Buffer; cert: Buffer; certFile: string } | string> {
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  try {
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ]);
  } catch (error) {
    return `no TLS certificate for the proxy: openssl failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
  }
  return { key: await readFile(keyFile), cert: await readFile(certFile), certFile };
}

/**
 * Serves the plain Postgres at `upstreamUrl` over TLS on a free port of 127.0.0.1, answering the
 * client's `SSLRequest` as a server with `ssl = on` does. @returns the proxy, or a string saying
 * why it cannot run here.
 */
export async function startTlsProxy(upstreamUrl: string): Promise<TlsPostgres | string> {
  const upstreamAddress = new URL(upstreamUrl);
  const upstreamPort = Number(upstreamAddress.port || 5432);
  const dir = await mkdtemp(join(tmpdir(), "lookup-knowledge-tls-"));
  const certificate = await selfSignedCertificate(dir);
  if (typeof certificate === "string") {
    await rm(dir, { recursive: true, force: true });
    return certificate;
  }
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    client.once("data", (first: Buffer) => {
      const upstream = connect(upstreamPort, upstreamAddress.hostname);
      sockets.add(upstream);
      upstream.on("close", () => (sockets.delete(upstream), client.destroy()));
      upstream.on("error", () => client.destroy());
      if (!isSslRequest(first)) {
        upstream.write(first);
        client.pipe(upstream).pipe(client);
        return;
      }
      client.write("S");
      const secure = new TLSSocket(client, { isServer: true, key: certificate.key, cert: certificate.cert });
      secure.on("error", () => (client.destroy(), upstream.destroy()));
      secure.on("close", () => upstream.destroy());
      secure.pipe(upstream).pipe(secure);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url(query) {
      const proxied = new URL(upstreamUrl);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(port);
      return `${proxied.href}${proxied.search ? "&" : "?"}${query}`;
    },
    caFile: certificate.certFile,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
