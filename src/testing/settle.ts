/**
 * `settle()` for a cluster and a manager on one virtual clock: alternate the cluster's settle and the
 * manager's idle signal (no reconcile queued or running, no request in flight, every watch connected and
 * its events delivered — none still in a socket) until a full round makes no progress. Bounded: a livelock
 * fails with a dump.
 */
import type { Manager } from '../runtime/manager/manager.js';

export interface SettleTarget {
  settleCluster(): Promise<void>;
  /** The managers whose idleness counts (usually one). */
  managers(): Manager[];
  /**
   * Bytes the server wrote to the managers' connections that they have not read yet, and the reverse (a
   * watch event on its way counts as work: under load the kernel may hand it over some time after the write).
   */
  bytesInFlight?(): number;
  /** True when the cluster clock has a timer due now (nothing may be left due when settled). */
  hasDueTimers(): boolean;
  /** Lines describing recent activity, for the livelock dump. */
  recentActivity(): string[];
}

export interface SettleLimits {
  /** Rounds of cluster-settle + manager-idle before giving up. */
  maxRounds?: number;
  /** Real milliseconds one wait for the manager to go idle may take. */
  maxIdleWaitMs?: number;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const shortSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the manager is idle and stays so across a few event-loop turns (socket reads included). */
async function waitManagerQuiet(target: SettleTarget, maxWaitMs: number): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  let quietTurns = 0;
  let last = progressOf(target);
  for (let turn = 0; ; turn++) {
    const progress = progressOf(target);
    if (target.managers().every((m) => m.isIdle()) && progress === last && !target.bytesInFlight?.()) quietTurns++;
    else quietTurns = 0;
    last = progress;
    if (quietTurns >= 4) return;
    if (Date.now() > deadline) throw new Error(`manager did not go idle within ${maxWaitMs} ms`);
    // Mostly macrotask turns; every few turns a 1 ms timer so the poll phase reads pending socket data.
    if (turn % 4 === 3) await shortSleep(1);
    else await nextTurn();
  }
}

export async function settle(target: SettleTarget, limits: SettleLimits = {}): Promise<void> {
  const maxRounds = limits.maxRounds ?? 200;
  const maxIdleWaitMs = limits.maxIdleWaitMs ?? 30_000;
  for (let round = 0; round < maxRounds; round++) {
    const before = progressOf(target);
    await target.settleCluster();
    try {
      await waitManagerQuiet(target, maxIdleWaitMs);
    } catch (err) {
      throw new Error(`settle: ${(err as Error).message}\n${dump(target)}`, { cause: err });
    }
    if (progressOf(target) === before && !target.hasDueTimers()) return;
  }
  throw new Error(`settle: no quiet state after ${maxRounds} rounds (livelock?)\n${dump(target)}`);
}

function progressOf(target: SettleTarget): number {
  return target.managers().reduce((sum, m) => sum + m.progress(), 0);
}

function dump(target: SettleTarget): string {
  return [...target.managers().map(dumpManager), `bytes in flight between the cluster and the managers: ${target.bytesInFlight?.() ?? 'not counted'}`, 'recent activity:', ...target.recentActivity().map((l) => `  ${l}`)].join('\n');
}

function dumpManager(manager: Manager): string {
  const lines = manager.controllerList().map((c) => {
    const q = c.workQueue();
    return `  controller ${c.name}: queued=${q?.len() ?? 0} inFlight=${q?.inFlight() ?? 0} delayed=${q?.delayed() ?? 0} reconciles=${c.reconcileCount()}`;
  });
  const informers = manager.getCache().allInformers().map((i) => `  informer ${i.kind.kind}: synced=${i.hasSynced()} idle=${i.isIdle()} rv=${i.lastResourceVersion()}`);
  return ['manager state:', ...lines, ...informers, `  requests in flight: ${manager.transport.pending()}`].join('\n');
}
