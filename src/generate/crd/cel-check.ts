/**
 * CEL at generate time: every `x-kubernetes-validations` rule of the generated CRDs is compiled and
 * cost-estimated with the local cluster's own CRD-write checks (src/cluster/crd/cel-rules.ts), on the CRD
 * as `kubectl apply` would send it. A rule the API server would refuse — syntax, an unknown field, a wrong
 * result type, a bad messageExpression / fieldPath / reason, oldSelf where it cannot be used, an estimated
 * cost over the per-rule or per-CRD limit — becomes a diagnostic at the marker that made it
 * (rule-origins.ts), quoting the API server's field error and, for cost, the estimate and the limit.
 * The CEL code is loaded only when some CRD has rules, so `manifests` without rules pays nothing for it.
 */
import type { Diagnostic, SourcePosition } from '../../markers/types.js';
import type { ApiModel } from '../../model/index.js';
import type { RuleFinding } from '../../cluster/crd/cel-rules.js';
import { hasCelRules } from '../../cluster/crd/cel/rules-present.js';
import { fieldErrorBody, fieldErrorText } from '../../cluster/errors/field-errors.js';
import { importInTurn } from '../../reader/import-in-turn.js';
import type { GeneratedCrd } from './build.js';
import { ruleOrigin } from './rule-origins.js';
import type { Schema } from './schema.js';

/** The schemas the server checks and the paths it names them by: `spec.validation…` when every version shares one. */
function checkedSchemas(crd: GeneratedCrd): Array<{ schema: Schema; path: string }> {
  const versions = crd.document.spec.versions;
  const shared = versions.length === 1 || (versions.length > 1 && versions.every((v) => JSON.stringify(v.schema) === JSON.stringify(versions[0]!.schema)));
  if (shared) return [{ schema: versions[0]!.schema.openAPIV3Schema, path: 'spec.validation.openAPIV3Schema' }];
  return versions.map((v, i) => ({ schema: v.schema.openAPIV3Schema, path: `spec.versions[${i}].schema.openAPIV3Schema` }));
}

/** Where each kind's root type is declared, by `<Kind>.<group>` (for findings no marker owns). */
function kindPositions(model: ApiModel): Map<string, SourcePosition> {
  const positions = new Map<string, SourcePosition>();
  for (const group of model.groups)
    for (const version of group.versions)
      for (const kind of version.kinds) {
        const type = model.types[kind.typeId];
        const key = `${kind.name}.${group.name}`;
        if (type && !positions.has(key)) positions.set(key, type.position);
      }
  return positions;
}

/** A cost as a whole number (cel-go's estimates are integers); astronomic ones in exponent form. */
const whole = (n: number): string => (n < 1e15 ? String(Math.ceil(n)) : n.toExponential(2));

function ruleText(rule: object | undefined): string {
  const text = (rule as { rule?: unknown } | undefined)?.rule;
  return typeof text === 'string' ? text : '';
}

/** `estimated cost N exceeds the per-rule limit M; ` / `… of all the CRD's rules …`, for cost refusals. */
function costText(finding: RuleFinding): string {
  if (!finding.cost) return '';
  const { estimated, limit, of } = finding.cost;
  return of === 'rule'
    ? `estimated cost ${whole(estimated)} exceeds the per-rule limit ${limit}; `
    : `estimated cost of all the CRD's rules ${whole(estimated)} exceeds the per-CRD limit ${limit}; `;
}

function message(finding: RuleFinding, kind: string): string {
  const origin = finding.rule ? ruleOrigin(finding.rule) : undefined;
  const rule = finding.rule ? ` rule ${JSON.stringify(ruleText(finding.rule))}` : '';
  const who = origin ? `${origin.marker}${rule}` : `kind ${kind}${rule && `:${rule}`}`;
  return `${who} would be refused by the API server: ${costText(finding)}${fieldErrorText(finding.error)}`;
}

/**
 * Every refusal of the CRDs' rules as diagnostics (one per rule, error and use: a rule of a type used in several
 * places is reported once per distinct error). Empty when no CRD has a rule.
 */
export async function celRuleDiagnostics(crds: GeneratedCrd[], model: ApiModel): Promise<Diagnostic[]> {
  const withRules = crds.filter((crd) => crd.document.spec.versions.some((v) => hasCelRules(v.schema.openAPIV3Schema)));
  if (withRules.length === 0) return [];
  const { celRuleFindings } = await importInTurn(() => import('../../cluster/crd/cel-rules.js'));
  const positions = kindPositions(model);
  const diagnostics: Diagnostic[] = [];
  for (const crd of withRules) {
    const { group, names } = crd.document.spec;
    const kindPosition = positions.get(`${names.kind}.${group}`) ?? { file: crd.fileName, line: 1, column: 1 };
    const seen = new Set<string>();
    for (const { schema, path } of checkedSchemas(crd)) {
      for (const finding of celRuleFindings(schema, path)) {
        const origin = finding.rule ? ruleOrigin(finding.rule) : undefined;
        const position = origin?.position ?? kindPosition;
        const expression = finding.error.field.slice(finding.error.field.lastIndexOf('.'));
        const key = `${position.file}:${position.line}:${position.column}:${expression}:${finding.error.type}:${fieldErrorBody(finding.error)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        diagnostics.push({ position, message: message(finding, names.kind) });
      }
    }
  }
  return diagnostics;
}
