/**
 * Leader election on a coordination.k8s.io/v1 Lease with controller-runtime's timings (lease 15 s, renew
 * deadline 10 s, retry 2 s), all on the manager's clock. A candidate takes the lease when it is free or its
 * holder has not renewed for a lease duration (measured from when this candidate last saw it change, as
 * client-go does); the leader renews every retry period and steps down when renewals fail for the renew
 * deadline; `stop()` releases the lease so a successor takes over at its next retry.
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
}

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
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
  private attempt: Promise<void> = Promise.resolve();

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
    await this.attempt;
    if (!this.leader) return;
    if (options.release === false) {
      this.leader = false;
      this.callbacks.onStoppedLeading();
      return;
    }
    this.leader = false;
    try {
      const lease = await this.client.get(BuiltinKinds.Lease, { namespace: this.options.namespace, name: this.options.id });
      if (lease.spec?.holderIdentity === this.identity) {
        const now = microTime(this.clock.now());
        lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now };
        await this.client.update(lease);
      }
    } catch (err) {
      this.logger?.warn({ err: String(err) }, 'failed to release the leader-election lease');
    }
    this.callbacks.onStoppedLeading();
  }

  private tick(): void {
    if (this.stopped) return;
    this.attempt = this.tryAcquireOrRenew().then(
      (ok) => this.afterAttempt(ok),
      (err: unknown) => {
        this.logger?.debug({ err: String(err) }, 'leader election attempt failed');
        this.afterAttempt(false);
      },
    );
  }

  private afterAttempt(ok: boolean): void {
    if (this.stopped) return;
    const now = this.clock.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leader) {
        this.leader = true;
        this.logger?.info({ lease: `${this.options.namespace}/${this.options.id}`, identity: this.identity }, 'successfully acquired lease');
        this.callbacks.onStartedLeading();
      }
    } else if (this.leader && now - this.lastRenew >= this.renewDeadlineMs) {
      this.leader = false;
      this.logger?.error({ lease: `${this.options.namespace}/${this.options.id}` }, 'leader election lost: could not renew within the renew deadline');
      this.callbacks.onStoppedLeading();
    }
    if (this.stopped) return;
    this.timer = this.clock.schedule(now + this.retryPeriodMs, () => this.tick());
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const stamp = microTime(now);
    let lease: Lease;
    try {
      lease = await this.client.get(BuiltinKinds.Lease, { namespace: this.options.namespace, name: this.options.id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.create<Lease>({
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
    if (heldByOther && this.observedAt + (spec.leaseDurationSeconds ?? 15) * 1000 > now) return false;
    const takingOver = holder !== this.identity;
    lease.spec = {
      ...spec,
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      renewTime: stamp,
      ...(takingOver ? { acquireTime: stamp, leaseTransitions: (spec.leaseTransitions ?? 0) + (holder === '' && !spec.leaseTransitions ? 0 : 1) } : {}),
    };
    await this.client.update(lease);
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
