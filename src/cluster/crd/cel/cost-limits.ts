/** The cost limits of CRD validation rules in a 1.32 API server and the messages that enforce them. */

/** Largest estimated cost of one rule or messageExpression (apiextensions StaticEstimatedCostLimit). */
export const perExpressionEstimatedLimit = 10_000_000;
/** Largest total estimated cost of every rule of a CRD schema (StaticEstimatedCRDCostLimit). */
export const perCrdEstimatedLimit = 100_000_000;
/** Actual cost limit of one rule evaluation (apiserver cel PerCallLimit). */
export const perCallRuntimeLimit = 1_000_000;
/** Actual cost budget of validating one custom resource (RuntimeCELCostBudget). */
export const perObjectRuntimeBudget = 10_000_000;
/** The request size the server bounds unbounded strings, lists and maps with (3 MiB). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

/** Go's `%f` (six decimals). */
const goFixed = (x: number, digits: number): string => x.toFixed(digits);

/** "<what> exceeds budget by factor of N (try simplifying …)", as apiextensions words it. */
export function costErrorMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${goFixed(factor, 6)}x`;
  else text = `${goFixed(factor, 1)}x`;
  return `${what} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
