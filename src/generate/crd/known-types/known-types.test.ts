// The known-Kubernetes-types catalogue: every entry expands (no dangling references), is a structural schema,
// and keeps the descriptions of the place a nested type is used at.
import { checkStructuralSchema } from '../structural.js';
import { knownType, knownTypeKeys } from './index.js';

describe('known types catalogue', () => {
  it.each(knownTypeKeys())('%s expands to a structural schema', (key) => {
    const known = knownType(key)!;
    expect(known).toBeDefined();
    expect(JSON.stringify(known.schema)).not.toContain('$known');
    const wrapped = { type: 'object', properties: { value: known.schema } };
    expect(checkStructuralSchema(wrapped as never)).toEqual([]);
  });

  it('expands nested types with the description of their use site', () => {
    const jobTemplate = knownType('batch/v1.JobTemplateSpec')!;
    expect(jobTemplate.description).toBe('JobTemplateSpec describes the data a Job should have when created from a template');
    const template = jobTemplate.schema.properties!.spec!.properties!.template!;
    expect(template.description).toMatch(/^Describes the pod that will be created when executing a job/);
    expect(template.properties!.spec!.properties!.containers!.items!.description).toBe(
      'A single application container that you want to run within a pod.',
    );
  });

  it('names the types nested inside the big ones, with the type doc of an item and shared subtrees', () => {
    for (const key of ['core/v1.PodAffinityTerm', 'core/v1.WeightedPodAffinityTerm', 'core/v1.NodeSelectorTerm', 'core/v1.VolumeProjection',
      'core/v1.LifecycleHandler', 'core/v1.ContainerResizePolicy', 'core/v1.ExecAction', 'core/v1.HTTPGetAction',
      'core/v1.TCPSocketAction', 'core/v1.SeccompProfile']) {
      expect(knownTypeKeys()).toContain(key);
    }
    const term = knownType('core/v1.PodAffinityTerm')!;
    expect(term.description).toMatch(/^Defines a set of pods/);
    const affinity = knownType('core/v1.PodAffinity')!;
    const required = affinity.schema.properties!.requiredDuringSchedulingIgnoredDuringExecution!;
    expect(required.items!.description).toBe(term.description);
    expect(required.items!.properties).toBe(term.schema.properties);
  });

  it('hands out a fresh copy each time', () => {
    const a = knownType('core/v1.ObjectReference')!;
    a.schema.type = 'mutated';
    expect(knownType('core/v1.ObjectReference')!.schema.type).toBe('object');
  });

  it('knows nothing of types it has no schema for', () => {
    expect(knownType('core/v1.NoSuchType')).toBeUndefined();
  });
});
