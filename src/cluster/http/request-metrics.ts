/**
 * The apiserver's Prometheus metrics a scraper of /metrics expects, in the text exposition format:
 * apiserver_request_total by verb/group/version/resource/subresource/scope/component/code/dry_run
 * (the verbs as kube-apiserver's metrics name them: LIST, WATCH, GET, POST, PUT, PATCH, APPLY,
 * DELETE), apiserver_request_duration_seconds (wall time, 1.32's buckets, watches left out),
 * apiserver_current_inflight_requests, apiserver_storage_objects per resource, kubernetes_build_info
 * and process_start_time_seconds.
 */
import type { ResourceRequest } from './request-info.js';

/** What promhttp answers a scrape without an Accept preference with (client_golang as of 1.32). */
export const metricsContentType = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

const requestLabelNames = ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;
type RequestLabels = Record<(typeof requestLabelNames)[number], string>;

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** apiserver_request_duration_seconds' buckets in 1.32. */
const durationBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

interface Histogram {
  labels: Record<string, string>;
  /** Observations at or below each bucket bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/** kube-apiserver's metric verb for a request (CleanVerb). */
function metricVerb(info: ResourceRequest, method: string, contentType: string): string {
  if (info.verb === 'list') return 'LIST';
  if (info.verb === 'watch') return 'WATCH';
  if (method === 'PATCH' && contentType.startsWith('application/apply-patch')) return 'APPLY';
  return method;
}

function scopeOf(info: ResourceRequest): string {
  if (info.namespace !== undefined) return 'namespace';
  return info.name !== undefined ? 'resource' : 'cluster';
}

const escape = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Record<string, string>): string =>
  `{${Object.keys(labels).sort().map((k) => `${k}="${escape(labels[k]!)}"`).join(',')}}`;

function family(name: string, type: 'counter' | 'gauge', help: string, samples: Array<[Record<string, string>, number]>): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, value] of samples) lines.push(`${name}${Object.keys(labels).length ? labelText(labels) : ''} ${value}`);
  return lines.join('\n');
}

export class RequestMetrics {
  private readonly requests = new Map<string, { labels: RequestLabels; count: number }>();
  private readonly durations = new Map<string, Histogram>();
  private readonly inflight = { mutating: 0, readOnly: 0 };
  private readonly startSeconds = Date.now() / 1000;

  /** Counts a request as in flight until the returned function is called. */
  begin(method: string): () => void {
    const kind = mutatingMethods.has(method) ? 'mutating' : 'readOnly';
    this.inflight[kind]++;
    return () => void this.inflight[kind]--;
  }

  /** Records one finished resource request that took `seconds`. */
  record(info: ResourceRequest, method: string, query: URLSearchParams, contentType: string, code: number, seconds: number): void {
    const labels: RequestLabels = {
      code: String(code),
      component: 'apiserver',
      dry_run: query.getAll('dryRun').includes('All') ? 'All' : '',
      group: info.group,
      resource: info.resource,
      scope: scopeOf(info),
      subresource: info.subresource ?? '',
      verb: metricVerb(info, method, contentType),
      version: info.version,
    };
    const key = requestLabelNames.map((n) => labels[n]).join('\u0000');
    const entry = this.requests.get(key);
    if (entry) entry.count++;
    else this.requests.set(key, { labels, count: 1 });
    if (labels.verb !== 'WATCH') this.observe(labels, seconds);
  }

  private observe(requestLabels: RequestLabels, seconds: number): void {
    const { code: _code, ...labels } = requestLabels;
    const key = labelText(labels);
    let histogram = this.durations.get(key);
    if (!histogram) this.durations.set(key, (histogram = { labels, buckets: durationBuckets.map(() => 0), sum: 0, count: 0 }));
    durationBuckets.forEach((bound, i) => {
      if (seconds <= bound) histogram.buckets[i]!++;
    });
    histogram.sum += seconds;
    histogram.count++;
  }

  private durationFamily(): string {
    const name = 'apiserver_request_duration_seconds';
    const lines = [`# HELP ${name} [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.`, `# TYPE ${name} histogram`];
    for (const key of [...this.durations.keys()].sort()) {
      const h = this.durations.get(key)!;
      const inner = key.slice(1, -1);
      durationBuckets.forEach((bound, i) => lines.push(`${name}_bucket{${inner},le="${bound}"} ${h.buckets[i]}`));
      lines.push(`${name}_bucket{${inner},le="+Inf"} ${h.count}`, `${name}_sum${key} ${h.sum}`, `${name}_count${key} ${h.count}`);
    }
    return lines.join('\n');
  }

  /** The exposition text; `storedObjects` maps `resource[.group]` to its object count. */
  render(storedObjects: Map<string, number>, build: Record<string, string>): string {
    const requests = [...this.requests.values()].sort((a, b) => labelText(a.labels).localeCompare(labelText(b.labels)));
    return [
      family('apiserver_current_inflight_requests', 'gauge', '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.', [
        [{ request_kind: 'mutating' }, this.inflight.mutating],
        [{ request_kind: 'readOnly' }, this.inflight.readOnly],
      ]),
      family('apiserver_request_total', 'counter', '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
        requests.map((r) => [r.labels, r.count])),
      this.durationFamily(),
      family('apiserver_storage_objects', 'gauge', '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
        [...storedObjects].sort(([a], [b]) => a.localeCompare(b)).map(([resource, count]) => [{ resource }, count])),
      family('kubernetes_build_info', 'gauge', "[ALPHA] A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.", [[build, 1]]),
      family('process_start_time_seconds', 'gauge', 'Start time of the process since unix epoch in seconds.', [[{}, this.startSeconds]]),
    ].join('\n') + '\n';
  }
}
