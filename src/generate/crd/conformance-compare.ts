/**
 * How the conformance tests compare a generated CRD with a controller-gen golden. Everything kubeforge derives
 * from the user's types is compared exactly. The subtrees that come from Kubernetes types (a field typed
 * JobTemplateSpec, ObjectReference, ...) are rendered from Kubernetes' 1.32 definitions, while the goldens were
 * made by controller-gen from a newer k8s.io/api; inside them:
 *   - every keyword but `description` is compared exactly, except the listed changes Kubernetes made after
 *     1.32 (fields it added, a field that stopped being required), which are reported;
 *   - descriptions must both be present or both absent; their text is compared word for word after folding
 *     white space (the definitions join a paragraph's lines with spaces, controller-gen keeps Go's line
 *     breaks), and the texts that still differ (Kubernetes rewrote them after 1.32) are counted, not failed.
 */
export interface NewerKubernetes {
  /** Property names the golden's newer Kubernetes added to types used in the Kubernetes parts. */
  addedFields: string[];
  /** `<schema path>:<field>` of fields required in 1.32 and optional in the golden's Kubernetes. */
  noLongerRequired: string[];
}

export interface ConformanceReport {
  /** Differences that fail the comparison: `<path>: <what>`. */
  differences: string[];
  /** Kubernetes-part fields of the golden missing here because Kubernetes added them after 1.32. */
  addedAfter132: string[];
  /** Kubernetes-part required fields that differ because Kubernetes changed them after 1.32. */
  requiredChangedAfter132: string[];
  descriptions: {
    /** Descriptions of the Kubernetes parts compared. */
    compared: number;
    /** Equal byte for byte. */
    identical: number;
    /** Equal after folding white space (line breaks versus spaces). */
    sameWords: number;
    /** Different words: `<path>` (Kubernetes rewrote the text after 1.32). */
    differentWords: string[];
  };
}

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const foldSpace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Compares `actual` with `expected` (whole CRD documents). `kubernetesParts` are schema paths below
 * `openAPIV3Schema` (`spec.jobTemplate`, `status.active[]`: `[]` = array items, `{}` = map values).
 */
export function compareCrd(expected: Json, actual: Json, kubernetesParts: string[], newer: NewerKubernetes): ConformanceReport {
  const report: ConformanceReport = {
    differences: [],
    addedAfter132: [],
    requiredChangedAfter132: [],
    descriptions: { compared: 0, identical: 0, sameWords: 0, differentWords: [] },
  };
  const inKubernetesPart = (schemaPath: string): boolean =>
    kubernetesParts.some((part) => schemaPath === part || schemaPath.startsWith(`${part}.`) || schemaPath.startsWith(`${part}[]`) || schemaPath.startsWith(`${part}{}`));

  const join = (base: string, name: string): string => (base === '' ? name : `${base}.${name}`);

  /** Compares two values; `schemaPath` is set below openAPIV3Schema. */
  const visit = (e: Json, a: Json, where: string, schemaPath: string | undefined): void => {
    if (Array.isArray(e) || Array.isArray(a)) {
      if (!Array.isArray(e) || !Array.isArray(a) || e.length !== a.length) {
        report.differences.push(`${where}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
        return;
      }
      e.forEach((item, i) => visit(item, a[i], `${where}[${i}]`, undefined));
      return;
    }
    if (!isObject(e) || !isObject(a)) {
      if (e !== a) report.differences.push(`${where}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
      return;
    }
    if (schemaPath !== undefined) {
      visitSchema(e, a, where, schemaPath);
      return;
    }
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const child = `${where}.${key}`;
      visit(e[key], a[key], child, key === 'openAPIV3Schema' ? '' : undefined);
    }
  };

  const visitSchema = (e: Record<string, Json>, a: Record<string, Json>, where: string, schemaPath: string): void => {
    const kubernetes = inKubernetesPart(schemaPath);
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const child = `${where}.${key}`;
      if (key === 'description' && kubernetes) compareDescription(e[key], a[key], child);
      else if (key === 'properties' && isObject(e[key]) && isObject(a[key])) {
        const ep = e[key] as Record<string, Json>;
        const ap = a[key] as Record<string, Json>;
        for (const name of new Set([...Object.keys(ep), ...Object.keys(ap)])) {
          const propertyPath = join(schemaPath, name);
          if (kubernetes && ap[name] === undefined && newer.addedFields.includes(name)) report.addedAfter132.push(propertyPath);
          else if (ep[name] === undefined || ap[name] === undefined)
            report.differences.push(`${child}.${name}: ${ep[name] === undefined ? 'not in the golden' : 'missing'}`);
          else visitSchemaValue(ep[name], ap[name], `${child}.${name}`, propertyPath);
        }
      } else if (key === 'required' && kubernetes) {
        compareRequired(e[key], a[key], child, schemaPath, e);
      } else if (key === 'items') visitSchemaValue(e[key], a[key], child, `${schemaPath}[]`);
      else if (key === 'additionalProperties') visitSchemaValue(e[key], a[key], child, `${schemaPath}{}`);
      else visit(e[key], a[key], child, undefined);
    }
  };

  const visitSchemaValue = (e: Json, a: Json, where: string, schemaPath: string): void => {
    if (isObject(e) && isObject(a)) visitSchema(e, a, where, schemaPath);
    else visit(e, a, where, undefined);
  };

  const compareDescription = (e: Json, a: Json, where: string): void => {
    if (typeof e !== 'string' || typeof a !== 'string') {
      if (e !== a) report.differences.push(`${where}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
      return;
    }
    report.descriptions.compared++;
    if (e === a) report.descriptions.identical++;
    else if (foldSpace(e) === foldSpace(a)) report.descriptions.sameWords++;
    else report.descriptions.differentWords.push(where);
  };

  /** Required lists of a Kubernetes part: the fields Kubernetes added or made optional later are set aside. */
  const compareRequired = (e: Json, a: Json, where: string, schemaPath: string, expectedNode: Record<string, Json>): void => {
    const expectedList = Array.isArray(e) ? (e as string[]) : [];
    const actualList = Array.isArray(a) ? (a as string[]) : [];
    const explained = (field: string): boolean => {
      if (newer.noLongerRequired.includes(`${schemaPath}:${field}`) && !expectedList.includes(field)) return true;
      const properties = isObject(expectedNode.properties) ? expectedNode.properties : {};
      return newer.addedFields.includes(field) && properties[field] !== undefined && !actualList.includes(field);
    };
    for (const field of new Set([...expectedList, ...actualList]))
      if (explained(field)) report.requiredChangedAfter132.push(`${schemaPath}:${field}`);
    visit(expectedList.filter((f) => !explained(f)), actualList.filter((f) => !explained(f)), where, undefined);
  };

  visit(expected, actual, '', undefined);
  return report;
}
