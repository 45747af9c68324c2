/** Task Pods and context-variable substitution (reference-operators spec §4.1, §4.5, KF-F6). */
import { startedJob } from '../../test/job-fixtures.js';
import { taskPod } from './task-pod.js';
import { makeSubstituter, substitutePodSpec, taskVariables } from './task-substitution.js';

describe('makeSubstituter', () => {
  it('applies maps most important first and blanks leftover context variables', () => {
    const substitute = makeSubstituter([{ 'job.name': 'override' }, { 'job.name': 'real', 'job.uid': 'u' }]);
    expect(substitute('${job.name}/${job.uid}/${job.unknown}/${option.x}/${other.y}/${job.}')).toBe('override/u///${other.y}/${job.}');
  });

  it('expands a value containing a variable of a later map, in ascending key order (KF-F6)', () => {
    const substitute = makeSubstituter([{ 'option.b': '${option.a}', 'option.a': 'A' }, { 'task.name': 't' }]);
    // option.a is replaced before option.b, so the ${option.a} that option.b brings in stays and is blanked.
    expect(substitute('${option.b}|${option.a}')).toBe('|A');
    expect(makeSubstituter([{ 'option.a': '${task.name}' }, { 'task.name': 't' }])('${option.a}')).toBe('t');
  });
});

describe('taskVariables', () => {
  it('gives exactly one kind of index variable and a 0-based retry index', () => {
    const base = { name: 'n', namespace: 'ns', retryIndex: 0 };
    expect(taskVariables({ ...base, parallelIndex: { indexNumber: 0 } })).toEqual({ 'task.name': 'n', 'task.namespace': 'ns', 'task.retry_index': '0', 'task.index_num': '0' });
    expect(taskVariables({ ...base, parallelIndex: { indexKey: 'k' } })['task.index_key']).toBe('k');
    expect(taskVariables({ ...base, parallelIndex: { matrixValues: { goos: 'linux' } } })).toMatchObject({ 'task.index_matrix.goos': 'linux' });
  });
});

describe('substitutePodSpec', () => {
  it('touches only image, command, args and env values of containers and init containers', () => {
    const job = startedJob({ maxAttempts: 3 });
    job.spec.substitutions = { 'option.tag': '1.0' };
    const spec = substitutePodSpec(
      {
        hostname: '${job.name}',
        initContainers: [{ name: 'init', image: 'x:${option.tag}' }],
        containers: [{ name: '${job.name}', image: 'img:${option.tag}', command: ['${job.type}'], args: ['${job.max_attempts}', '${task.retry_index}'], env: [{ name: 'A', value: '${job.namespace}' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'x' } } }] }],
      },
      job,
      { name: 'j-gezdqo-1', namespace: 'default', retryIndex: 1, parallelIndex: { indexNumber: 0 } },
    );
    expect(spec.hostname).toBe('${job.name}');
    expect(spec.initContainers![0]!.image).toBe('x:1.0');
    expect(spec.containers[0]).toEqual({ name: '${job.name}', image: 'img:1.0', command: ['Adhoc'], args: ['3', '1'], env: [{ name: 'A', value: 'default' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'x' } } }] });
  });
});

describe('taskPod', () => {
  it('names, labels, annotates and owns the Pod, merging the template metadata', () => {
    const job = startedJob({ parallelism: { withCount: 2 } });
    job.spec.template!.taskTemplate.pod = { metadata: { labels: { app: 'x' }, annotations: { note: 'y' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i', args: ['${task.name}'] }] } };
    const pod = taskPod(job, { indexNumber: 1 }, 0);
    expect(pod.metadata).toEqual({
      name: 'j-gi3dgn-0',
      namespace: 'default',
      labels: { app: 'x', 'execution.furiko.io/job-uid': 'uid-1', 'execution.furiko.io/task-retry-index': '0', 'execution.furiko.io/task-parallel-index-hash': 'gi3dgn' },
      annotations: { note: 'y', 'execution.furiko.io/task-parallel-index': '{"indexNumber":1}' },
      ownerReferences: [{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'Job', name: 'j', uid: 'uid-1', controller: true, blockOwnerDeletion: true }],
    });
    expect(pod.spec).toEqual({ restartPolicy: 'Never', containers: [{ name: 'c', image: 'i', args: ['j-gi3dgn-0'] }] });
  });
});
