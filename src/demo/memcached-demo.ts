/**
 * The memcached part of the demo (examples/memcached, the kubebuilder book's Getting Started operator):
 * its tables (`kubectl get memcached,deploy,rs` and its pods) while the Deployment rolls out, the
 * tutorial's scale from 1 to 3 with `kubectl patch`, a line per step with the pods ready, and the final
 * check that the Deployment is available at the new size and the Memcached says so.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { BuiltinKinds, defineKind, isNotFound, type KubeObject } from '../runtime/index.js';
import type { TestEnv } from '../testing/index.js';

/** After which virtual minute the demo scales memcached-sample, and to what size. */
export const MEMCACHED_SCALE_MINUTE = 1;
export const MEMCACHED_SCALED_SIZE = 3;

const key = { namespace: 'default', name: 'memcached-sample' };
const MemcachedKind = defineKind<KubeObject & { spec?: { size?: number }; status?: { conditions?: Array<{ type: string; status: string; message?: string }> } }>({
  group: 'cache.example.com',
  version: 'v1alpha1',
  kind: 'Memcached',
  plural: 'memcacheds',
  namespaced: true,
});

type Kubectl = (env: TestEnv, args: string[]) => Promise<void>;

/** The rollout as kubectl shows it: the Memcached, its Deployment and ReplicaSet, and its pods. */
export async function showMemcached(env: TestEnv, kubectl: Kubectl): Promise<void> {
  await kubectl(env, ['get', 'memcached,deploy,rs']);
  await kubectl(env, ['get', 'pods', '-l', 'app.kubernetes.io/managed-by=MemcachedController']);
}

/** The tutorial's next step: a bigger size, which the controller copies to the Deployment. */
export async function scaleMemcached(env: TestEnv, kubectl: Kubectl): Promise<void> {
  await kubectl(env, ['patch', 'memcached', 'memcached-sample', '--type', 'merge', '-p', JSON.stringify({ spec: { size: MEMCACHED_SCALED_SIZE } })]);
  await env.settle();
}

async function deployment(env: TestEnv): Promise<Deployment | undefined> {
  try {
    return await env.manager.apiReader().get(BuiltinKinds.Deployment, key);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** `memcached-sample: 1/1 pods ready` (or that its Deployment is not there yet). */
export async function memcachedLine(env: TestEnv): Promise<string> {
  const dep = await deployment(env);
  if (!dep) return 'memcached-sample: no Deployment yet';
  return `memcached-sample: ${dep.status?.readyReplicas ?? 0}/${dep.spec?.replicas ?? 0} pods ready`;
}

/** The Deployment available at `size` with every replica ready, and the Memcached's Available=True message. */
export async function memcachedCheck(env: TestEnv, size: number): Promise<{ met: boolean; line: string; closing: string }> {
  const dep = await deployment(env);
  const memcached = await env.manager.apiReader().get(MemcachedKind, key);
  const available = memcached.status?.conditions?.find((c) => c.type === 'Available');
  const depAvailable = dep?.status?.conditions?.find((c) => c.type === 'Available')?.status === 'True';
  const ready = dep?.status?.availableReplicas ?? 0;
  const message = `Deployment for custom resource (memcached-sample) with ${size} replicas created successfully`;
  const met = dep?.spec?.replicas === size && ready === size && depAvailable && available?.status === 'True' && available.message === message;
  return {
    met,
    line: `Memcached memcached-sample: Deployment ${ready}/${size} available${depAvailable ? ' (Available=True)' : ''}; Memcached Available=${available?.status ?? 'unset'} — "${available?.message ?? ''}"`,
    closing: `memcached-sample runs ${ready}/${size} memcached pods`,
  };
}
