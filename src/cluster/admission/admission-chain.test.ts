/** The built-in admission chain: kube-apiserver's order, switching plugins off, adding one with a single entry. */
import { AdmissionChain, type AdmissionPluginDefinition, type AdmissionRequest, builtinAdmissionPlugins } from './admission-chain.js';
import { ObjectStore } from '../store/object-store.js';
import { ResourceCatalog } from '../registry/resource-catalog.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';

const services = () => ({ store: new ObjectStore({ initialResourceVersion: 1, historyLimit: 10 }), catalog: new ResourceCatalog([]), clock: new VirtualClock(0) });

test('the plugins run in kube-apiserver 1.32 order: ResourceQuota last', () => {
  expect(new AdmissionChain(services()).names()).toEqual(['LimitRanger', 'ServiceAccount', 'PodSecurity', 'Priority', 'ValidatingAdmissionPolicy', 'ResourceQuota']);
});

test('plugins can be switched off by name', () => {
  expect(new AdmissionChain(services(), { disabled: ['PodSecurity', 'ResourceQuota', 'ServiceAccount'] }).names()).toEqual(['LimitRanger', 'Priority', 'ValidatingAdmissionPolicy']);
});

test('a plugin off by default is switched on by name, in its place (after Priority, as in kube-apiserver)', () => {
  expect(new AdmissionChain(services(), { enabled: ['OwnerReferencesPermissionEnforcement'] }).names()).toEqual([
    'LimitRanger', 'ServiceAccount', 'PodSecurity', 'Priority', 'OwnerReferencesPermissionEnforcement', 'ValidatingAdmissionPolicy', 'ResourceQuota',
  ]);
});

test('an unknown plugin name is refused, naming the known ones', () => {
  expect(() => new AdmissionChain(services(), { enabled: ['OwnerReferencesPermissionEnforcment'] })).toThrow(
    /admission plugins: unknown plugin name\(s\) "OwnerReferencesPermissionEnforcment" \(known: LimitRanger, .*OwnerReferencesPermissionEnforcement/,
  );
});

test('a plugin added as one entry mutates and validates in its place', () => {
  const seen: string[] = [];
  const defaultToleration: AdmissionPluginDefinition = {
    name: 'DefaultTolerationSeconds',
    create: () => ({
      admit(r) {
        seen.push('admit');
        asStored<Pod>(r.object!).spec!.tolerations = [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }];
      },
      validate: () => ['checked'],
    }),
  };
  const definitions = [...builtinAdmissionPlugins.slice(0, 1), defaultToleration, ...builtinAdmissionPlugins.slice(1)];
  const chain = new AdmissionChain(services(), { disabled: ['ServiceAccount', 'Priority'] }, definitions);
  expect(chain.names()[1]).toBe('DefaultTolerationSeconds');
  const request: AdmissionRequest = {
    operation: 'CREATE', rt: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true } as never, namespace: 'default', name: 'p', subresource: undefined,
    object: { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x' }] } }, oldObject: undefined, user: undefined, dryRun: false,
  };
  chain.admit(request);
  expect(asStored<Pod>(request.object!).spec!.tolerations![0]!.tolerationSeconds).toBe(300);
  expect(chain.validate(request)).toEqual(['checked']);
  expect(seen).toEqual(['admit']);
});
