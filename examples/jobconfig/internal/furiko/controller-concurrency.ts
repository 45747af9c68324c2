/**
 * Furiko's `controllerConcurrency` (bootstrap file): the workers of each of its controllers, as an absolute
 * `workers` or a `factorOfCPUs` (workers = CPUs × factor, `workers` winning when both are set), 4 × CPUs
 * when left out (Furiko's GetConcurrencyOrDefaultCPUFactor). Applied as the maxConcurrentReconciles of the
 * kubeforge controllers that play each Furiko controller, after the scaffold's setupControllers made them.
 */
import { availableParallelism } from 'node:os';
import type { Manager } from 'kubeforge/runtime';

/** Furiko's controller names, as the bootstrap file spells them. */
export const FURIKO_CONTROLLERS = ['job', 'jobConfig', 'jobQueue', 'cron'] as const;
export type FurikoControllerName = (typeof FURIKO_CONTROLLERS)[number];

export interface ControllerConcurrency {
  workers?: number;
  factorOfCPUs?: number;
}

/** Furiko's default: factorOfCPUs 4 for every controller. */
export const DEFAULT_FACTOR_OF_CPUS = 4;

/** The kubeforge controllers (their names in setupControllers) that do each Furiko controller's work. */
export const KUBEFORGE_CONTROLLERS_OF: Readonly<Record<FurikoControllerName, readonly string[]>> = Object.freeze({
  job: ['job'],
  jobConfig: ['jobconfig'],
  jobQueue: ['jobqueue-jobconfig', 'jobqueue-independent'],
  cron: ['cron'],
});

/** The number of workers `concurrency` asks for on a machine with `cpus` CPUs. */
export function workersFor(concurrency: ControllerConcurrency | undefined, cpus: number): number {
  if (concurrency?.workers && concurrency.workers > 0) return concurrency.workers;
  if (concurrency?.factorOfCPUs && concurrency.factorOfCPUs > 0) return cpus * concurrency.factorOfCPUs;
  return cpus * DEFAULT_FACTOR_OF_CPUS;
}

/**
 * Sets the maxConcurrentReconciles of the manager's controllers (before it starts them) from `spec`;
 * returns the workers given to each controller found (a controller not registered is left out).
 */
export function applyControllerConcurrency(
  mgr: Manager,
  spec: Partial<Record<FurikoControllerName, ControllerConcurrency>>,
  cpus: number = availableParallelism(),
): Record<string, number> {
  const applied: Record<string, number> = {};
  for (const furikoName of FURIKO_CONTROLLERS) {
    const workers = workersFor(spec[furikoName], cpus);
    for (const controller of mgr.controllerList()) {
      if (!KUBEFORGE_CONTROLLERS_OF[furikoName].includes(controller.name)) continue;
      controller.options.maxConcurrentReconciles = workers;
      applied[controller.name] = workers;
    }
  }
  return applied;
}
