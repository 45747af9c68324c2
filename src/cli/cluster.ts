/**
 * `kubeforge cluster start`: runs the local cluster in the foreground on the real clock, writes a
 * kubeconfig, prints the `export KUBECONFIG=…` line, and stops cleanly on Ctrl-C; with `--data-dir` it
 * keeps the cluster (objects, CA, tokens, port) in that directory across restarts.
 */
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { contextNameFor } from '../cluster/kubeconfig.js';
import { parseImageMapping } from '../cluster/controllers/local-images.js';

const limits = `
What the local cluster does not do (yet):
  - no container runtime and no pod network: a scheduler binds pods to simulated nodes (--nodes) and a
    simulated kubelet per node runs them by rule (sim.kubeforge.io/* annotations, the container command),
    writing status, events and log lines (kubectl logs works); the scheduler never preempts. Only an image
    mapped with --image runs for real, as a Node.js process of this machine (as the cluster's user) on its
    own loopback pod IP 127.244.<node>.<n> (Linux routes 127.0.0.0/8; on macOS add the aliases)
  - exec, attach and port-forward, and proxy to pods not run with --image (pods, services, nodes), need a
    container or the network: they answer as a real API server does when the kubelet cannot be reached
    ("error dialing backend: dial tcp 172.18.0.2:10250: connect: connection refused", 500; proxies 503)
  - Services get cluster IPs (10.96.0.0/16), node ports (30000-32767), Endpoints and EndpointSlices, but
    only the API server routes through them (webhooks, services/proxy) to pods run with --image; nothing
    else proxies their traffic and no cluster DNS runs; LoadBalancer Services stay <pending> (no cloud)
  - storage is simulated: the default StorageClass \`standard\` (rancher.io/local-path, WaitForFirstConsumer)
    provisions PersistentVolumes on the node the scheduler picks but writes no files; claims are never
    expanded; claims of other provisioners wait at ExternalProvisioning unless a matching volume exists
  - HorizontalPodAutoscalers are stored, validated and served as autoscaling/v2 and v1, but no metrics
    pipeline runs: nothing is scaled by them; APIServices that name a Service are never proxied (Available
    False); CSRs are signed only for the kube-apiserver-client and kube-apiserver-client-kubelet signers
  - Deployments' pod-template-hash is 1.32's, except for templates with quantities beyond int64 or finer
    than 1n; refused pod creations are retried after 1 s, doubling (kube-controller-manager: 5 ms)
  - a pod created before its namespace's default ServiceAccount exists is admitted as default (kube-apiserver
    retries for a second, then refuses)
  - built-in admission keeps no audit log: PodSecurity's audit mode and ValidatingAdmissionPolicy's Audit
    action and auditAnnotations are recorded nowhere
  - protobuf request bodies are decoded for every built-in kind (message tables taken from kubectl 1.32's own
    descriptors) except CustomResourceDefinition and APIService objects, which get 415 like custom resources
    (send them as JSON); responses are always JSON
  - CEL rules run on @marcbachmann/cel-js with the Kubernetes libraries of 1.32; the runtime cost is an
    upper bound, and what cel-js cannot evaluate (two-variable comprehensions, optional entries in literals)
    is refused when the CRD is created
  - admission webhooks are not called for writes through /scale or pods/eviction; /openapi/v2 is an empty
    document (kubectl 1.32 validates and explains through /openapi/v3); a mutated server-side apply is
    stored as an update`;

/** `alice` or `alice:dev,ops` → user and groups. */
export function parseCertificateUser(value: string): { user: string; groups: string[] } {
  const [user = '', groupText] = value.split(/:(.*)/s);
  const groups = groupText === undefined ? [] : groupText.split(',').map((g) => g.trim());
  if (!user.trim() || groups.some((g) => g === '')) throw new Error(`--cert-user: expected <user> or <user>:<group>,<group>, got ${JSON.stringify(value)}`);
  return { user: user.trim(), groups };
}

/** `--image` values → image → absolute project folder; the folder must exist. */
export function imageMappings(values: string[]): Record<string, string> {
  const images: Record<string, string> = {};
  for (const value of values) {
    const { image, projectDir } = parseImageMapping(value);
    const dir = resolve(projectDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--image ${value}: project folder ${dir} does not exist`);
    if (images[image] !== undefined) throw new Error(`--image ${value}: image ${image} is already mapped to ${images[image]}`);
    images[image] = dir;
  }
  return images;
}

export function register(program: Command): void {
  const cluster = program.command('cluster').description('run the local Kubernetes 1.32 API server (no downloads, no Docker)');
  cluster
    .command('migrate-storage <crd-name>')
    .description('rewrite every object of a CRD in its current storage version, then trim status.storedVersions to it (kube-storage-version-migrator)')
    .option('--kubeconfig <path>', 'kubeconfig of the cluster (default: $KUBECONFIG, else ~/.kube/config)')
    .action(async (crdName: string, opts: { kubeconfig?: string }) => {
      const { runMigrateStorage } = await import('./migrate-storage.js');
      await runMigrateStorage(crdName, opts);
    });
  cluster
    .command('start')
    .description('start the local cluster in the foreground on the real clock')
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', '0')
    .option('--kubeconfig <path>', 'also write the admin kubeconfig here')
    .option('--now <time>', 'RFC 3339 time the cluster clock starts at (default: now)')
    .option('--nodes <count>', 'simulated nodes, named as kind names them: kubeforge-control-plane, kubeforge-worker, kubeforge-worker2, …', '1')
    .option(
      '--cert-user <user[:group,...]>',
      'also add a user authenticated by a client certificate the cluster CA signs (CN = user, O = groups), with context kubeforge-<user>; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--data-dir <dir>', 'keep the cluster in this directory (SQLite): objects, CA, tokens and port survive a restart; every write is on disk before it is answered (default: memory only)')
    .option('--fresh', 'with --data-dir: start empty, deleting what the directory held')
    .option(
      '--image <name=project dir>',
      'run containers with this image as a real Node.js process from a local build (the project folder: its Dockerfile ENTRYPOINT/CMD, else node --enable-source-maps dist/cmd/main.js); a missing tag is :latest, a digest must match; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--cert-manager', "stand in for cert-manager: serve the cert-manager.io Issuer/ClusterIssuer/Certificate CRDs, issue Certificates from selfSigned and ca issuers into their Secrets, inject CAs where cert-manager.io/inject-ca-from asks (what a project's config/certmanager needs)")
    .addHelpText('after', limits)
    .action(async (opts: { port: string; kubeconfig?: string; now?: string; nodes: string; certUser: string[]; dataDir?: string; fresh?: boolean; image: string[]; certManager?: boolean }) => {
      const port = Number(opts.port);
      const nodes = Number(opts.nodes);
      if (!Number.isInteger(nodes) || nodes < 1 || nodes > 100) throw new Error(`--nodes: expected a number of nodes from 1 to 100, got ${JSON.stringify(opts.nodes)}`);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: expected a port number, got ${JSON.stringify(opts.port)}`);
      if (opts.now !== undefined && Number.isNaN(Date.parse(opts.now))) throw new Error(`--now: expected an RFC 3339 time, got ${JSON.stringify(opts.now)}`);
      const certificateUsers = opts.certUser.map(parseCertificateUser);
      if (opts.fresh && !opts.dataDir) throw new Error('--fresh: only meaningful with --data-dir');
      const images = imageMappings(opts.image);
      // the cluster (and everything it serves) loads only for this command
      const { startLocalCluster } = await import('../cluster/index.js');
      const started = await startLocalCluster({
        ...(Object.keys(images).length ? { images } : {}),
        ...(opts.certManager ? { certManager: true } : {}),
        clock: 'real',
        port,
        nodes,
        ...(opts.now ? { now: opts.now } : {}),
        ...(certificateUsers.length ? { certificateUsers } : {}),
        ...(opts.dataDir ? { dataDir: resolve(opts.dataDir), fresh: opts.fresh ?? false } : {}),
      });
      let kubeconfig = started.kubeconfigPath;
      if (opts.kubeconfig) {
        kubeconfig = resolve(opts.kubeconfig);
        copyFileSync(started.kubeconfigPath, kubeconfig);
      }
      process.stdout.write(`kubeforge local cluster (Kubernetes v1.32) serving at ${started.url}\n`);
      if (opts.dataDir) process.stdout.write(`data kept in ${resolve(opts.dataDir)} (resourceVersion ${started.internals.store.resourceVersion})\n`);
      process.stdout.write(`export KUBECONFIG=${kubeconfig}\n`);
      for (const [image, dir] of Object.entries(images)) process.stdout.write(`image ${image} runs from ${dir}\n`);
      if (opts.certManager) process.stdout.write('cert-manager.io Issuers and Certificates are served (selfSigned and ca issuers; CA injection)\n');
      for (const u of certificateUsers) process.stdout.write(`client-certificate user ${u.user} (groups: ${u.groups.join(',') || 'none'}): kubectl --context ${contextNameFor(u.user)}\n`);
      await new Promise<void>((done) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void started.stop().then(done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      process.stdout.write('kubeforge local cluster stopped\n');
    });
}
