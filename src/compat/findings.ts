/**
 * What the API-evolution check (`kubeforge manifests --compat <ref>`) reports: one finding per difference
 * between the CRDs the API had at a git ref and today's, breaking or not, with why, a stable id (what the
 * acknowledgement file names) and where to look for its cause in the TypeScript sources.
 */
import type { SourcePosition } from '../markers/types.js';

/** A step of a path in an OpenAPI schema: a property, the items of an array, or the values of a map. */
export type SchemaStep = { property: string } | { items: true } | { values: true };

/**
 * How to find the source of a finding in an API model: the version of a kind, a path in its schema, and what
 * at that path to point at — the field (or the marker on it among `markers`), the type that owns the path's
 * last property (a removed field), or the kind type (the marker among `markers` on it, for CRD-level changes).
 */
export interface SourceHint {
  group: string;
  kind: string;
  version: string;
  steps: SchemaStep[];
  target: 'field' | 'owner' | 'kind';
  /** Marker names (canonical, without `+`) to point at when the source has them there. */
  markers?: string[];
  /** A generated x-kubernetes-validations rule object (its marker is known to the CRD generator). */
  rule?: object;
  /** Which API to look in: today's sources, or the one at the ref (for what exists only there). */
  side: 'today' | 'ref';
}

export interface CompatFinding {
  /** Stable id: `<crd>[/<version>[/<path>]]:<code>[:<rule hash>]`, what api-compat.yaml acknowledges. */
  id: string;
  code: string;
  breaking: boolean;
  /** The CRD's name (`<plural>.<group>`). */
  crd: string;
  version?: string;
  /** The schema path, e.g. `spec.jobs[*].name` (`.*` steps into a map's values). */
  path?: string;
  /** What changed. */
  change: string;
  /** Why it is breaking or not. */
  why: string;
  hint: SourceHint;
}

/** A finding with the source position its hint led to. */
export interface LocatedFinding extends CompatFinding {
  /** undefined when the sources did not lead anywhere (never expected; printed without a position). */
  position?: SourcePosition;
  /** Set when the position is in the API at the ref rather than today's files. */
  atRef?: boolean;
}

/** `spec.jobs[*].name` for the steps of a schema path ('' for the root). */
export function schemaPath(steps: readonly SchemaStep[]): string {
  let out = '';
  for (const step of steps) {
    if ('property' in step) out += out === '' ? step.property : `.${step.property}`;
    else if ('items' in step) out += '[*]';
    else out += '.*';
  }
  return out;
}
