/**
 * The simulated kubelet through real kubectl, on the virtual clock: a long-running pod goes
 * ContainerCreating → Running → Ready after its readiness probe's initial delay (or never, when told
 * its probe fails); init containers in order; a failing container
 * restarts with CrashLoopBackOff back-off (10 s, then 20 s); deletion stops containers with 143 when
 * SIGTERM is honoured in time and 137 after terminationGracePeriodSeconds; `kubectl logs` with -f,
 * --previous, --tail and --timestamps; exec answers as a server whose kubelet cannot be reached.
 */
import { jest } from '@jest/globals';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ nodes: 2 });
const kubectl = suite.kubectl;

interface PodOptions {
  annotations?: Record<string, string>;
  spec?: Record<string, unknown>;
  container?: Record<string, unknown>;
  finalizers?: string[];
}

async function createPod(name: string, o: PodOptions = {}): Promise<void> {
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations: o.annotations ?? {}, ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', ...o.container }], ...o.spec },
  };
  // field validation is not what this file tests: kubectl then skips parsing the OpenAPI document (15-20 ms CPU a run)
  await kubectl.ok(['create', '--validate=false', '-f', '-'], JSON.stringify(body));
  await suite.cluster.settle();
}

const getPod = (name: string): Promise<any> => suite.getJson(['get', 'pod', name]);
const advance = async (ms: number): Promise<void> => {
  await suite.cluster.clock.advance(ms);
  await suite.cluster.settle();
};
const row = async (name: string): Promise<string[]> => (await kubectl.ok(['get', 'pod', name, '--no-headers'])).trim().split(/\s{2,}/);

test('a long-running pod: ContainerCreating, then Running, then Ready once its readiness probe passes', async () => {
  await createPod('web', {
    annotations: { 'sim.kubeforge.io/start-delay': '2s' },
    container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15, periodSeconds: 5 } },
  });
  expect(await row('web')).toEqual(['web', '0/1', 'ContainerCreating', '0', expect.any(String)]);
  let pod = await getPod('web');
  expect(pod.status.containerStatuses[0]).toMatchObject({ name: 'app', ready: false, started: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } });
  await advance(2000);
  pod = await getPod('web');
  expect(pod.status.phase).toBe('Running');
  expect(pod.status.containerStatuses[0]).toMatchObject({ ready: false, started: true, image: 'docker.io/library/nginx:1.27', state: { running: {} } });
  expect(pod.status.containerStatuses[0].containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
  expect(pod.status.containerStatuses[0].imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  expect(pod.status.podIP).toMatch(/^10\.244\.[01]\.\d+$/);
  expect(pod.status.hostIP).toMatch(/^172\.18\.0\.[23]$/);
  expect(pod.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
  await advance(14_000);
  expect((await getPod('web')).status.containerStatuses[0].ready).toBe(false);
  await advance(1000);
  pod = await getPod('web');
  expect(pod.status.containerStatuses[0].ready).toBe(true);
  expect(pod.status.conditions.map((c: any) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
  expect(await row('web')).toEqual(['web', '1/1', 'Running', '0', expect.any(String)]);
  const describe = await kubectl.ok(['describe', 'pod', 'web']);
  expect(describe).toMatch(/Normal\s+Pulling\s+.*kubelet\s+Pulling image "nginx:1.27"/);
  expect(describe).toMatch(/Normal\s+Pulled\s+.*kubelet\s+Successfully pulled image "nginx:1.27" in 2s \(2s including waiting\)\. Image size: \d+ bytes\./);
  expect(describe).toMatch(/Normal\s+Created\s+.*kubelet\s+Created container: app/);
  expect(describe).toMatch(/Normal\s+Started\s+.*kubelet\s+Started container app/);
});

test('a readiness probe told to fail keeps the pod running but not Ready, with an Unhealthy event', async () => {
  await createPod('unready', {
    annotations: { 'sim.kubeforge.io/readiness': 'fail' },
    container: { readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5 } },
  });
  await advance(60_000);
  expect(await row('unready')).toEqual(['unready', '0/1', 'Running', '0', expect.any(String)]);
  expect(await kubectl.ok(['describe', 'pod', 'unready'])).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Readiness probe failed: HTTP probe failed with statuscode: 503/);
});

test('a liveness probe told to fail gets the container killed (137) and restarted after failureThreshold probes', async () => {
  await createPod('sick', {
    annotations: { 'sim.kubeforge.io/liveness': 'fail' },
    container: { livenessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 3 } },
  });
  await advance(19_000);
  expect((await getPod('sick')).status.containerStatuses[0].restartCount).toBe(0);
  await advance(1000);
  const cs = (await getPod('sick')).status.containerStatuses[0];
  expect(cs).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 137, reason: 'Error' } }, state: { waiting: { reason: 'CrashLoopBackOff' } } });
  const describe = await kubectl.ok(['describe', 'pod', 'sick']);
  expect(describe).toMatch(/Warning\s+Unhealthy\s+.*\(x3 over .*\)\s+kubelet\s+Liveness probe failed: dial tcp 10\.244\.\d+\.\d+:80: connect: connection refused/);
  expect(describe).toMatch(/Normal\s+Killing\s+.*kubelet\s+Container app failed liveness probe, will be restarted/);
});

test('init containers run in order before the app container', async () => {
  await createPod('init', {
    spec: {
      initContainers: [
        { name: 'first', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3'] },
        { name: 'second', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] },
      ],
    },
  });
  expect(await row('init')).toEqual(['init', '0/1', 'Init:0/2', '0', expect.any(String)]);
  await advance(3000);
  expect(await row('init')).toEqual(['init', '0/1', 'Init:1/2', '0', expect.any(String)]);
  await advance(2000);
  const pod = await getPod('init');
  expect(pod.status.initContainerStatuses.map((s: any) => `${s.name}:${s.state.terminated?.reason}`)).toEqual(['first:Completed', 'second:Completed']);
  expect(pod.status.phase).toBe('Running');
  expect(await row('init')).toEqual(['init', '1/1', 'Running', '0', expect.any(String)]);
});

test('a failing container restarts with CrashLoopBackOff back-off; logs --previous shows the last run', async () => {
  await createPod('crashy', { annotations: { 'sim.kubeforge.io/run-duration': '5s', 'sim.kubeforge.io/exit-code': '3', 'sim.kubeforge.io/logs': 'connecting to db\nfatal: db unreachable' } });
  await advance(5000);
  let cs = (await getPod('crashy')).status.containerStatuses[0];
  expect(cs).toMatchObject({ restartCount: 1, ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 3, reason: 'Error' } } });
  expect(cs.state.waiting.message).toMatch(/^back-off 10s restarting failed container=app pod=crashy_default\([0-9a-f-]{36}\)$/);
  expect((await row('crashy')).slice(0, 3)).toEqual(['crashy', '0/1', 'CrashLoopBackOff']);
  const previous = await kubectl.ok(['logs', 'crashy', '--previous']);
  expect(previous).toBe('kubeforge: container app started (image nginx:1.27)\nconnecting to db\nfatal: db unreachable\nkubeforge: container app exited with code 3\n');
  const current = await kubectl.run(['logs', 'crashy']);
  // between runs the current container is the one that just terminated
  expect(current.stdout).toContain('exited with code 3');
  await advance(10_000);
  cs = (await getPod('crashy')).status.containerStatuses[0];
  expect(cs).toMatchObject({ restartCount: 1, state: { running: {} } });
  await advance(5000);
  cs = (await getPod('crashy')).status.containerStatuses[0];
  expect(cs.restartCount).toBe(2);
  expect(cs.state.waiting.message).toMatch(/^back-off 20s restarting/);
  expect(await kubectl.ok(['describe', 'pod', 'crashy'])).toMatch(/Warning\s+BackOff\s+.*kubelet\s+Back-off restarting failed container app in pod crashy_default/);
});

test('graceful deletion: SIGTERM honoured in time exits 143; a container ignoring it is killed with 137 after the grace period', async () => {
  await createPod('polite', { finalizers: ['example.com/hold'] });
  await createPod('stubborn', { finalizers: ['example.com/hold'], annotations: { 'sim.kubeforge.io/stop-delay': '1h' }, spec: { terminationGracePeriodSeconds: 10 } });
  await kubectl.ok(['delete', 'pod', 'polite', 'stubborn', '--wait=false']);
  await suite.cluster.settle();
  const polite = await getPod('polite');
  expect(polite.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 143, reason: 'Error' });
  expect(polite.status.phase).toBe('Failed');
  expect(polite.metadata.deletionGracePeriodSeconds).toBe(0);
  expect((await getPod('stubborn')).status.containerStatuses[0].state.running).toBeDefined();
  expect((await row('stubborn')).slice(0, 3)).toEqual(['stubborn', '1/1', 'Terminating']);
  await advance(9000);
  expect((await getPod('stubborn')).status.containerStatuses[0].state.running).toBeDefined();
  await advance(1000);
  expect((await getPod('stubborn')).status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  expect(await kubectl.ok(['describe', 'pod', 'stubborn'])).toMatch(/Normal\s+Killing\s+.*kubelet\s+Stopping container app/);
  for (const name of ['polite', 'stubborn']) await kubectl.ok(['patch', 'pod', name, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'pods', 'polite', 'stubborn', '--ignore-not-found'])).toBe('');
});

test('kubectl logs: --tail, --timestamps, -f until the container ends, and the waiting-container error', async () => {
  await createPod('tick', { annotations: { 'sim.kubeforge.io/run-duration': '30s', 'sim.kubeforge.io/logs': 'one\ntwo\nthree' }, spec: { restartPolicy: 'Never' } });
  expect(await kubectl.ok(['logs', 'tick', '--tail=2'])).toBe('two\nthree\n');
  const stamped = await kubectl.ok(['logs', 'tick', '--timestamps', '--tail=1']);
  expect(stamped).toMatch(/^2026-11-22T10:\d\d:\d\d\.\d{9}Z three\n$/);
  const requestsBefore = suite.cluster.requestLog().length;
  const following = kubectl.run(['logs', '-f', 'tick']);
  for (let i = 0; i < 500 && !suite.cluster.requestLog().slice(requestsBefore).some((e) => e.subresource === 'log'); i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 100));
  await advance(30_000);
  const followed = await following;
  expect(followed.code).toBe(0);
  expect(followed.stdout).toBe('kubeforge: container app started (image nginx:1.27)\none\ntwo\nthree\nkubeforge: container app exited with code 0\n');
  expect((await getPod('tick')).status.phase).toBe('Succeeded');
  // --since counts back from the cluster's clock: only the exit line is younger than 10 s
  expect(await kubectl.ok(['logs', 'tick', '--since=10s'])).toBe('kubeforge: container app exited with code 0\n');
  // -f on a container that has already ended: the whole log at once, and no internal error in the server
  const internalErrors = jest.spyOn(console, 'error');
  try {
    const ended = await kubectl.run(['logs', '-f', 'tick']);
    expect({ code: ended.code, stdout: ended.stdout }).toEqual({ code: 0, stdout: followed.stdout });
    expect(internalErrors.mock.calls.filter((call) => String(call[0]).includes('internal error'))).toEqual([]);
  } finally {
    internalErrors.mockRestore();
  }

  await createPod('slow', { annotations: { 'sim.kubeforge.io/start-delay': '1m' } });
  const waiting = await kubectl.run(['logs', 'slow']);
  expect(waiting.code).toBe(1);
  expect(waiting.stderr.trim()).toBe('Error from server (BadRequest): container "app" in pod "slow" is waiting to start: ContainerCreating');
  // kubectl checks the container name itself; the server answers the same for clients that do not
  const unknown = await suite.call('GET', '/api/v1/namespaces/default/pods/slow/log?container=nope');
  expect(unknown.code).toBe(400);
  expect(JSON.parse(unknown.text)).toMatchObject({ reason: 'BadRequest', message: 'container nope is not valid for pod slow' });
  const noPrevious = await kubectl.run(['logs', 'tick', '--previous']);
  expect(noPrevious.stderr.trim()).toBe('Error from server (BadRequest): previous terminated container "app" in pod "tick" not found');
});

test('exec, attach and port-forward answer as a server that cannot reach the kubelet', async () => {
  await createPod('shell');
  const hostIP = (await getPod('shell')).status.hostIP;
  const exec = await kubectl.run(['exec', 'shell', '--', 'ls']);
  expect(exec.code).toBe(1);
  expect(exec.stderr.trim()).toBe(`Error from server: error dialing backend: dial tcp ${hostIP}:10250: connect: connection refused`);
  const raw = await suite.call('POST', '/api/v1/namespaces/default/pods/shell/exec?command=ls&stdout=true');
  expect(raw.code).toBe(500);
  expect(JSON.parse(raw.text)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `error dialing backend: dial tcp ${hostIP}:10250: connect: connection refused`, code: 500 });
  const forward = await kubectl.run(['port-forward', 'shell', '8080:80']);
  expect(forward.stderr).toContain(`error upgrading connection: error dialing backend: dial tcp ${hostIP}:10250: connect: connection refused`);
});
