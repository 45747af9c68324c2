/**
 * kill -9 under writes: `kubeforge cluster start --data-dir` in a child process is killed while clients
 * create and update ConfigMaps, then restarted, round after round. Every acknowledged write must be
 * there with the resourceVersion it was answered with, and resourceVersions never go backwards across
 * restarts. Needs the build in dist/ (npm test builds first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'kubeforge-crash-'));
/** The cluster process of the moment, killed after the test whatever happened. */
let running: ChildProcess | undefined;
afterAll(() => {
  if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Connection {
  url: string;
  ca: string;
  token: string;
  agent: Agent;
}

/** Starts the cluster process and resolves once it prints its KUBECONFIG line. */
function startCluster(fresh: boolean): Promise<{ child: ChildProcess; connection: Connection }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/kubeforge.js'), 'cluster', 'start', '--data-dir', dataDir, ...(fresh ? ['--fresh'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  running = child;
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += String(d)));
    const exitedEarly = (code: number | null): void => reject(new Error(`cluster exited ${code} before serving: ${err}`));
    child.once('exit', exitedEarly);
    const read = (d: Buffer): void => {
      out += String(d);
      const m = /export KUBECONFIG=(\S+)\n/.exec(out);
      if (!m) return;
      child.off('exit', exitedEarly);
      child.stdout!.off('data', read);
      child.stdout!.resume();
      const kubeconfig = readFileSync(m[1]!, 'utf8');
      const field = (name: string): string => new RegExp(`${name}: (\\S+)`).exec(kubeconfig)![1]!;
      const ca = Buffer.from(field('certificate-authority-data'), 'base64').toString();
      resolve({ child, connection: { url: field('server'), ca, token: field('token'), agent: new Agent({ keepAlive: true, ca }) } });
    };
    child.stdout!.on('data', read);
  });
}

/** One request; rejects on a broken connection (the process died), resolves with status and body. */
function call(c: Connection, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.url}${path}`, { method, agent: c.agent, headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => (res.complete ? resolve({ status: res.statusCode!, body: JSON.parse(text) }) : reject(new Error('response cut off'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const cmPath = '/api/v1/namespaces/default/configmaps';

test('kill -9 under writes, six times: every acknowledged write survives and resourceVersions only grow', async () => {
  if (!existsSync(join(repoRoot, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  /** name → resourceVersion of its acknowledged create. */
  const created = new Map<string, string>();
  /** counter ConfigMap name → resourceVersion of its last acknowledged update. */
  const updated = new Map<string, number>();
  /** resourceVersions acknowledged in the current round (answers may arrive out of commit order). */
  let thisRound: number[] = [];
  let highestAcknowledged = 0;
  const everyAcknowledged = new Set<number>();
  const killAfterMs = [300, 650, 150, 500, 400, 250];

  let acknowledgements = 0;
  const acknowledge = (rv: string): void => {
    acknowledgements++;
    thisRound.push(Number(rv));
  };

  /** Writes until the connection breaks: creates, and updates of its own counter ConfigMap. */
  let killed = false;
  const writer = async (c: Connection, id: string, round: number): Promise<void> => {
    const counter = `counter-${id}`;
    for (let i = 0; ; i++) {
      try {
        const name = `w${id}-r${round}-${i}`;
        const made = await call(c, 'POST', cmPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } });
        if (made.status !== 201) throw new Error(`create answered ${made.status}: ${JSON.stringify(made.body)}`);
        created.set(name, made.body.metadata.resourceVersion);
        acknowledge(made.body.metadata.resourceVersion);
        const current = await call(c, 'GET', `${cmPath}/${counter}`);
        const next = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: counter, ...(current.status === 200 ? { resourceVersion: current.body.metadata.resourceVersion } : {}) }, data: { last: name } };
        const written = current.status === 200 ? await call(c, 'PUT', `${cmPath}/${counter}`, next) : await call(c, 'POST', cmPath, next);
        if (written.status !== 200 && written.status !== 201) throw new Error(`counter write answered ${written.status}: ${JSON.stringify(written.body)}`);
        updated.set(counter, Number(written.body.metadata.resourceVersion));
        acknowledge(written.body.metadata.resourceVersion);
      } catch (err) {
        // a broken connection after the kill: this write is unacknowledged; anything else fails the test
        if (killed && (err as { code?: string }).code !== undefined) return;
        if (killed && /socket hang up|cut off/.test((err as Error).message)) return;
        throw err;
      }
    }
  };

  const check = async (c: Connection): Promise<void> => {
    const list = await call(c, 'GET', cmPath);
    expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(highestAcknowledged);
    const stored = new Map<string, number>(list.body.items.map((o: any) => [o.metadata.name, Number(o.metadata.resourceVersion)]));
    const lost = [...created].filter(([name, rv]) => !name.startsWith('counter-') && stored.get(name) !== Number(rv) && !updated.has(name));
    expect(lost).toEqual([]);
    // a counter may be newer than its last answer (an update applied just before the kill), never older
    const stale = [...updated].filter(([name, rv]) => !(stored.get(name)! >= rv));
    expect(stale).toEqual([]);
  };

  for (let round = 0; round < killAfterMs.length; round++) {
    const { child, connection } = await startCluster(round === 0);
    if (round > 0) await check(connection);
    thisRound = [];
    killed = false;
    const writers = Promise.all(['a', 'b', 'c'].map((id) => writer(connection, id, round)));
    const writersFailed = writers.then(() => new Error('the writers stopped before the kill'), (err: unknown) => err);
    const waitOrFail = async (ms: number): Promise<void> => {
      const failure = await Promise.race([writersFailed, new Promise((r) => setTimeout(r, ms, 'waited'))]);
      if (failure !== 'waited') throw failure;
    };
    // kill at some moment after the writes got going (the first answers of a new process are slow)
    while (thisRound.length === 0) await waitOrFail(10);
    await waitOrFail(killAfterMs[round]!);
    const exited = new Promise((r) => child.once('exit', r));
    killed = true;
    child.kill('SIGKILL');
    await exited;
    await writers;
    connection.agent.destroy();
    // resourceVersions never go backwards across restarts, and no two acknowledged writes share one
    expect(Math.min(...thisRound)).toBeGreaterThan(highestAcknowledged);
    for (const rv of thisRound) everyAcknowledged.add(rv);
    highestAcknowledged = Math.max(highestAcknowledged, ...thisRound);
  }
  const { child, connection } = await startCluster(false);
  try {
    await check(connection);
    expect(created.size).toBeGreaterThan(killAfterMs.length * 3);
    expect(everyAcknowledged.size).toBe(acknowledgements);
  } finally {
    connection.agent.destroy();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}, 60_000);
