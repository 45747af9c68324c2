/**
 * The numbers of a Deployment rollout, as pkg/controller/deployment/util computes them: maxSurge and
 * maxUnavailable resolved against the replica count (percentages round surge up and unavailability down;
 * both zero → unavailability 1), the new ReplicaSet's next size, and the proportional share of a scale
 * change for each active ReplicaSet.
 */

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) {
    if (/^\d+$/.test(value)) return Number(value);
    throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  }
  const scaled = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

export interface RollingStrategy {
  type?: string;
  rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
}

/** ResolveFenceposts: [surge, unavailable]. */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): [number, number] {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

const isRolling = (strategy: RollingStrategy | undefined): boolean => strategy?.type === 'RollingUpdate';

export function maxSurge(replicas: number, strategy: RollingStrategy | undefined): number {
  if (!isRolling(strategy)) return 0;
  return resolveFenceposts(strategy!.rollingUpdate?.maxSurge, strategy!.rollingUpdate?.maxUnavailable, replicas)[0];
}

export function maxUnavailable(replicas: number, strategy: RollingStrategy | undefined): number {
  if (!isRolling(strategy) || replicas === 0) return 0;
  const unavailable = resolveFenceposts(strategy!.rollingUpdate?.maxSurge, strategy!.rollingUpdate?.maxUnavailable, replicas)[1];
  return Math.min(unavailable, replicas);
}

/** NewRSNewReplicas: the new ReplicaSet's size after one step (Recreate: all at once). */
export function newReplicaSetSize(replicas: number, strategy: RollingStrategy | undefined, totalSpecReplicas: number, newSpecReplicas: number): number {
  if (!isRolling(strategy)) return replicas;
  const maxTotal = replicas + maxSurge(replicas, strategy);
  if (totalSpecReplicas >= maxTotal) return newSpecReplicas;
  const up = Math.min(maxTotal - totalSpecReplicas, replicas - newSpecReplicas);
  return newSpecReplicas + up;
}

/** Go's math.Round (half away from zero). */
const goRound = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

/**
 * GetReplicaSetProportion: how many replicas of `toAdd` (negative: to remove) go to a ReplicaSet of
 * `size` whose max-replicas annotation was `annotatedMax` (undefined: `statusReplicas` of the Deployment).
 */
export function replicaSetProportion(size: number, annotatedMax: number | undefined, deploymentReplicas: number, deploymentMax: number, statusReplicas: number, toAdd: number, added: number): number {
  if (size === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (deploymentReplicas === 0) fraction = -size;
  else {
    const before = annotatedMax ?? statusReplicas;
    fraction = before === 0 ? 0 : goRound((size * deploymentMax) / before) - size;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
