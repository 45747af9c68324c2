/**
 * The volumes of pods run as real processes. The kubelet writes the Secret, ConfigMap and emptyDir
 * volumes a container mounts into the pod's folder at their mount paths (`<pod folder>/<mountPath>`,
 * where the ServiceAccount token already is), and a small module every Node.js process of the pod
 * loads first (`NODE_OPTIONS=--import`, beside pod-network.ts's) makes the program's file reads under
 * a mount path read there — the mount namespace a container would have. So a manager started with
 * `--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs` and the `webhook-server-cert` Secret
 * mounted there reads cert-manager's certificate, with nothing in the program changed.
 *
 * The contents are written when a container starts (a real kubelet also refreshes them later); a
 * Secret or ConfigMap volume that is not optional and does not exist keeps the pod ContainerCreating
 * with a FailedMount event, as on a cluster.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Container, Pod, Volume } from 'kubernetes-types/core/v1.js';
import type { KubeObject, Stored } from '../store/object-store.js';

/** The mount paths the pod-volumes module redirects (newline-separated) and the folder they live under. */
export const volumeMountsEnv = 'KUBEFORGE_VOLUME_MOUNTS';
export const podRootEnv = 'KUBEFORGE_POD_ROOT';

interface SourceReader {
  secret(namespace: string, name: string): KubeObject | undefined;
  configMap(namespace: string, name: string): KubeObject | undefined;
}

/** Why the pod cannot mount its volumes yet (the FailedMount message), or undefined. */
export function missingVolumeSource(pod: Stored<Pod>, read: SourceReader): string | undefined {
  const ns = pod.metadata.namespace!;
  for (const v of (pod.spec?.volumes ?? []) as Volume[]) {
    if (v.secret && !v.secret.optional && !read.secret(ns, v.secret.secretName!)) return `MountVolume.SetUp failed for volume "${v.name}" : secret "${v.secret.secretName}" not found`;
    if (v.configMap && !v.configMap.optional && !read.configMap(ns, v.configMap.name!)) return `MountVolume.SetUp failed for volume "${v.name}" : configmap "${v.configMap.name}" not found`;
  }
  return undefined;
}

/** A Secret's or ConfigMap's files: key (or the item's path) → bytes. */
function filesOf(source: KubeObject | undefined, items: Array<{ key: string; path: string }> | undefined, binary: boolean): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!source) return files;
  const all = new Map<string, Buffer>();
  for (const [k, v] of Object.entries((source.data ?? {}) as Record<string, string>)) all.set(k, binary ? Buffer.from(v, 'base64') : Buffer.from(v));
  for (const [k, v] of Object.entries((source.binaryData ?? {}) as Record<string, string>)) all.set(k, Buffer.from(v, 'base64'));
  if (!items?.length) return all;
  for (const item of items) if (all.has(item.key)) files.set(item.path, all.get(item.key)!);
  return files;
}

/**
 * Writes the volumes `container` mounts under `podDir` (subPath mounts a single entry) and returns
 * their mount paths, for the pod-volumes module.
 */
export function writeContainerVolumes(pod: Stored<Pod>, container: Container, podDir: string, read: SourceReader): string[] {
  const ns = pod.metadata.namespace!;
  const volumes = new Map<string, Volume>(((pod.spec?.volumes ?? []) as Volume[]).map((v) => [v.name, v]));
  const mounted: string[] = [];
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    if (!volume || typeof mount.mountPath !== 'string' || !mount.mountPath.startsWith('/')) continue;
    let files: Map<string, Buffer> | undefined;
    if (volume.secret) files = filesOf(read.secret(ns, volume.secret.secretName!), volume.secret.items, true);
    else if (volume.configMap) files = filesOf(read.configMap(ns, volume.configMap.name!), volume.configMap.items, false);
    else if (volume.emptyDir) files = new Map();
    else continue;
    const target = join(podDir, mount.mountPath);
    if (mount.subPath) {
      const one = files.get(mount.subPath);
      mkdirSync(dirname(target), { recursive: true });
      if (one) writeFileSync(target, one);
      else mkdirSync(join(podDir, 'volumes', mount.name, mount.subPath), { recursive: true });
    } else {
      mkdirSync(target, { recursive: true });
      for (const [path, bytes] of files) {
        mkdirSync(dirname(join(target, path)), { recursive: true });
        writeFileSync(join(target, path), bytes);
      }
    }
    mounted.push(mount.mountPath.replace(/\/+$/, ''));
  }
  return mounted;
}

/** The module loaded into a pod's Node.js processes: file reads under $KUBEFORGE_VOLUME_MOUNTS go to $KUBEFORGE_POD_ROOT<path>. */
export const podVolumesModule = `// kubeforge: reads under this container's mount paths read the pod's volumes (its mount namespace)
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
const root = process.env.${podRootEnv};
const mounts = (process.env.${volumeMountsEnv} || '').split('\\n').filter(Boolean);
const inMount = (p) => mounts.some((m) => p === m || p.startsWith(m + '/'));
const mapped = (p) => {
  if (p instanceof URL && p.protocol === 'file:') p = fileURLToPath(p);
  return typeof p === 'string' && p.startsWith('/') && inMount(p) ? root + p : p;
};
if (root && mounts.length) {
  const names = ['readFileSync', 'readFile', 'existsSync', 'exists', 'statSync', 'stat', 'lstatSync', 'lstat', 'readdirSync', 'readdir', 'openSync', 'open', 'accessSync', 'access', 'watch', 'watchFile', 'unwatchFile', 'createReadStream', 'realpathSync', 'realpath', 'opendirSync', 'opendir'];
  for (const name of names) {
    const original = fs[name];
    if (typeof original !== 'function') continue;
    const wrapped = function (p, ...rest) { return original.call(this, mapped(p), ...rest); };
    Object.assign(wrapped, original);
    fs[name] = wrapped;
  }
  for (const name of ['readFile', 'stat', 'lstat', 'readdir', 'open', 'access', 'realpath', 'opendir', 'watch']) {
    const original = fs.promises[name];
    if (typeof original !== 'function') continue;
    fs.promises[name] = function (p, ...rest) { return original.call(this, mapped(p), ...rest); };
  }
  syncBuiltinESMExports();
}
`;
