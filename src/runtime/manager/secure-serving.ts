/**
 * The TLS listener behind the manager's metrics and webhook servers, with kubebuilder's `--enable-http2`
 * switch: off (the default), the server offers only "http/1.1" in ALPN, so a client that insists on
 * HTTP/2 is refused during the TLS handshake (what controller-runtime's servers do when kubebuilder's
 * main.go sets NextProtos to http/1.1 against the HTTP/2 rapid-reset CVEs); on, it is Node's HTTP/2 server
 * with HTTP/1.1 fallback, so both kinds of client are served.
 */
import type http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** One request handler for both protocols: Node's HTTP/2 compatibility API mirrors http's request/response. */
export type SecureRequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface SecureServingOptions {
  certPem: string;
  keyPem: string;
  /** Serve HTTP/2 as well as HTTP/1.1 (default false: HTTP/1.1 only). */
  enableHttp2?: boolean;
}

/** A listening TLS server: its port, and stop() which drops open connections and closes it. */
export interface SecureListener {
  port: number;
  /** The protocols offered in ALPN, in order of preference. */
  protocols: string[];
  stop(): Promise<void>;
}

export async function listenSecure(options: SecureServingOptions, host: string | undefined, port: number, handler: SecureRequestHandler): Promise<SecureListener> {
  const tls = { cert: options.certPem, key: options.keyPem };
  const protocols = options.enableHttp2 ? ['h2', 'http/1.1'] : ['http/1.1'];
  const server = options.enableHttp2
    ? http2.createSecureServer({ ...tls, allowHTTP1: true, ALPNProtocols: protocols }, handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void)
    : https.createServer({ ...tls, ALPNProtocols: protocols }, handler);
  // Every TCP connection from its accept on (before the TLS handshake ends), so stop() need not wait for idle
  // keep-alive connections or HTTP/2 sessions; one accepted while stopping is dropped at once.
  const sockets = new Set<Socket>();
  let stopping = false;
  server.on('connection', (socket: Socket) => {
    if (stopping) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    protocols,
    async stop() {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
