/**
 * The request log (who did what, with which result) and injected faults for error-path tests.
 */

export type RequestLogEntry = {
  /** Wall-clock ISO time the request arrived. */
  time: string;
  user: string;
  groups: string[];
  method: string;
  path: string;
  verb: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  code: number;
  /**
   * Warnings of the request: sent to the client as Warning headers, or, for the built-in
   * controllers' writes, the admission webhooks' warnings (a controller has no client to show them).
   */
  warnings?: string[];
};

export interface FaultSpec {
  /** RBAC verb to match (get, list, watch, create, update, patch, delete…); any when absent. */
  verb?: string;
  /** Plural resource to match; any when absent. */
  resource?: string;
  /** HTTP status to answer with (e.g. 500, 429, 409). */
  status: number;
  /** How many matching requests fail; unlimited when absent. */
  times?: number;
  message?: string;
}

const reasons: Record<number, string> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 410: 'Expired', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout' };

export function faultStatus(f: FaultSpec): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: f.message ?? `injected fault (${f.status})`, reason: reasons[f.status] ?? 'Unknown', code: f.status };
}

export class FaultInjector {
  private faults: FaultSpec[] = [];

  add(f: FaultSpec): () => void {
    const entry = { ...f };
    this.faults.push(entry);
    return () => {
      this.faults = this.faults.filter((x) => x !== entry);
    };
  }

  /** The fault to answer this request with, if any (consumes one of its `times`). */
  take(verb: string, resource: string | undefined): FaultSpec | undefined {
    const f = this.faults.find((x) => (x.verb === undefined || x.verb === verb) && (x.resource === undefined || x.resource === resource));
    if (!f) return undefined;
    if (f.times !== undefined) {
      f.times -= 1;
      if (f.times <= 0) this.faults = this.faults.filter((x) => x !== f);
    }
    return f;
  }

  clear(): void {
    this.faults = [];
  }
}
