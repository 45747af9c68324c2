/**
 * core/v1 componentstatuses (deprecated since 1.19, still served by 1.32): a real server probes the
 * scheduler, the controller manager and etcd and answers `Healthy`/`ok` with a deprecation warning.
 * The local cluster runs all three in process, so they are always healthy.
 */
import type { KubeObject } from '../store/object-store.js';
import type { ResourceHandler } from './resource-handler.js';

const components = ['controller-manager', 'scheduler', 'etcd-0'];

export function componentStatuses(): KubeObject[] {
  return components.map((name) => ({
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  }) as unknown as KubeObject);
}

export function installComponentStatuses(handler: ResourceHandler): void {
  handler.virtualReads.set('/componentstatuses', { objects: componentStatuses, warning: 'v1 ComponentStatus is deprecated in v1.19+' });
}
