/**
 * What the kubelet hands a container process: its environment (`env` with values, `valueFrom`
 * fieldRef / resourceFieldRef / secretKeyRef / configMapKeyRef, and `envFrom`), and its argv — the
 * image's ENTRYPOINT and CMD replaced by the container's command and args as Kubernetes documents,
 * with `$(VAR)` references expanded. A reference that cannot be resolved is the kubelet's
 * CreateContainerConfigError, with the kubelet's message.
 */
import type { ConfigMap, ConfigMapKeySelector, Container, Pod, ResourceFieldSelector, Secret, SecretKeySelector } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored } from '../store/object-store.js';
import { milli } from './scheduler-plugins.js';
import type { LocalImage } from './local-images.js';

/** The kubelet cannot create the container from its spec (state waiting, reason CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

export interface EnvSources {
  secret(namespace: string, name: string | undefined): KubeObject | undefined;
  configMap(namespace: string, name: string | undefined): KubeObject | undefined;
}

/** `metadata.labels['app']` and the other downward-API field paths an env var may read. */
function fieldValue(pod: Stored<Pod>, fieldPath: string): string {
  const keyed = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (keyed) return String(pod.metadata[keyed[1] as 'labels' | 'annotations']?.[keyed[2]!] ?? '');
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata.name;
    case 'metadata.namespace':
      return pod.metadata.namespace!;
    case 'metadata.uid':
      return pod.metadata.uid!;
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return pod.status?.hostIP ?? '';
    case 'status.hostIPs':
      return (pod.status?.hostIPs ?? []).map((i) => i.ip).join(',');
    case 'status.podIP':
      return pod.status?.podIP ?? '';
    case 'status.podIPs':
      return (pod.status?.podIPs ?? []).map((i) => i.ip).join(',');
    default:
      throw new ContainerConfigError(`unsupported fieldPath: ${fieldPath}`);
  }
}

/** limits.cpu etc.: the container's value (requests fall back to limits; 0 when neither is set), divided by divisor (default 1), rounded up. */
function resourceValue(container: Container, ref: ResourceFieldSelector): string {
  const [kind, resource] = ref.resource.split('.') as [string, string];
  const lists: Record<string, Record<string, string> | undefined> = { limits: container.resources?.limits, requests: container.resources?.requests };
  const value = lists[kind]?.[resource] ?? (kind === 'requests' ? container.resources?.limits?.[resource] : undefined);
  if (value === undefined) return '0';
  const divisor = ref.divisor ? milli(String(ref.divisor)) : 1000;
  return String(Math.ceil(milli(String(value)) / divisor));
}

function secretValue(sources: EnvSources, namespace: string, ref: SecretKeySelector): string | undefined {
  const secret = sources.secret(namespace, ref.name);
  if (!secret) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`secret "${ref.name}" not found`);
  }
  const encoded = asStored<Secret>(secret).data?.[ref.key];
  if (encoded === undefined) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`couldn't find key ${ref.key} in Secret ${namespace}/${ref.name}`);
  }
  return Buffer.from(String(encoded), 'base64').toString('utf8');
}

function configMapValue(sources: EnvSources, namespace: string, ref: ConfigMapKeySelector): string | undefined {
  const configMap = sources.configMap(namespace, ref.name);
  if (!configMap) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`configmap "${ref.name}" not found`);
  }
  const { data, binaryData } = asStored<ConfigMap>(configMap);
  const value = data?.[ref.key] ?? (binaryData?.[ref.key] !== undefined ? Buffer.from(binaryData[ref.key]!, 'base64').toString('utf8') : undefined);
  if (value === undefined) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`couldn't find key ${ref.key} in ConfigMap ${namespace}/${ref.name}`);
  }
  return value;
}

/** `$(VAR)` → its value when defined (else left as is); `$$` → `$`, as the kubelet expands. */
export function expandReferences(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) => {
    if (whole === '$$') return '$';
    return name !== undefined && env[name] !== undefined ? env[name]! : whole;
  });
}

/** The container's declared environment: envFrom first, then env in order (later entries see earlier ones in `$(VAR)`). */
export function containerEnvironment(pod: KubeObject, container: Container, sources: EnvSources): Record<string, string> {
  const namespace: string = pod.metadata.namespace!;
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const prefix: string = from.prefix ?? '';
    if (from.configMapRef) {
      const cm = sources.configMap(namespace, from.configMapRef.name);
      if (!cm && !from.configMapRef.optional) throw new ContainerConfigError(`configmap "${from.configMapRef.name}" not found`);
      for (const [k, v] of Object.entries(cm?.data ?? {})) env[prefix + k] = String(v);
    }
    if (from.secretRef) {
      const secret = sources.secret(namespace, from.secretRef.name);
      if (!secret && !from.secretRef.optional) throw new ContainerConfigError(`secret "${from.secretRef.name}" not found`);
      for (const [k, v] of Object.entries(secret?.data ?? {})) env[prefix + k] = Buffer.from(String(v), 'base64').toString('utf8');
    }
  }
  for (const e of container.env ?? []) {
    const from = e.valueFrom;
    let value: string | undefined;
    if (!from) value = expandReferences(String(e.value ?? ''), env);
    else if (from.fieldRef) value = fieldValue(asStored<Pod>(pod), from.fieldRef.fieldPath);
    else if (from.resourceFieldRef) value = resourceValue(container, from.resourceFieldRef);
    else if (from.secretKeyRef) value = secretValue(sources, namespace, from.secretKeyRef);
    else if (from.configMapKeyRef) value = configMapValue(sources, namespace, from.configMapKeyRef);
    if (value !== undefined) env[e.name] = value;
  }
  return env;
}

/**
 * The argv of the container: `command` replaces the image's ENTRYPOINT (and drops its CMD), `args`
 * replace CMD; `$(VAR)` expanded from the container's environment.
 */
export function containerArgv(container: Pick<Container, 'command' | 'args'>, image: LocalImage, env: Record<string, string>): string[] {
  const command: string[] | undefined = container.command?.length ? container.command : undefined;
  const args: string[] | undefined = container.args?.length ? container.args : undefined;
  const argv = command ? [...command, ...(args ?? [])] : [...image.entrypoint, ...(args ?? image.cmd)];
  return argv.map((a) => expandReferences(String(a), env));
}
