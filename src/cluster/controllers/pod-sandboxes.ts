/**
 * The sandboxes of pods run as real processes, one per pod: its loopback pod IP (src/cluster/controllers/pod-network.ts),
 * and a folder holding its home, the module that gives its processes the pod's network and host name,
 * and the ServiceAccount token, cluster CA and namespace the kubelet mounts at
 * /var/run/secrets/kubernetes.io/serviceaccount — here `<pod folder>/var/run/secrets/kubernetes.io/serviceaccount`,
 * so client-node's `loadFromCluster(<pod folder>)` reads it as well as KUBEFORGE_SERVICEACCOUNT_DIR does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../clock/clock.js';
import { apiAudiences } from '../http/authentication.js';
import type { ServiceAccountTokenIssuer } from '../http/service-account-issuer.js';
import { extendedExpirationSeconds, warnOnlyExpirationSeconds } from '../http/token-request.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { Stored } from '../store/object-store.js';
import { ContainerConfigError } from './container-env.js';
import type { ControllerClient } from './controller-client.js';
import { podLoopbackAddress, podNetworkModule } from './pod-network.js';
import { podVolumesModule } from './pod-volumes.js';

/** The path in a container where the ServiceAccount token, CA and namespace are mounted. */
export const serviceAccountMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface PodSandbox {
  dir: string;
  ip: string;
  /** Where token, ca.crt and namespace are (KUBEFORGE_SERVICEACCOUNT_DIR). */
  serviceAccountDir: string;
  homeDir: string;
  /** The module every Node.js process of the pod loads first (pod-network.ts). */
  networkModule: string;
  /** The module that makes reads under the container's mount paths read the pod's volumes (pod-volumes.ts). */
  volumesModule: string;
}

export interface SandboxSettings {
  /** Where the per-pod folders go. */
  root: string;
  caCertPem: string;
  /** Signs the pods' ServiceAccount tokens (absent: no token is written). */
  tokenIssuer?: ServiceAccountTokenIssuer;
  /** The second octet of this cluster's pod addresses (claimPodNetwork). */
  podNetworkOctet: number;
}

/** A folder for the per-pod folders (removed when the cluster stops). */
export function podSandboxesRoot(): string {
  return mkdtempSync(join(tmpdir(), 'kubeforge-pods-'));
}

export class PodSandboxes {
  /** Pod uid → its address, for the sandboxes of this node. */
  private readonly ips = new Map<string, string>();

  constructor(
    private readonly settings: SandboxSettings,
    private readonly node: { name: string; index: number },
    private readonly client: ControllerClient,
    private readonly clock: Clock,
    private readonly newId: () => string,
  ) {}

  /** The first free address of the node's block: held by no sandbox, nor recorded by a pod not yet seen again (after a restart). */
  private allocateIP(): string {
    const recorded = this.client
      .list('pods')
      .map((p) => asStored<Pod>(p))
      .filter((p) => p.spec?.nodeName === this.node.name && p.status?.podIP?.startsWith('127.'))
      .map((p) => p.status!.podIP!);
    const taken = new Set([...this.ips.values(), ...recorded]);
    for (let host = 2; host < 255; host++) {
      const ip = podLoopbackAddress(this.settings.podNetworkOctet, this.node.index, host);
      if (!taken.has(ip)) return ip;
    }
    throw new Error(`node ${this.node.name}: no process pod address left in ${podLoopbackAddress(this.settings.podNetworkOctet, this.node.index, 0)}/24`);
  }

  /** Makes the pod's sandbox: its address (the one its status records, after a restart) and folder. */
  create(pod: Stored<Pod>): PodSandbox {
    const uid: string = pod.metadata.uid!;
    const dir = join(this.settings.root, `${pod.metadata.namespace}_${pod.metadata.name}_${uid}`);
    const homeDir = join(dir, 'home');
    mkdirSync(homeDir, { recursive: true });
    const networkModule = join(dir, 'pod-network.mjs');
    writeFileSync(networkModule, podNetworkModule);
    const volumesModule = join(dir, 'pod-volumes.mjs');
    writeFileSync(volumesModule, podVolumesModule);
    const recorded: string | undefined = pod.status?.podIP;
    const ip = recorded?.startsWith('127.') ? recorded : this.allocateIP();
    this.ips.set(uid, ip);
    return { dir, ip, serviceAccountDir: join(dir, serviceAccountMountPath), homeDir, networkModule, volumesModule };
  }

  /** Frees the pod's address and removes its folder. */
  remove(podUid: string, sandbox: PodSandbox): void {
    this.ips.delete(podUid);
    rmSync(sandbox.dir, { recursive: true, force: true });
  }

  /** The token (bound to the pod and node, as the kubelet's projected one), CA and namespace files. */
  writeServiceAccount(pod: Stored<Pod>, sandbox: PodSandbox): void {
    if (pod.spec?.automountServiceAccountToken === false) return;
    mkdirSync(sandbox.serviceAccountDir, { recursive: true });
    const namespace: string = pod.metadata.namespace!;
    const accountName: string = pod.spec?.serviceAccountName ?? 'default';
    writeFileSync(join(sandbox.serviceAccountDir, 'ca.crt'), this.settings.caCertPem);
    writeFileSync(join(sandbox.serviceAccountDir, 'namespace'), namespace);
    if (!this.settings.tokenIssuer) return;
    const account = this.client.get('serviceaccounts', namespace, accountName);
    if (!account) throw new ContainerConfigError(`serviceaccounts "${accountName}" not found`);
    const node = pod.spec?.nodeName ? this.client.get('nodes', undefined, pod.spec.nodeName) : undefined;
    const issuedAt = Math.floor(this.clock.now() / 1000);
    const token = this.settings.tokenIssuer.sign({
      namespace,
      name: accountName,
      uid: account.metadata.uid ?? '',
      audiences: apiAudiences,
      issuedAt,
      // what the kubelet asks for (an hour and 7 s) is extended to a year, reported stale after the hour
      expirationSeconds: extendedExpirationSeconds,
      warnAfter: issuedAt + warnOnlyExpirationSeconds,
      id: this.newId().slice(0, 32),
      pod: { name: pod.metadata.name, uid: pod.metadata.uid! },
      ...(pod.spec?.nodeName ? { node: { name: pod.spec.nodeName, ...(node?.metadata.uid ? { uid: node.metadata.uid } : {}) } } : {}),
    });
    writeFileSync(join(sandbox.serviceAccountDir, 'token'), token);
  }
}
