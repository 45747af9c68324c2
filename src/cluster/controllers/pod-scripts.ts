/**
 * Test scripts over pod behaviour (§7.6): `scriptPods()` overrides what matching pods do beyond their
 * annotations; the scheduler and every node's kubelet read a pod's behaviour through here.
 */
import type { KubeObject } from '../store/object-store.js';
import { type PodBehaviour, podBehaviour } from './pod-behaviour.js';

/** Which pods a test script applies to (all given fields must match). */
export interface PodSelector {
  namespace?: string;
  name?: string;
  labels?: Record<string, string>;
}

/** What a script changes in a pod's behaviour (the rest still comes from annotations and command). */
export type BehaviourOverride = Partial<Omit<PodBehaviour, 'logs'>> & { logs?: string };

function selects(selector: PodSelector, pod: KubeObject): boolean {
  if (selector.namespace !== undefined && selector.namespace !== pod.metadata.namespace) return false;
  if (selector.name !== undefined && selector.name !== pod.metadata.name) return false;
  return Object.entries(selector.labels ?? {}).every(([k, v]) => pod.metadata.labels?.[k] === v);
}

export class PodScripts {
  private readonly scripts: Array<{ selector: PodSelector; override: BehaviourOverride }> = [];
  /** Called after a script is added or removed (the wiring re-reconciles pods). */
  onChange: () => void = () => {};

  /** The pod's behaviour: annotations and command, then matching scripts (later ones win). Throws on bad annotations. */
  behaviourOf(pod: KubeObject): PodBehaviour {
    let behaviour = podBehaviour(pod);
    for (const s of this.scripts) if (selects(s.selector, pod)) behaviour = { ...behaviour, ...s.override };
    return behaviour;
  }

  /** Overrides the behaviour of matching pods; returns a function removing the override. */
  add(selector: PodSelector, override: BehaviourOverride): () => void {
    const entry = { selector, override };
    this.scripts.push(entry);
    this.onChange();
    return () => {
      const i = this.scripts.indexOf(entry);
      if (i !== -1) this.scripts.splice(i, 1);
      this.onChange();
    };
  }
}
