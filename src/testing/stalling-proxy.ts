/**
 * A TCP proxy for partition tests: it sits between one client (a manager) and the API server and can be
 * switched to `stall()` — every byte in either direction is held, every connection stays open, new
 * connections are accepted and held too — and back to `heal()`, which delivers what was held and passes
 * bytes through again. A connection its client resets while held (an abandoned request) is dropped with
 * what it held, as a kernel drops unacknowledged data when it resets a connection across a blackholed path;
 * a connection closed with a FIN keeps its bytes and its FIN until the heal.
 */
import net from 'node:net';

interface Side {
  socket: net.Socket;
  held: Buffer[];
  ended: boolean;
}

interface Pipe {
  client: Side;
  upstream: Side;
  dropped: boolean;
}

export class StallingProxy {
  private server: net.Server | undefined;
  private readonly pipes = new Set<Pipe>();
  private stalled = false;
  private droppedBytes = 0;
  private deliveredHeldBytes = 0;
  /** `http(s)://127.0.0.1:<port>` once listening. */
  url = '';

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens on a free port of 127.0.0.1; `url` keeps the target's scheme. */
  async start(scheme: 'http' | 'https' = 'https'): Promise<string> {
    this.server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `${scheme}://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
    return this.url;
  }

  /** Hold every byte from now on; connections stay open. */
  stall(): void {
    this.stalled = true;
  }

  /** Deliver what was held (in order, with held FINs) and pass bytes through again. */
  heal(): void {
    this.stalled = false;
    for (const pipe of this.pipes) {
      this.flush(pipe.client, pipe.upstream.socket);
      this.flush(pipe.upstream, pipe.client.socket);
    }
  }

  isStalled(): boolean {
    return this.stalled;
  }

  /** Bytes held right now, across every connection. */
  heldBytes(): number {
    let n = 0;
    for (const pipe of this.pipes) for (const side of [pipe.client, pipe.upstream]) for (const b of side.held) n += b.length;
    return n;
  }

  /** Held bytes thrown away with connections reset while held. */
  bytesDropped(): number {
    return this.droppedBytes;
  }

  /** Held bytes delivered by heal(). */
  heldBytesDelivered(): number {
    return this.deliveredHeldBytes;
  }

  /** Open connections. */
  connections(): number {
    return this.pipes.size;
  }

  async stop(): Promise<void> {
    for (const pipe of this.pipes) this.drop(pipe);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  private accept(socket: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    const pipe: Pipe = { client: { socket, held: [], ended: false }, upstream: { socket: upstream, held: [], ended: false }, dropped: false };
    this.pipes.add(pipe);
    socket.setNoDelay(true);
    upstream.setNoDelay(true);
    this.relay(pipe, pipe.client, upstream);
    this.relay(pipe, pipe.upstream, socket);
  }

  /** Bytes (and the FIN) read from `from` go to `to`, or are held while stalled. */
  private relay(pipe: Pipe, from: Side, to: net.Socket): void {
    from.socket.on('data', (chunk: Buffer) => {
      if (this.stalled || from.held.length > 0) from.held.push(chunk);
      else to.write(chunk);
    });
    from.socket.on('end', () => {
      from.ended = true;
      if (!this.stalled && from.held.length === 0) to.end();
    });
    // A reset (or any socket error) while bytes are held drops the connection and what it held.
    from.socket.on('error', () => this.drop(pipe));
    // Closed without a FIN (destroyed or reset): drop. After a FIN, forget the pipe once both ends closed.
    from.socket.on('close', () => {
      if (!from.ended) this.drop(pipe);
      else if (pipe.client.socket.destroyed && pipe.upstream.socket.destroyed && pipe.client.held.length + pipe.upstream.held.length === 0) this.pipes.delete(pipe);
    });
  }

  private flush(from: Side, to: net.Socket): void {
    for (const chunk of from.held) {
      this.deliveredHeldBytes += chunk.length;
      to.write(chunk);
    }
    from.held = [];
    if (from.ended) to.end();
  }

  private drop(pipe: Pipe): void {
    if (pipe.dropped) return;
    pipe.dropped = true;
    for (const side of [pipe.client, pipe.upstream]) {
      for (const b of side.held) this.droppedBytes += b.length;
      side.held = [];
      side.socket.destroy();
    }
    this.pipes.delete(pipe);
  }
}
