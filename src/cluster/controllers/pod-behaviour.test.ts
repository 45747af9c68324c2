import { describe, expect, it } from '@jest/globals';
import { parseDuration, podBehaviour, readCommand } from './pod-behaviour.js';

const pod = (annotations: Record<string, string>, command: string[], jobOwned = false): any => ({
  metadata: {
    name: 'p',
    namespace: 'default',
    annotations,
    ...(jobOwned ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u', controller: true }] } : {}),
  },
  spec: { containers: [{ name: 'c', image: 'busybox', command }] },
});

describe('simulated pod behaviour', () => {
  it('reads `sleep N; exit M` from the command', () => {
    expect(readCommand({ command: ['sh', '-c', 'sleep 5; exit 3'] } as any)).toEqual({ runMs: 5000, exitCode: 3 });
    expect(readCommand({ command: ['sleep'], args: ['1m30s'] } as any)).toEqual({ runMs: 90_000 });
    expect(readCommand({ command: ['sh', '-c', 'echo x && false'] } as any)).toEqual({ exitCode: 1 });
    expect(readCommand({ command: ['sleep', 'infinity'] } as any)).toEqual({ forever: true });
  });

  it('defaults: 1 s for Job pods, forever for other pods, unless the command says otherwise', () => {
    expect(podBehaviour(pod({}, ['echo', 'hi'], true)).runDurationMs).toBe(1000);
    expect(podBehaviour(pod({}, ['nginx'])).runDurationMs).toBeUndefined();
    expect(podBehaviour(pod({}, ['sh', '-c', 'sleep 7'])).runDurationMs).toBe(7000);
    expect(podBehaviour(pod({}, ['sh', '-c', 'exit 2']))).toMatchObject({ runDurationMs: 1000, exitCode: 2 });
  });

  it('annotations override the command', () => {
    const b = podBehaviour(pod({ 'sim.kubeforge.io/run-duration': '30s', 'sim.kubeforge.io/exit-code': '4', 'sim.kubeforge.io/start-delay': '2s' }, ['sh', '-c', 'sleep 5']));
    expect(b).toMatchObject({ runDurationMs: 30_000, exitCode: 4, startDelayMs: 2000, outcome: 'run' });
    expect(podBehaviour(pod({ 'sim.kubeforge.io/outcome': 'hang' }, ['sh', '-c', 'sleep 5'], true)).runDurationMs).toBeUndefined();
    expect(podBehaviour(pod({ 'sim.kubeforge.io/outcome': 'fail' }, ['true'], true)).exitCode).toBe(1);
  });

  it('bad annotations are errors naming the pod and the annotation', () => {
    expect(() => podBehaviour(pod({ 'sim.kubeforge.io/run-duration': 'soon' }, []))).toThrow(
      'pod default/p: annotation sim.kubeforge.io/run-duration: invalid duration "soon" (expected e.g. 5s, 1m30s, 250ms)',
    );
    expect(() => podBehaviour(pod({ 'sim.kubeforge.io/outcome': 'explode' }, []))).toThrow(/unknown outcome "explode"/);
    expect(() => podBehaviour(pod({ 'sim.kubeforge.io/readiness': 'maybe' }, []))).toThrow('pod default/p: annotation sim.kubeforge.io/readiness: expected pass or fail, got "maybe"');
    expect(podBehaviour(pod({ 'sim.kubeforge.io/readiness': 'fail' }, [])).readiness).toBe('fail');
    expect(parseDuration('1h30m', 'x')).toBe(5_400_000);
  });
});
