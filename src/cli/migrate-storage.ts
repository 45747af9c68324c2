/**
 * `kubeforge cluster migrate-storage <crd>`: kube-storage-version-migrator's work for one CRD, over the
 * API of whatever cluster the kubeconfig names (the local one or a real one): every object is read in
 * the storage version and written back unchanged — the server stores it in the storage version,
 * converting through the CRD's webhook — then `status.storedVersions` is trimmed to that version.
 */
import { isConflict, isNotFound } from '../runtime/client/api-error.js';
import type { KubeObject } from '../runtime/client/object.js';
import { inClusterIfInPod } from '../runtime/client/in-cluster.js';
import { Kubeconfig } from '../runtime/client/kubeconfig.js';
import { Transport } from '../runtime/client/transport.js';

type Crd = KubeObject & { spec: { group: string; names: { plural: string }; versions: Array<{ name: string; storage?: boolean }> }; status?: { storedVersions?: string[] } };

interface MigrationReport {
  crd: string;
  storageVersion: string;
  objects: number;
  storedVersions: string[];
}

const crdPath = (name: string): string => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;

function itemPath(base: string, plural: string, o: KubeObject): string {
  const ns = o.metadata?.namespace;
  return `${base}/${ns ? `namespaces/${ns}/` : ''}${plural}/${o.metadata!.name}`;
}

/** Writes one object back in the storage version, reading it again after a conflict. */
async function rewrite(transport: Transport, path: string, object: KubeObject): Promise<boolean> {
  let current = object;
  for (let attempt = 1; ; attempt++) {
    try {
      await transport.request('PUT', path, { body: current, query: { fieldManager: 'storage-version-migrator' } });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      if (!isConflict(err) || attempt >= 5) throw err;
      current = await transport.request<KubeObject>('GET', path);
    }
  }
}

export async function migrateStorageOverApi(transport: Transport, crdName: string): Promise<MigrationReport> {
  const crd = await transport.request<Crd>('GET', crdPath(crdName)).catch((err: unknown) => {
    if (isNotFound(err)) throw new Error(`customresourcedefinition ${crdName} not found`);
    throw err;
  });
  const storageVersion = crd.spec.versions.find((v) => v.storage)?.name;
  if (!storageVersion) throw new Error(`customresourcedefinition ${crdName} has no storage version`);
  const base = `/apis/${crd.spec.group}/${storageVersion}`;
  let objects = 0;
  let token: string | undefined;
  do {
    const page = await transport.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>('GET', `${base}/${crd.spec.names.plural}`, { query: { limit: 500, continue: token } });
    for (const item of page.items ?? []) if (await rewrite(transport, itemPath(base, crd.spec.names.plural, item), item)) objects++;
    token = page.metadata?.continue || undefined;
  } while (token);
  for (let attempt = 1; ; attempt++) {
    const latest = await transport.request<Crd>('GET', crdPath(crdName));
    try {
      const saved = await transport.request<Crd>('PUT', `${crdPath(crdName)}/status`, { body: { ...latest, status: { ...latest.status, storedVersions: [storageVersion] } }, query: { fieldManager: 'storage-version-migrator' } });
      return { crd: crdName, storageVersion, objects, storedVersions: saved.status?.storedVersions ?? [] };
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
    }
  }
}

/** The command's action: the kubeconfig from --kubeconfig, else $KUBECONFIG or ~/.kube/config. */
export async function runMigrateStorage(crdName: string, opts: { kubeconfig?: string }): Promise<void> {
  const kubeConfig = opts.kubeconfig ? Kubeconfig.fromFile(opts.kubeconfig) : Kubeconfig.fromDefault(inClusterIfInPod);
  const report = await migrateStorageOverApi(new Transport(kubeConfig), crdName);
  process.stdout.write(`customresourcedefinition ${report.crd}: ${report.objects} object(s) written in storage version ${report.storageVersion}; status.storedVersions: [${report.storedVersions.join(', ')}]\n`);
}
