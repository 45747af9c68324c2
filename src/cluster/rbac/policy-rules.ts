/**
 * The PolicyRule shape and the compact notation the bootstrap policy tables are written in: verbs and
 * resources as space-separated words, API groups as a list ('' is the core group).
 */

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const words = (text: string): string[] => text.split(' ').filter(Boolean);

/** A resource rule: `rule('get list watch', [''], 'pods services')`, with resourceNames when given. */
export function rule(verbs: string, apiGroups: string[], resources: string, resourceNames?: string): PolicyRule {
  return { verbs: words(verbs), apiGroups, resources: words(resources), ...(resourceNames ? { resourceNames: words(resourceNames) } : {}) };
}

/** A non-resource rule: `urls('get', '/healthz /livez')`. */
export function urls(verbs: string, paths: string): PolicyRule {
  return { verbs: words(verbs), nonResourceURLs: words(paths) };
}

export const core = [''];
/** What every controller and component that records events holds (eventsRule() in bootstrappolicy). */
export const eventsRule = rule('create patch update', ['', 'events.k8s.io'], 'events');
