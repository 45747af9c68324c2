/**
 * The local cluster's nodes as kind 1.32 makes them for a cluster called `kubeforge`: their names
 * (kubeforge-control-plane, kubeforge-worker, kubeforge-worker2, …), and the Node and node Lease
 * objects a freshly joined kubelet registers — labels, taints, addresses, podCIDR, capacity, nodeInfo.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import type { KubeObject, Stored } from '../store/object-store.js';

export const clusterName = 'kubeforge';
export const controlPlaneNodeName = `${clusterName}-control-plane`;
export const controlPlaneRoleLabel = 'node-role.kubernetes.io/control-plane';
export const nodeLeaseNamespace = 'kube-node-lease';
export const kubeletVersion = 'v1.32.4';
/** The kubelet's port; what the API server would dial for logs, exec, attach, port-forward and proxy. */
export const kubeletPort = 10250;

/** kind's node names: the control plane first, then `-worker`, `-worker2`, `-worker3`, … */
export function nodeNames(count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`nodes: expected a whole number of nodes, at least 1, got ${count}`);
  return [controlPlaneNodeName, ...Array.from({ length: count - 1 }, (_, i) => `${clusterName}-worker${i === 0 ? '' : i + 1}`)];
}

/** The node's InternalIP on kind's docker network (control plane 172.18.0.2, then .3, …). */
export function nodeInternalIP(index: number): string {
  return `172.18.0.${index + 2}`;
}

/** The node's pod range (kind's 10.244.0.0/16 cut in /24s, one per node in joining order). */
export function nodePodCIDR(index: number): string {
  return `10.244.${index}.0/24`;
}

export const nodeCapacity = {
  cpu: '8',
  'ephemeral-storage': '102626232Ki',
  'hugepages-1Gi': '0',
  'hugepages-2Mi': '0',
  memory: '16365228Ki',
  pods: '110',
};

function hex(seed: string, length: number): string {
  let h = 2166136261;
  let out = '';
  while (out.length < length) {
    for (const ch of seed + out.length) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, length);
}

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The conditions a healthy kubelet posts, heartbeat and transition at `at`. */
export function healthyNodeConditions(at: string): Array<Record<string, string>> {
  const c = (type: string, status: string, reason: string, message: string): Record<string, string> => ({ type, status, lastHeartbeatTime: at, lastTransitionTime: at, reason, message });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

/** The Node object of the `index`th node of a cluster of `count` nodes, registered at `at`. */
export function nodeObject(name: string, index: number, count: number, at: string): KubeObject {
  const controlPlane = index === 0;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
  };
  if (controlPlane) {
    labels[controlPlaneRoleLabel] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
  }
  const cidr = nodePodCIDR(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels,
      annotations: {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: cidr,
      podCIDRs: [cidr],
      providerID: `kind://docker/${clusterName}/${name}`,
      // kind keeps the control plane's taint only when there are workers to run pods
      ...(controlPlane && count > 1 ? { taints: [{ key: controlPlaneRoleLabel, effect: 'NoSchedule' }] } : {}),
    },
    status: {
      capacity: { ...nodeCapacity },
      allocatable: { ...nodeCapacity },
      conditions: healthyNodeConditions(at),
      addresses: [
        { type: 'InternalIP', address: nodeInternalIP(index) },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
      nodeInfo: {
        machineID: hex(`machine ${name}`, 32),
        systemUUID: uuid(`system ${name}`),
        bootID: uuid(`boot ${name}`),
        kernelVersion: '6.8.0-1021-azure',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://2.0.3',
        kubeletVersion,
        kubeProxyVersion: kubeletVersion,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/** The node's heartbeat Lease in kube-node-lease, owned by its Node as the kubelet creates it. */
export function nodeLeaseObject(node: KubeObject, at: string): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node.metadata.name,
      namespace: nodeLeaseNamespace,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid! }],
    },
    spec: { holderIdentity: node.metadata.name, leaseDurationSeconds: 40, renewTime: at },
  };
}

/** The InternalIP of a Node object (what the API server dials the kubelet on). */
export function internalIPOf(node: Stored<Node> | undefined): string | undefined {
  return (node?.status?.addresses ?? []).find((a: { type: string }) => a.type === 'InternalIP')?.address;
}
