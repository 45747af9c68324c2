/**
 * The default scheduler's plugins (kube-scheduler 1.32's default profile, the parts a simulated
 * cluster needs): filters that rule nodes out with the real reason texts, and scores that rank the
 * rest. Other parts of the cluster add their own (e.g. volume binding) through `SchedulerPlugin`.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { Container, Node, NodeSelectorTerm, Pod, PodAffinityTerm, PreferredSchedulingTerm, Toleration } from 'kubernetes-types/core/v1.js';
import { parseQuantity } from '../crd/cel/quantity-library.js';
import type { Stored } from '../store/object-store.js';

/** A node as the scheduler sees it: the Node and the pods bound to it that still hold resources. */
export interface NodeInfo {
  node: Stored<Node>;
  pods: Array<Stored<Pod>>;
}

/** Everything one scheduling cycle looks at. */
export interface CycleState {
  nodes: NodeInfo[];
  /** Every pod bound to a node (not terminal), for inter-pod affinity. */
  boundPods: Array<Stored<Pod>>;
  namespaceLabels(namespace: string): Record<string, string> | undefined;
}

/**
 * A filter's verdict: `Unschedulable` (preemption might help) or `UnschedulableAndUnresolvable`
 * (it cannot), with the reasons the FitError counts per node.
 */
export interface FilterFailure {
  code: 'Unschedulable' | 'UnschedulableAndUnresolvable';
  reasons: string[];
}

export interface SchedulerPlugin {
  readonly name: string;
  /** Fails the whole cycle before any node is looked at (e.g. "pod has unbound immediate PersistentVolumeClaims"). */
  preFilter?(pod: Stored<Pod>, state: CycleState): FilterFailure | undefined;
  /** Rules one node out, or keeps it (undefined). */
  filter?(pod: Stored<Pod>, node: NodeInfo, state: CycleState): FilterFailure | undefined;
  /** Ranks a feasible node, 0–100. */
  score?(pod: Stored<Pod>, node: NodeInfo, state: CycleState): number;
  /** Weight of `score` in the sum (default 1). */
  readonly weight?: number;
  /** Runs before the binding is written (e.g. bind the pod's volumes); throwing fails the cycle. */
  preBind?(pod: Stored<Pod>, nodeName: string): void;
}

const unresolvable = (reason: string): FilterFailure => ({ code: 'UnschedulableAndUnresolvable', reasons: [reason] });

// ---- resources ------------------------------------------------------------------------------

/** A quantity as a number of milli-units (cpu in millicores, memory in milli-bytes). */
export function milli(text: string | number | undefined): number {
  if (text === undefined) return 0;
  const q = parseQuantity(String(text));
  return Number(q.num) * 10 ** (q.exp + 3);
}

/** The pod's effective requests: the sum over containers, at least each init container's, plus overhead. */
export function podRequests(pod: Stored<Pod>): Record<string, number> {
  const total: Record<string, number> = {};
  const requestsOf = (c: Container): Record<string, string> => ({ ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) });
  for (const c of pod.spec?.containers ?? []) for (const [k, v] of Object.entries(requestsOf(c))) total[k] = (total[k] ?? 0) + milli(v);
  for (const c of pod.spec?.initContainers ?? []) for (const [k, v] of Object.entries(requestsOf(c))) total[k] = Math.max(total[k] ?? 0, milli(v));
  for (const [k, v] of Object.entries(pod.spec?.overhead ?? {})) total[k] = (total[k] ?? 0) + milli(v as string);
  return total;
}

const nodeResourcesFit: SchedulerPlugin = {
  name: 'NodeResourcesFit',
  filter(pod, { node, pods }) {
    const allocatable: Record<string, string> = node.status?.allocatable ?? {};
    const reasons: string[] = [];
    if (pods.length + 1 > Number(allocatable.pods ?? 110)) reasons.push('Too many pods');
    const wanted = podRequests(pod);
    const used: Record<string, number> = {};
    for (const p of pods) for (const [k, v] of Object.entries(podRequests(p))) used[k] = (used[k] ?? 0) + v;
    for (const [resource, amount] of Object.entries(wanted)) {
      if (amount === 0) continue;
      if ((used[resource] ?? 0) + amount > milli(allocatable[resource] ?? '0')) reasons.push(`Insufficient ${resource}`);
    }
    return reasons.length ? { code: 'Unschedulable', reasons } : undefined;
  },
  /** LeastAllocated over cpu and memory (an empty node scores 100). */
  score(pod, { node, pods }) {
    const allocatable: Record<string, string> = node.status?.allocatable ?? {};
    const wanted = podRequests(pod);
    const scores = ['cpu', 'memory'].map((r) => {
      const capacity = milli(allocatable[r] ?? '0');
      if (capacity === 0) return 0;
      const requested = pods.reduce((n, p) => n + (podRequests(p)[r] ?? 0), 0) + (wanted[r] ?? 0);
      return Math.max(0, ((capacity - requested) * 100) / capacity);
    });
    return (scores[0]! + scores[1]!) / 2;
  },
};

// ---- node selection -------------------------------------------------------------------------

const nodeUnschedulable: SchedulerPlugin = {
  name: 'NodeUnschedulable',
  filter(pod, { node }) {
    if (!node.spec?.unschedulable) return undefined;
    const tolerated = tolerates(pod.spec?.tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
    return tolerated ? undefined : unresolvable('node(s) were unschedulable');
  },
};

const nodeNamePlugin: SchedulerPlugin = {
  name: 'NodeName',
  filter(pod, { node }) {
    const wanted = pod.spec?.nodeName;
    return wanted && wanted !== node.metadata.name ? unresolvable("node(s) didn't match the requested node name") : undefined;
  },
};

interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/** Whether one of `tolerations` tolerates `taint` (core/v1 ToleratesTaint). */
export function tolerates(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.key && t.key !== taint.key) return false;
    if (!t.key && t.operator !== 'Exists') return false;
    if (t.operator === 'Exists') return true;
    return (t.value ?? '') === (taint.value ?? '');
  });
}

const taintToleration: SchedulerPlugin = {
  name: 'TaintToleration',
  weight: 3,
  filter(pod, { node }) {
    const taint = ((node.spec?.taints ?? []) as Taint[]).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(pod.spec?.tolerations, t));
    return taint ? unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`) : undefined;
  },
  score(pod, { node }) {
    const intolerable = ((node.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'PreferNoSchedule' && !tolerates(pod.spec?.tolerations, t)).length;
    return Math.max(0, 100 - intolerable * 50);
  },
};

interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

function requirementMatches(r: SelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && /^-?\d+$/.test(value) && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && /^-?\d+$/.test(value) && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

/** A NodeSelectorTerm: every expression and field requirement holds; an empty term matches nothing. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Stored<Node>): boolean {
  const expressions: SelectorRequirement[] = term.matchExpressions ?? [];
  const fields: SelectorRequirement[] = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels: Record<string, string> = node.metadata.labels ?? {};
  return expressions.every((r) => requirementMatches(r, labels[r.key])) && fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata.name));
}

/** nodeSelector and required node affinity (terms ORed). */
export function matchesNodeSelection(pod: Stored<Pod>, node: Stored<Node>): boolean {
  const labels: Record<string, string> = node.metadata.labels ?? {};
  if (!Object.entries(pod.spec?.nodeSelector ?? {}).every(([k, v]) => labels[k] === v)) return false;
  const terms: NodeSelectorTerm[] | undefined = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.some((t) => nodeSelectorTermMatches(t, node));
}

const nodeAffinity: SchedulerPlugin = {
  name: 'NodeAffinity',
  weight: 2,
  filter(pod, { node }) {
    return matchesNodeSelection(pod, node) ? undefined : unresolvable("node(s) didn't match Pod's node affinity/selector");
  },
  score(pod, { node }) {
    const preferred: PreferredSchedulingTerm[] = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    const total = preferred.reduce((n, p) => n + (p.weight ?? 0), 0);
    if (total === 0) return 0;
    return (preferred.filter((p) => nodeSelectorTermMatches(p.preference ?? {}, node)).reduce((n, p) => n + (p.weight ?? 0), 0) * 100) / total;
  },
};

const nodePorts: SchedulerPlugin = {
  name: 'NodePorts',
  filter(pod, { pods }) {
    const ports = (p: Stored<Pod>): string[] =>
      (p.spec?.containers ?? []).flatMap((c: Container) => (c.ports ?? []).filter((port) => port.hostPort).map((port) => `${port.protocol ?? 'TCP'}/${port.hostPort}`));
    const wanted = ports(pod);
    if (wanted.length === 0) return undefined;
    const used = new Set(pods.flatMap(ports));
    return wanted.some((p) => used.has(p)) ? { code: 'Unschedulable', reasons: ["node(s) didn't have free ports for the requested pod ports"] } : undefined;
  },
};

// ---- inter-pod affinity ---------------------------------------------------------------------

function labelSelectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => l[k] === v) && ((selector.matchExpressions ?? []) as SelectorRequirement[]).every((r) => requirementMatches(r, l[r.key]));
}

/** Whether `other` is selected by the affinity term of `owner` (namespaces default to the owner's). */
function termSelects(term: PodAffinityTerm, owner: Stored<Pod>, other: Stored<Pod>, state: CycleState): boolean {
  const namespaces: string[] = term.namespaces ?? [];
  const ns = other.metadata.namespace;
  const inNamespace =
    term.namespaceSelector !== undefined && term.namespaceSelector !== null
      ? namespaces.includes(ns!) || labelSelectorMatches({ matchLabels: {}, ...term.namespaceSelector }, state.namespaceLabels(ns!))
      : namespaces.length
        ? namespaces.includes(ns!)
        : ns === owner.metadata.namespace;
  return inNamespace && labelSelectorMatches(term.labelSelector, other.metadata.labels);
}

function nodeOf(state: CycleState, name: string | undefined): Stored<Node> | undefined {
  return state.nodes.find((n) => n.node.metadata.name === name)?.node;
}

function sameDomain(a: Stored<Node> | undefined, b: Stored<Node>, topologyKey: string): boolean {
  const value = b.metadata.labels?.[topologyKey];
  return a !== undefined && value !== undefined && a.metadata.labels?.[topologyKey] === value;
}

const requiredTerms = (pod: Stored<Pod>, kind: 'podAffinity' | 'podAntiAffinity'): PodAffinityTerm[] => pod.spec?.affinity?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];

const interPodAffinity: SchedulerPlugin = {
  name: 'InterPodAffinity',
  weight: 2,
  filter(pod, { node }, state) {
    for (const term of requiredTerms(pod, 'podAffinity')) {
      const matching = state.boundPods.filter((other) => termSelects(term, pod, other, state));
      const here = matching.some((other) => sameDomain(nodeOf(state, other.spec!.nodeName), node, term.topologyKey));
      // the first pod of a group that selects itself may go anywhere with the topology key
      const firstOfGroup = matching.length === 0 && termSelects(term, pod, pod, state) && node.metadata.labels?.[term.topologyKey] !== undefined;
      if (!here && !firstOfGroup) return unresolvable("node(s) didn't match pod affinity rules");
    }
    for (const term of requiredTerms(pod, 'podAntiAffinity')) {
      if (state.boundPods.some((other) => termSelects(term, pod, other, state) && sameDomain(nodeOf(state, other.spec!.nodeName), node, term.topologyKey))) {
        return { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] };
      }
    }
    // existing pods' anti-affinity against the incoming pod
    for (const other of state.boundPods) {
      for (const term of requiredTerms(other, 'podAntiAffinity')) {
        if (termSelects(term, other, pod, state) && sameDomain(nodeOf(state, other.spec!.nodeName), node, term.topologyKey)) {
          return { code: 'Unschedulable', reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"] };
        }
      }
    }
    return undefined;
  },
  score(pod, { node }, state) {
    let total = 0;
    let got = 0;
    for (const [kind, sign] of [['podAffinity', 1], ['podAntiAffinity', -1]] as const) {
      for (const weighted of pod.spec?.affinity?.[kind]?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
        const term = weighted.podAffinityTerm ?? {};
        total += weighted.weight ?? 0;
        const hit = state.boundPods.some((other) => termSelects(term, pod, other, state) && sameDomain(nodeOf(state, other.spec!.nodeName), node, term.topologyKey));
        if (hit === (sign === 1)) got += weighted.weight ?? 0;
      }
    }
    return total === 0 ? 0 : (got * 100) / total;
  },
};

/** Spreads pods of one controller over nodes (what the default topology spread constraints do by hostname). */
const defaultSpread: SchedulerPlugin = {
  name: 'PodTopologySpread',
  weight: 2,
  score(pod, { pods }) {
    const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller)?.uid;
    if (!owner) return 0;
    const siblings = pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === owner)).length;
    return Math.max(0, 100 - siblings * 10);
  },
};

/** kube-scheduler 1.32's default filters and scores, in its order. */
export function defaultSchedulerPlugins(): SchedulerPlugin[] {
  return [nodeUnschedulable, nodeNamePlugin, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit, defaultSpread, interPodAffinity];
}
