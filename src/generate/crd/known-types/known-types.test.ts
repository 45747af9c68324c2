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

  it('hands out a fresh copy each time', () => {
    const a = knownType('core/v1.ObjectReference')!;
    a.schema.type = 'mutated';
    expect(knownType('core/v1.ObjectReference')!.schema.type).toBe('object');
  });

  it('knows nothing of types it has no schema for', () => {
    expect(knownType('core/v1.NoSuchType')).toBeUndefined();
  });
});
