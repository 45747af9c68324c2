/**
 * Leader election on a coordination.k8s.io/v1 Lease with controller-runtime's timings (lease 15 s, renew
 * deadline 10 s, retry 2 s), all on the manager's clock. A candidate takes the lease when it is free or its
 * holder has not renewed for a lease duration (measured from when this candidate last saw it change, as
 * client-go does); the leader renews every retry period. As client-go's, every attempt is bounded: a
 * leader that has not renewed within the renew deadline (counted from its last successful renewal's
 * start) stops leading at that instant — its pending request is reset, `onStoppedLeading({ lost: true })`
 * runs — even while the request still hangs; a leader that sees another holder steps down at once.
 * `stop()` releases the lease (releaseOnCancel) so a successor takes over at its next retry.
 * As client-go's LeaseLock, becoming leader is told as a Normal `LeaderElection` Event on the Lease
 * ("<identity> became leader"), through the recorder the manager gives (`recordEvent`).
 */
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../clock.js';
import { isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { BuiltinKinds } from '../client/kinds.js';

export interface LeaderElectionOptions {
  /** The Lease name (controller-runtime's LeaderElectionID). */
  id: string;
  namespace: string;
  /** This candidate's identity; default hostname + random suffix. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Release the lease on a clean stop so a successor need not wait out the lease (default true). */
  releaseOnCancel?: boolean;
}

export interface LeaderCallbacks {
  onStartedLeading(): void;
  /** `lost`: the lease could not be renewed in time or was taken (not a stop()). */
  onStoppedLeading(event: { lost: boolean; reason?: string }): void;
  /** Records a Normal `LeaderElection` Event about the Lease (client-go's LeaseLock.RecordEvent). */
  recordEvent?(lease: Lease, message: string): void;
}

export class LeaderElector {
  readonly identity: string;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private leader = false;
  private stopped = false;
  private timer: Timer | undefined;
  private lastRenew = 0;
  private observedRenewTime: string | undefined;
  private observedHolder: string | undefined;
  private observedAt = 0;
  /** The Lease as this candidate last wrote it (the subject of its LeaderElection Events). */
  private heldLease: Lease | undefined;
  private attempt: Promise<void> = Promise.resolve();
  private inFlight: AbortController | undefined;
  private deadlineTimer: Timer | undefined;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly options: LeaderElectionOptions,
    private readonly callbacks: LeaderCallbacks,
    private readonly logger?: Logger,
  ) {
    this.identity = options.identity ?? `${process.env.HOSTNAME ?? 'kubeforge'}_${Math.random().toString(16).slice(2, 10)}`;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
  }

  isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    this.stopped = false;
    this.tick();
  }

  /**
   * Stops campaigning; a leader releases the lease (holder emptied) so another candidate can take it at
   * once. `release: false` walks away without releasing, as a crashed process would.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.inFlight?.abort(new Error('leader election stopped'));
    await this.attempt;
    this.deadlineTimer?.cancel();
    if (!this.leader) return;
    this.leader = false;
    if (options.release === false || this.options.releaseOnCancel === false) {
      this.callbacks.onStoppedLeading({ lost: false });
      return;
    }
    const client = this.client.withRequestOptions({ timeoutMs: this.renewDeadlineMs, ignoreFence: true });
    try {
      const lease = await client.get(BuiltinKinds.Lease, { namespace: this.options.namespace, name: this.options.id });
      if (lease.spec?.holderIdentity === this.identity) {
        const now = microTime(this.clock.now());
        lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now };
        await client.update(lease);
      }
    } catch (err) {
      this.logger?.warn({ err: String(err) }, 'failed to release the leader-election lease');
    }
    this.callbacks.onStoppedLeading({ lost: false });
  }

  private get leaseName(): string {
    return `${this.options.namespace}/${this.options.id}`;
  }

  private tick(): void {
    if (this.stopped) return;
    const started = this.clock.now();
    // A leader's attempt may last until its renew deadline; a candidate's, one renew deadline.
    const deadlineAt = this.leader ? this.lastRenew + this.renewDeadlineMs : started + this.renewDeadlineMs;
    const abort = new AbortController();
    this.inFlight = abort;
    this.deadlineTimer?.cancel();
    this.deadlineTimer = this.clock.schedule(deadlineAt, () => {
      if (this.inFlight !== abort) return;
      abort.abort(new Error('renew deadline exceeded'));
      if (this.leader) this.lose(`failed to renew lease ${this.leaseName}: timed out waiting for the condition (no renewal within ${this.renewDeadlineMs} ms)`);
    });
    this.attempt = this.tryAcquireOrRenew(started, abort.signal).then(
      (ok) => this.afterAttempt(ok && !abort.signal.aborted, started, abort),
      (err: unknown) => {
        this.logger?.debug({ err: String(err) }, 'leader election attempt failed');
        this.afterAttempt(false, started, abort);
      },
    );
  }

  /** Stops leading now: the lease was not renewed in time, or another holder has it. */
  private lose(reason: string): void {
    if (!this.leader) return;
    this.leader = false;
    this.logger?.info({ lease: this.leaseName, identity: this.identity }, reason);
    this.callbacks.onStoppedLeading({ lost: true, reason });
  }

  private afterAttempt(ok: boolean, started: number, abort: AbortController): void {
    if (this.inFlight === abort) {
      this.inFlight = undefined;
      this.deadlineTimer?.cancel();
    }
    if (this.stopped) return;
    const now = this.clock.now();
    if (ok) {
      this.lastRenew = started;
      if (!this.leader) {
        this.leader = true;
        if (this.heldLease) this.callbacks.recordEvent?.(this.heldLease, `${this.identity} became leader`);
        this.logger?.info({ lease: this.leaseName, identity: this.identity }, `successfully acquired lease ${this.leaseName}`);
        this.callbacks.onStartedLeading();
      }
    } else if (this.leader && now - this.lastRenew >= this.renewDeadlineMs) {
      this.lose(`failed to renew lease ${this.leaseName}: no renewal within ${this.renewDeadlineMs} ms`);
    }
    if (this.stopped) return;
    this.timer = this.clock.schedule(now + this.retryPeriodMs, () => this.tick());
  }

  private async tryAcquireOrRenew(nowMs: number, signal: AbortSignal): Promise<boolean> {
    const now = nowMs;
    const stamp = microTime(now);
    const client = this.client.withRequestOptions({ signal, ignoreFence: true });
    let lease: Lease;
    try {
      lease = await client.get(BuiltinKinds.Lease, { namespace: this.options.namespace, name: this.options.id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.heldLease = await client.create<Lease>({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { namespace: this.options.namespace, name: this.options.id },
        spec: { holderIdentity: this.identity, leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000), acquireTime: stamp, renewTime: stamp, leaseTransitions: 0 },
      });
      this.observe(this.identity, stamp, now);
      return true;
    }
    const spec = lease.spec ?? {};
    if (spec.holderIdentity !== this.observedHolder || spec.renewTime !== this.observedRenewTime) this.observe(spec.holderIdentity, spec.renewTime, now);
    const holder = spec.holderIdentity ?? '';
    const heldByOther = holder !== '' && holder !== this.identity;
    if (heldByOther && this.observedAt + (spec.leaseDurationSeconds ?? 15) * 1000 > now) {
      if (this.leader) this.lose(`lease ${this.leaseName} is held by ${holder}`);
      return false;
    }
    const takingOver = holder !== this.identity;
    lease.spec = {
      ...spec,
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      renewTime: stamp,
      ...(takingOver ? { acquireTime: stamp, leaseTransitions: (spec.leaseTransitions ?? 0) + (holder === '' && !spec.leaseTransitions ? 0 : 1) } : {}),
    };
    this.heldLease = await client.update(lease);
    this.observe(this.identity, stamp, now);
    return true;
  }

  private observe(holder: string | undefined, renewTime: string | undefined, now: number): void {
    this.observedHolder = holder;
    this.observedRenewTime = renewTime;
    this.observedAt = now;
  }
}

/** metav1.MicroTime wire format: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
