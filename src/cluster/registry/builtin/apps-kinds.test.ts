/** The Deployment kind's strategy (defaults, validation, selector immutability) and its scale paths. */
import { deployments } from './apps-kinds.js';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { fieldErrorText } from '../../errors/field-errors.js';

/** A Deployment as the server validates it: after defaulting. */
const deployment = (spec: Record<string, unknown>): KubeObject => defaulted({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, ...spec },
});
const ctx = { now: 0, uid: () => 'uid-1' };
function defaulted(d: KubeObject): KubeObject {
  deployments.strategy.prepareForCreate!(d, ctx);
  return d;
}
const fields = (errs: Array<{ field: string; detail?: string }>): string[] => errs.map((e) => `${e.field}: ${e.detail ?? ''}`);

test('serves /scale over spec.replicas, status.replicas and spec.selector', () => {
  expect(deployments.scale).toEqual({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' });
  expect(deployments.statusSubresource).toBe(true);
});

test('create defaults replicas to 1 and validates the selector, containers and replicas', () => {
  const d = deployment({});
  deployments.strategy.prepareForCreate!(d, ctx);
  expect(asStored<Deployment>(d).spec?.replicas).toBe(1);
  expect(deployments.strategy.validateCreate!(d)).toEqual([]);
  expect(fields(deployments.strategy.validateCreate!(deployment({ replicas: -1 })))).toEqual(['spec.replicas: must be greater than or equal to 0']);
  expect(fields(deployments.strategy.validateCreate!(defaulted({ ...deployment({}), spec: { replicas: 0 } })))).toEqual(['spec.selector: ', 'spec.template.spec.containers: ']);
});

test('an update keeps the selector and refuses a negative replicas count', () => {
  const old = deployment({ replicas: 2 });
  expect(deployments.strategy.validateUpdate!(deployment({ replicas: 0 }), old)).toEqual([]);
  expect(fields(deployments.strategy.validateUpdate!(deployment({ replicas: -3 }), old))).toEqual(['spec.replicas: must be greater than or equal to 0']);
  const moved = deployment({ selector: { matchLabels: { app: 'other' } } });
  expect(fields(deployments.strategy.validateUpdate!(moved, old))).toEqual(['spec.template.metadata.labels: `selector` does not match template `labels`', 'spec.selector: field is immutable']);
  const relabelled = deployment({ selector: { matchLabels: { app: 'other' } }, template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  expect(deployments.strategy.validateUpdate!(relabelled, old).map(fieldErrorText)).toEqual([
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
});
