/**
 * Stopping a command the tests started in its own process group (`spawn(…, { detached: true })`), such as
 * `make run-local` with its shell and node manager: SIGTERM to the whole group, SIGKILL after 5 s.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops `child` and everything it started (its own process group): SIGTERM, then SIGKILL after 5 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100);
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
}
