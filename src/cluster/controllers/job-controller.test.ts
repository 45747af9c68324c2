import { afterEach, describe, expect, it } from '@jest/globals';
import { parse as parseYaml } from 'yaml';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';
import { Kubectl } from './testdata/kubectl.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

function job(name: string, script: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>): any {
  return {
    metadata: { name },
    spec: { template: { ...(annotations ? { metadata: { annotations } } : {}), spec: { restartPolicy: 'Never', containers: [shell('main', script)] } }, ...spec },
  };
}

const read = (name: string) => fx.batch.readNamespacedJob({ name, namespace: 'default' });
const pods = async (jobName: string) => (await fx.core.listNamespacedPod({ namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${jobName}` })).items;
const conditionsOf = (j: any) => (j.status?.conditions ?? []).map((c: any) => `${c.type}=${c.status}/${c.reason}`);
const events = async (name: string) =>
  (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items.map((e) => `${e.type} ${e.reason} ${e.message}`);

describe('job controller', () => {
  it('a Job running `sleep 5` completes after 5 s with SuccessCriteriaMet then Complete', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('sleeper', 'sleep 5; echo done') });
    await fx.cluster.settle();
    const [pod] = await pods('sleeper');
    expect(pod!.metadata!.name).toMatch(/^sleeper-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod!.metadata!.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod!.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: 'Job', name: 'sleeper', controller: true, blockOwnerDeletion: true })]);
    expect(pod!.metadata!.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'sleeper', 'job-name': 'sleeper' });
    expect(pod!.status!.phase).toBe('Running');
    let j = await read('sleeper');
    expect(j.status).toMatchObject({ active: 1, ready: 1, terminating: 0, startTime: new Date('2024-01-15T10:00:00Z') });
    await fx.advance(4000);
    expect((await read('sleeper')).status!.active).toBe(1);
    await fx.advance(1000);
    j = await read('sleeper');
    expect(conditionsOf(j)).toEqual(['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
    expect(j.status!.conditions![1]!.message).toBe('Reached expected number of succeeded pods');
    expect(j.status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, completionTime: new Date('2024-01-15T10:00:05Z') });
    expect(j.status!.active).toBeUndefined();
    const [done] = await pods('sleeper');
    expect(done!.status!.phase).toBe('Succeeded');
    expect(done!.metadata!.finalizers).toBeUndefined();
    expect(done!.status!.containerStatuses![0]!.state!.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(await events('sleeper')).toEqual([`Normal SuccessfulCreate Created pod: ${pod!.metadata!.name}`, 'Normal Completed Job completed']);
  });

  it('kubectl wait --for=condition=complete returns once the clock moves the Job to Complete', async () => {
    fx = await startFixture();
    const cli = new Kubectl(fx.cluster.kubeconfigPath);
    try {
      const manifest = await cli.run('create', 'job', 'waited', '--image=busybox', '--dry-run=client', '-o', 'yaml', '--', 'sh', '-c', 'sleep 30');
      await fx.objects.create(parseYaml(manifest));
      await fx.cluster.settle();
      const waiting = cli.run('wait', '--for=condition=complete', 'job/waited', '--timeout=60s');
      await fx.advance(30_000);
      expect(await waiting).toContain('job.batch/waited condition met');
      const table = await cli.run('get', 'job', 'waited');
      expect(table).toMatch(/waited\s+Complete\s+1\/1\s+30s/);
    } finally {
      cli.dispose();
    }
  });

  it('failures beyond backoffLimit end in FailureTarget then Failed (BackoffLimitExceeded), with pod failure backoff', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('failing', 'sleep 1; exit 3', { backoffLimit: 1 }) });
    await fx.cluster.settle();
    await fx.advance(1000); // first pod fails
    expect((await read('failing')).status).toMatchObject({ failed: 1 });
    expect((await pods('failing')).length).toBe(1); // backoff: 10 s before the replacement
    await fx.advance(10_000);
    expect((await pods('failing')).length).toBe(2);
    await fx.advance(1000);
    const j = await read('failing');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
    expect(j.status).toMatchObject({ failed: 2, terminating: 0, ready: 0 });
    expect(j.status!.completionTime).toBeUndefined();
    expect(await events('failing')).toContain('Warning BackoffLimitExceeded Job has reached the specified backoff limit');
  });

  it('activeDeadlineSeconds: DeadlineExceeded deletes the running pod', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('slow', 'sleep 600', { activeDeadlineSeconds: 30 }) });
    await fx.cluster.settle();
    await fx.advance(29_000);
    expect(conditionsOf(await read('slow'))).toEqual([]);
    await fx.advance(1000);
    const j = await read('slow');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/DeadlineExceeded', 'Failed=True/DeadlineExceeded']);
    expect(j.status!.conditions![1]!.message).toBe('Job was active longer than specified deadline');
    expect(j.status).toMatchObject({ failed: 1 });
  });

  it('Failed waits until the deleted pods have terminated (status.terminating)', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('lingering', 'sleep 600', { activeDeadlineSeconds: 5 }, { 'sim.kubeforge.io/stop-delay': '10s' }) });
    await fx.cluster.settle();
    await fx.advance(5000);
    let j = await read('lingering');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/DeadlineExceeded']);
    expect(j.status).toMatchObject({ terminating: 1, ready: 0 });
    expect(j.status!.failed).toBeUndefined();
    await fx.advance(10_000);
    j = await read('lingering');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/DeadlineExceeded', 'Failed=True/DeadlineExceeded']);
    expect(j.status).toMatchObject({ terminating: 0, failed: 1 });
    expect(await pods('lingering')).toEqual([]);
  });

  it('work-queue mode (parallelism, no completions): done after the first success once no pod runs', async () => {
    fx = await startFixture();
    const body = job('queue', 'sleep 1', { parallelism: 2 });
    await fx.batch.createNamespacedJob({ namespace: 'default', body });
    await fx.cluster.settle();
    expect((await read('queue')).spec!.completions).toBeUndefined();
    expect((await read('queue')).status).toMatchObject({ active: 2 });
    await fx.advance(1000);
    const j = await read('queue');
    expect(j.status).toMatchObject({ succeeded: 2 });
    expect(conditionsOf(j)).toContain('Complete=True/CompletionsReached');
  });

  it('podReplacementPolicy: TerminatingOrFailed replaces a deleted pod at once, Failed only after it has terminated', async () => {
    fx = await startFixture();
    const slow = { 'sim.kubeforge.io/stop-delay': '10s' };
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('eager', 'sleep 600', {}, slow) });
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('patient', 'sleep 600', { podReplacementPolicy: 'Failed' }, slow) });
    await fx.cluster.settle();
    for (const name of ['eager', 'patient']) {
      const [pod] = await pods(name);
      await fx.core.deleteNamespacedPod({ name: pod!.metadata!.name!, namespace: 'default' });
    }
    await fx.cluster.settle();
    expect((await pods('eager')).length).toBe(2);
    expect((await pods('patient')).length).toBe(1);
    expect((await read('patient')).status).toMatchObject({ terminating: 1 });
    await fx.advance(10_000); // terminated: counted as failed, then the 10 s pod failure back-off
    expect((await read('patient')).status).toMatchObject({ terminating: 0, failed: 1 });
    await fx.advance(10_000);
    const patient = await pods('patient');
    expect(patient.map((p) => p.status!.phase)).toEqual(['Running']);
  });

  it('parallelism and completions: 3 completions, 2 at a time', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('batch', 'sleep 2', { parallelism: 2, completions: 3 }) });
    await fx.cluster.settle();
    expect((await read('batch')).status).toMatchObject({ active: 2 });
    await fx.advance(2000);
    expect((await read('batch')).status).toMatchObject({ succeeded: 2, active: 1 });
    await fx.advance(2000);
    const j = await read('batch');
    expect(j.status).toMatchObject({ succeeded: 3 });
    expect(conditionsOf(j)).toContain('Complete=True/CompletionsReached');
    expect((await pods('batch')).length).toBe(3);
  });

  it('suspend deletes active pods and resume starts again', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('pausable', 'sleep 100') });
    await fx.cluster.settle();
    await fx.batch.patchNamespacedJob({ name: 'pausable', namespace: 'default', body: [{ op: 'replace', path: '/spec/suspend', value: true }] });
    await fx.cluster.settle();
    let j = await read('pausable');
    expect(conditionsOf(j)).toEqual(['Suspended=True/JobSuspended']);
    expect(j.status!.active).toBeUndefined();
    await fx.batch.patchNamespacedJob({ name: 'pausable', namespace: 'default', body: [{ op: 'replace', path: '/spec/suspend', value: false }] });
    await fx.cluster.settle();
    j = await read('pausable');
    expect(conditionsOf(j)).toEqual(['Suspended=False/JobResumed']);
    expect(j.status).toMatchObject({ active: 1 });
  });

  it('annotations drive the simulated outcome, and pods: inert leaves pods Pending', async () => {
    fx = await startFixture({ pods: 'inert' });
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('waiting', 'echo hi') });
    await fx.cluster.settle();
    await fx.advance(60_000);
    const [pod] = await pods('waiting');
    expect(pod!.status!.phase).toBe('Pending');
    expect((await read('waiting')).status).toMatchObject({ active: 1, ready: 0 });
  });

  it('a pod annotated outcome=fail fails even though its command would succeed', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('annotated', 'echo ok', { backoffLimit: 0 }, { 'sim.kubeforge.io/outcome': 'fail', 'sim.kubeforge.io/run-duration': '3s' }) });
    await fx.cluster.settle();
    await fx.advance(3000);
    const j = await read('annotated');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
    const [pod] = await pods('annotated');
    expect(pod!.status!.containerStatuses![0]!.state!.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
  });

  it('Indexed: pods carry their completion index and completedIndexes is compressed', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('indexed', 'sleep 1', { completionMode: 'Indexed', completions: 3, parallelism: 2 }) });
    await fx.cluster.settle();
    let list = await pods('indexed');
    expect(list.map((p) => p.metadata!.name!.replace(/-[a-z0-9]{5}$/, ''))).toEqual(['indexed-0', 'indexed-1']);
    expect(list[0]!.metadata!.labels!['batch.kubernetes.io/job-completion-index']).toBe('0');
    expect(list[0]!.spec!.hostname).toBe('indexed-0');
    await fx.advance(1000);
    expect((await read('indexed')).status!.completedIndexes).toBe('0-1');
    await fx.advance(1000);
    const j = await read('indexed');
    expect(j.status).toMatchObject({ completedIndexes: '0-2', succeeded: 3 });
    expect(conditionsOf(j)).toContain('Complete=True/CompletionsReached');
    list = await pods('indexed');
    expect(list.map((p) => p.metadata!.annotations!['batch.kubernetes.io/job-completion-index']).sort()).toEqual(['0', '1', '2']);
  });

  it('restartPolicy OnFailure: container restarts count against backoffLimit', async () => {
    fx = await startFixture();
    const body = job('restarts', 'sleep 1; exit 1', { backoffLimit: 1 });
    body.spec.template.spec.restartPolicy = 'OnFailure';
    await fx.batch.createNamespacedJob({ namespace: 'default', body });
    await fx.cluster.settle();
    await fx.advance(1000);
    const j = await read('restarts');
    expect(conditionsOf(j)).toEqual(['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
    expect(j.status).toMatchObject({ failed: 1, terminating: 0 });
  });

  it('switched off: a Job gets no pods and no status (drive it yourself, as on envtest)', async () => {
    fx = await startFixture({ controllers: { job: false } });
    await fx.batch.createNamespacedJob({ namespace: 'default', body: job('manual', 'echo') });
    await fx.cluster.settle();
    expect(await pods('manual')).toEqual([]);
    expect((await read('manual')).status?.startTime).toBeUndefined();
  });
});
