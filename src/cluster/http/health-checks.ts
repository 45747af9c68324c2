/**
 * /healthz, /livez and /readyz as kube-apiserver 1.32 serves them (apiserver/pkg/server/healthz):
 * the checks a default kube-apiserver registers, in its order, all passing; `?verbose` lists them
 * (`[+]ping ok` … `readyz check passed`), `?exclude=<name>` skips one (`[+]etcd excluded: ok`, and a
 * warning for a name that matches none), and `/<endpoint>/<check name>` runs one check alone.
 */

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/** The post-start hooks of a default 1.32 kube-apiserver (kube-apiserver, apiextensions and aggregator servers). */
const postStartHooks = [
  'start-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter', 'storage-object-count-tracker-hook', 'start-apiextensions-informers',
  'start-apiextensions-controllers', 'crd-informer-synced', 'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller', 'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector', 'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers', 'rbac/bootstrap-roles', 'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer', 'bootstrap-controller', 'aggregator-reload-proxy-client-cert',
  'start-kube-aggregator-informers', 'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller', 'apiservice-registration-controller', 'apiservice-wait-for-first-sync',
  'apiservice-discovery-controller', 'kube-apiserver-autoregistration',
].map((hook) => `poststarthook/${hook}`);

/** The check names of an endpoint, in the order the server reports them. */
export function healthChecks(endpoint: HealthEndpoint): string[] {
  // readyz alone has the readiness checks (etcd-readiness, informer-sync) and the shutdown check
  const base = ['ping', 'log', 'etcd', ...(endpoint === 'readyz' ? ['etcd-readiness', 'informer-sync'] : [])];
  const tail = ['autoregister-completion', 'poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];
  return [...base, ...postStartHooks, ...tail, ...(endpoint === 'readyz' ? ['shutdown'] : [])];
}

/** Parses `/healthz`, `/livez/ping`, `/readyz/poststarthook/rbac/bootstrap-roles`; undefined for other paths. */
export function healthPath(path: string): { endpoint: HealthEndpoint; check?: string } | undefined {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (!m) return undefined;
  return { endpoint: m[1] as HealthEndpoint, ...(m[2] !== undefined ? { check: m[2] } : {}) };
}

/** The body of a health endpoint: `ok`, or with `verbose` every check and the verdict. */
export function healthReport(endpoint: HealthEndpoint, query: URLSearchParams): string {
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  for (const check of healthChecks(endpoint)) {
    if (excluded.delete(check)) lines.push(`[+]${check} excluded: ok`);
    else lines.push(`[+]${check} ok`);
  }
  if (excluded.size > 0) {
    lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((c) => `"${c}"`).join(', ')}`);
  }
  if (!query.has('verbose')) return 'ok';
  return `${lines.join('\n')}\n${endpoint} check passed\n`;
}
