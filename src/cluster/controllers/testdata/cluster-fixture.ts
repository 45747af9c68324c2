/**
 * Test fixture for the built-in controller tests: a local cluster on the virtual clock at a fixed
 * time, with @kubernetes/client-node clients pointed at it over HTTPS (real clients only).
 */
import { BatchV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { type LocalCluster, type LocalClusterOptions, startLocalCluster } from '../../local-cluster.js';

export interface ControllerFixture {
  cluster: LocalCluster;
  core: CoreV1Api;
  batch: BatchV1Api;
  objects: KubernetesObjectApi;
  /** Moves the virtual clock forward `ms` (stepTo) and settles. */
  advance(ms: number): Promise<void>;
  stop(): Promise<void>;
}

export const fixedStart = '2024-01-15T10:00:00Z';

export async function startFixture(options: LocalClusterOptions = {}): Promise<ControllerFixture> {
  const cluster = await startLocalCluster({ now: fixedStart, ...options });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  await cluster.settle();
  return {
    cluster,
    core: kc.makeApiClient(CoreV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
    async advance(ms) {
      await cluster.clock.stepTo(cluster.clock.now() + ms);
      await cluster.settle();
    },
    stop: () => cluster.stop(),
  };
}

/** A minimal container running `sh -c <script>`. */
export function shell(name: string, script: string): { name: string; image: string; command: string[] } {
  return { name, image: 'busybox:1.36', command: ['sh', '-c', script] };
}
