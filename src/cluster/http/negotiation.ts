/**
 * Accept-header negotiation: JSON, Table (meta.k8s.io v1/v1beta1), PartialObjectMetadata, the
 * aggregated-discovery type — and 406 when the client accepts nothing the server can produce.
 */
import { notAcceptable } from '../errors/status-errors.js';

export interface MediaRange {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {} }];
  return header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [type, ...rest] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of rest) {
        const i = p.indexOf('=');
        if (i > 0) params[p.slice(0, i).trim()] = p.slice(i + 1).trim();
      }
      return { type: type!.toLowerCase(), params };
    });
}

export type ResponseShape = 'object' | 'table' | 'metadata';

/**
 * What shape a resource GET should answer with. A built-in kind also accepts protobuf-only Accept headers
 * (answered in JSON); custom resources, which have no protobuf encoding, answer those 406.
 */
export function negotiateResource(header: string | undefined, custom = false): { shape: ResponseShape; tableVersion?: string } {
  for (const r of parseAccept(header)) {
    if (r.type === 'application/json' && r.params.as === 'Table' && r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      return { shape: 'table', tableVersion: r.params.v };
    }
    if (r.type === 'application/json' && (r.params.as === 'PartialObjectMetadata' || r.params.as === 'PartialObjectMetadataList') && r.params.g === 'meta.k8s.io') {
      return { shape: 'metadata' };
    }
    if (r.params.as) continue;
    if (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*' || r.type === 'application/yaml' || r.type === 'application/vnd.kubernetes.protobuf') {
      if (r.type === 'application/vnd.kubernetes.protobuf') continue;
      return { shape: 'object' };
    }
  }
  const types = parseAccept(header);
  if (!custom && types.some((r) => r.type === 'application/vnd.kubernetes.protobuf')) return { shape: 'object' };
  throw notAcceptable(custom ? ['application/json', 'application/yaml'] : ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
}

/** True when the client asked for apidiscovery.k8s.io/v2 aggregated discovery. */
export function wantsAggregatedDiscovery(header: string | undefined): boolean {
  return parseAccept(header).some((r) => r.params.g === 'apidiscovery.k8s.io' && r.params.v === 'v2' && r.params.as === 'APIGroupDiscoveryList');
}
