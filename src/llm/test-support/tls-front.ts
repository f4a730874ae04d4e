import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type AddressInfo, type Socket } from "node:net";
import { createServer } from "node:tls";

/** Whether `openssl` can make a certificate here (tests that need one skip loudly without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for 127.0.0.1 and `llm.cairn-test.invalid`, written to `folder` (cert.pem, key.pem). */
export function makeCertificate(folder: string): { certFile: string; cert: string; key: string } {
  const certFile = join(folder, "cert.pem");
  const keyFile = join(folder, "key.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:llm.cairn-test.invalid"],
    { stdio: "ignore" },
  );
  return { certFile, cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
}

/** HTTPS in front of an HTTP server on loopback: TLS is ended here and the bytes piped on. */
export async function startTlsFront(options: { cert: string; key: string; targetPort: number }): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ cert: options.cert, key: options.key }, (secure) => {
    const plain = connect(options.targetPort, "127.0.0.1");
    secure.pipe(plain);
    plain.pipe(secure);
    for (const socket of [secure, plain]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        secure.destroy();
        plain.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
