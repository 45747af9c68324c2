/**
 * `kubeforge dev`'s `make install`: every CustomResourceDefinition of config/crd/bases applied to the local
 * cluster server-side (field manager `kubectl`, as `kubectl apply --server-side` names it, forcing
 * conflicts with a `make run-local` that created them), then awaited until Established, so the restarted
 * manager's watches find the new schema.
 */
import { join } from 'node:path';
import { Client } from '../runtime/client/client.js';
import { defaultKindRegistry } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';
import { Kubeconfig } from '../runtime/client/kubeconfig.js';
import { Transport } from '../runtime/client/transport.js';
import { readCrdFolder } from '../testing/parsed-manifests.js';

type CustomResourceDefinition = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };

const CRD_KIND = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' } as const;

export class CrdInstaller {
  private readonly client: Client;

  constructor(kubeconfigPath: string) {
    this.client = new Client(new Transport(Kubeconfig.fromFile(kubeconfigPath)), defaultKindRegistry);
  }

  /** Applies every CRD of the project and waits for each to be Established; resolves to their names. */
  async apply(root: string): Promise<string[]> {
    const names: string[] = [];
    for (const crd of (await readCrdFolder(join(root, 'config/crd/bases'))) as CustomResourceDefinition[]) {
      await this.client.apply(crd, { fieldManager: 'kubectl', force: true });
      names.push(crd.metadata!.name!);
    }
    for (const name of names) await this.established(name);
    return names;
  }

  private async established(name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const crd = await this.client.get<CustomResourceDefinition>(CRD_KIND, { name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
      if (attempt >= 100) throw new Error(`CRD ${name} was not Established within 5 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
