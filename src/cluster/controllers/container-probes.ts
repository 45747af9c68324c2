/**
 * Probes of a container run as a real process: httpGet and tcpSocket really call the pod's address
 * (exec and grpc probes are taken as passing: there is nothing to exec into), on the kubelet's
 * schedule measured by the cluster clock — the first after initialDelaySeconds, then every
 * periodSeconds, each with its timeoutSeconds (real time: it is a real call) — and turn
 * success/failure thresholds into a result the kubelet reads (started, ready, or kill for liveness).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { Clock, Timer } from '../../clock/clock.js';
import type { Container, HTTPGetAction, Probe } from 'kubernetes-types/core/v1.js';

export type ProbeKind = 'startup' | 'readiness' | 'liveness';

export interface ProbeOutcome {
  ok: boolean;
  /** The kubelet's failure text (`HTTP probe failed with statuscode: 503`, `dial tcp …: connect: connection refused`). */
  message: string;
}

/** A probe's port: a number, or the name of one of the container's ports. */
function probePort(port: number | string, container: Container): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return (container.ports ?? []).find((p) => p.name === port)?.containerPort;
}

function dialError(address: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'ECONNREFUSED') return `dial tcp ${address}: connect: connection refused`;
  if (err.message === 'timeout') return `dial tcp ${address}: i/o timeout`;
  return `dial tcp ${address}: ${err.message}`;
}

function httpProbe(get: HTTPGetAction, host: string, port: number, timeoutMs: number): Promise<ProbeOutcome> {
  const scheme = String(get.scheme ?? 'HTTP').toLowerCase();
  const path = get.path ?? '/';
  const url = `${scheme}://${get.host ?? host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
  const headers: Record<string, string> = { 'User-Agent': 'kube-probe/1.32', Accept: '*/*' };
  for (const h of get.httpHeaders ?? []) headers[h.name] = h.value;
  const request = scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', headers, timeout: timeoutMs, ...(scheme === 'https' ? { rejectUnauthorized: false } : {}) }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { ok: true, message: '' } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ETIMEDOUT' ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : dialError(`${get.host ?? host}:${port}`, err);
      resolve({ ok: false, message: `Get "${url}": ${why}` });
    });
    req.end();
  });
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true, message: '' });
    });
    socket.once('timeout', () => socket.destroy(new Error('timeout')));
    socket.once('error', (err) => resolve({ ok: false, message: dialError(`${host}:${port}`, err) }));
  });
}

/** One probe of `container` at `podIP`. */
export function runProbe(probe: Probe, container: Container, podIP: string): Promise<ProbeOutcome> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  const handler = probe.httpGet ?? probe.tcpSocket;
  if (!handler) return Promise.resolve({ ok: true, message: '' });
  const port = probePort(handler.port, container);
  if (port === undefined) return Promise.resolve({ ok: false, message: `unknown port: ${JSON.stringify(handler.port)}` });
  return probe.httpGet ? httpProbe(probe.httpGet, podIP, port, timeoutMs) : tcpProbe(handler.host ?? podIP, port, timeoutMs);
}

/**
 * Probes one container instance periodically. `result` stays `unknown` until a threshold is reached:
 * successThreshold successes in a row make it `success`, failureThreshold failures `failure`;
 * `onChange` is called when it changes, `onFailure` on every failed probe (the Unhealthy event).
 */
export class ProbeWorker {
  result: 'unknown' | 'success' | 'failure' = 'unknown';
  private successes = 0;
  private failures = 0;
  private timer: Timer | undefined;
  private stopped = false;
  /** A probe call is under way. */
  inFlight = false;

  constructor(
    readonly kind: ProbeKind,
    private readonly probe: Probe,
    private readonly container: Container,
    private readonly podIP: string,
    private readonly clock: Clock,
    private readonly onChange: () => void,
    private readonly onFailure: (outcome: ProbeOutcome) => void,
  ) {}

  /** Starts probing: the first probe at `firstAt` (cluster time). */
  start(firstAt: number): void {
    this.timer = this.clock.schedule(firstAt, () => void this.tick());
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const periodMs = (this.probe.periodSeconds ?? 10) * 1000;
    this.timer = this.clock.schedule(this.clock.now() + periodMs, () => void this.tick());
    if (this.inFlight) return;
    this.inFlight = true;
    let outcome: ProbeOutcome;
    try {
      outcome = await runProbe(this.probe, this.container, this.podIP);
    } finally {
      this.inFlight = false;
    }
    if (this.stopped) return;
    const before = this.result;
    if (outcome.ok) {
      this.failures = 0;
      this.successes++;
      const needed = this.kind === 'readiness' ? this.probe.successThreshold ?? 1 : 1;
      if (this.successes >= needed) this.result = 'success';
    } else {
      this.successes = 0;
      this.failures++;
      this.onFailure(outcome);
      if (this.failures >= (this.probe.failureThreshold ?? 3)) this.result = 'failure';
      // readiness drops at once to not-ready only after the threshold; until then it keeps its state
    }
    if (this.result !== before) this.onChange();
  }
}
