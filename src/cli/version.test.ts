/** `kubeforge version` states the Kubernetes version the local cluster's API server reports, not a copy that drifts. */
import { kubernetesVersion } from '../cluster/http/api-server.js';
import { KUBERNETES_VERSION, versionLines } from './version.js';

it('names the API server version of the local cluster', () => {
  expect(KUBERNETES_VERSION).toBe(kubernetesVersion.gitVersion);
  expect(versionLines()[1]).toBe(`Kubernetes:         ${kubernetesVersion.major}.${kubernetesVersion.minor} (local cluster and kubernetes-types; API server ${kubernetesVersion.gitVersion})`);
});
