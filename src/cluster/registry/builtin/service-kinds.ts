/**
 * The kinds of Service networking and voluntary disruption the local cluster serves: Services,
 * Endpoints, EndpointSlices and PodDisruptionBudgets (Services are also listed in other-kinds.ts).
 */
import type { ResourceType } from '../resource-type.js';
import { podDisruptionBudgets } from './disruption-budget-kind.js';
import { endpointKinds } from './endpoint-kinds.js';

/** The kinds added next to other-kinds.ts's (which already carries Services). */
export const serviceKinds: ResourceType[] = [...endpointKinds, podDisruptionBudgets];
