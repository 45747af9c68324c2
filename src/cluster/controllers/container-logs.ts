/**
 * What the simulated containers "print": the kubelet simulator appends timestamped lines per
 * container instance (pod uid, container name, container id), and pods/log reads them — the whole
 * log, a tail, lines since a time, and a follow stream that ends when the instance stops.
 */

export interface LogLine {
  /** Cluster time of the line (ms). */
  at: number;
  text: string;
}

interface InstanceLog {
  lines: LogLine[];
  ended: boolean;
  followers: Set<Follower>;
}

interface Follower {
  line(line: LogLine): void;
  end(): void;
}

/** Keeps at most this many lines per container instance (older ones are rotated away). */
const maxLinesPerInstance = 10_000;

export class ContainerLogs {
  private readonly logs = new Map<string, InstanceLog>();

  private key(podUid: string, containerId: string): string {
    return `${podUid}/${containerId}`;
  }

  private instance(podUid: string, containerId: string): InstanceLog {
    const key = this.key(podUid, containerId);
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = { lines: [], ended: false, followers: new Set() }));
    return log;
  }

  /** Appends lines printed by a running container instance at `at`. */
  write(podUid: string, containerId: string, at: number, ...texts: string[]): void {
    const log = this.instance(podUid, containerId);
    for (const text of texts) {
      const line = { at, text };
      log.lines.push(line);
      for (const f of log.followers) f.line(line);
    }
    if (log.lines.length > maxLinesPerInstance) log.lines.splice(0, log.lines.length - maxLinesPerInstance);
  }

  /** The instance stopped: followers' streams end. */
  end(podUid: string, containerId: string): void {
    const log = this.instance(podUid, containerId);
    log.ended = true;
    for (const f of log.followers) f.end();
    log.followers.clear();
  }

  lines(podUid: string, containerId: string): LogLine[] {
    return [...(this.logs.get(this.key(podUid, containerId))?.lines ?? [])];
  }

  /**
   * Streams new lines of an instance until it ends; returns a function unsubscribing. An instance
   * that already ended ends the stream at once.
   */
  follow(podUid: string, containerId: string, onLine: (line: LogLine) => void, onEnd: () => void): () => void {
    const log = this.instance(podUid, containerId);
    if (log.ended) {
      onEnd();
      return () => {};
    }
    const follower: Follower = { line: onLine, end: onEnd };
    log.followers.add(follower);
    return () => log.followers.delete(follower);
  }

  /** Forgets every instance of a pod (the pod is gone); open followers end. */
  forgetPod(podUid: string): void {
    for (const [key, log] of this.logs) {
      if (!key.startsWith(`${podUid}/`)) continue;
      for (const f of log.followers) f.end();
      this.logs.delete(key);
    }
  }
}
