/*
Copyright 2026 The storagebucket Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The ticker runnable: every --probe-interval of the manager's clock (virtual in tests) it sends one generic
 * event into its channel, which the StorageBucket controller watches (channelSource) and turns into one request
 * per StorageBucket. It needs leader election, as controller-runtime's NeedLeaderElection() true: only the
 * replica holding the lease ticks, and it stops ticking when it stops leading.
 */
import { EventChannel, rfc3339Seconds, type Clock, type KubeObject, type Runnable, type Timer } from 'kubeforge/runtime';

/** The object a tick's generic event carries: which tick, and when (no StorageBucket; the handler lists them). */
export interface ProbeTick extends KubeObject {
  kind: 'ProbeTick';
}

export class ProbeTicker implements Runnable {
  readonly needLeaderElection = true;
  readonly channel = new EventChannel<ProbeTick>();
  private timer: Timer | undefined;
  /** Bumped by stop(): a tick scheduled by an earlier start does nothing. */
  private generation = 0;
  private sent = 0;

  constructor(readonly intervalMs: number) {
    if (!(intervalMs > 0)) throw new Error(`ProbeTicker: the interval must be > 0 ms, got ${intervalMs}`);
  }

  /** How many ticks this runnable has sent. */
  ticks(): number {
    return this.sent;
  }

  /** Starts ticking on the manager's clock (any `{ clock }` will do). */
  start(manager: { clock: Clock }): void {
    this.timer?.cancel();
    const mine = ++this.generation;
    const clock = manager.clock;
    const tickAt = (at: number): void => {
      this.timer = clock.schedule(at, () => {
        if (mine !== this.generation) return;
        // As Go's time.Ticker, ticks missed while the process (or a virtual clock) jumped ahead are dropped.
        const next = at + this.intervalMs;
        tickAt(next > clock.now() ? next : clock.now() + this.intervalMs);
        this.sent++;
        this.channel.send({
          apiVersion: 'storage.example.com/v1alpha1',
          kind: 'ProbeTick',
          metadata: { name: `tick-${this.sent}`, creationTimestamp: rfc3339Seconds(at) },
        });
      });
    };
    tickAt(clock.now() + this.intervalMs);
  }

  stop(): void {
    this.generation++;
    this.timer?.cancel();
    this.timer = undefined;
  }
}
