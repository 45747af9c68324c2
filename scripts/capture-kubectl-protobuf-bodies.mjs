#!/usr/bin/env node
// Records the protobuf request bodies real kubectl 1.32 sends for its `create` subcommands (and `auth
// can-i` / `auth whoami`), with the JSON the same command prints under `--dry-run=client -o json`, into
// src/cluster/protobuf/testdata/kubectl-create-bodies.json — the fixtures of kubectl-bodies.test.ts.
// kubectl -v=9 logs a binary request body as a hex dump; the body is taken from that dump. Each command
// runs against a local cluster (from dist/: build first) with --dry-run=server where kubectl has it, so a
// kind the cluster does not serve still gets its body sent (and answered 404).
//
// Usage: npx tsc -p tsconfig.build.json && node scripts/capture-kubectl-protobuf-bodies.mjs [kubectl binary]
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(repoRoot, 'src/cluster/protobuf/testdata/kubectl-create-bodies.json');
const kubectl = process.argv[2] ?? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';
const { startLocalCluster } = await import(path.join(repoRoot, 'dist/cluster/index.js'));

const inputs = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-capture-inputs-'));
fs.writeFileSync(path.join(inputs, 'app.properties'), 'mode=fast\nlevel=3\n');
fs.writeFileSync(path.join(inputs, 'blob.bin'), Buffer.from([0, 1, 2, 250, 251, 252]));

/** [name, args after `create`, has --dry-run] — the object kinds kubectl's create subcommands build. */
const commands = [
  ['deployment two images', ['deployment', 'multi', '--image=nginx', '--image=redis'], true],
  ['configmap from env file and file', ['configmap', 'env', `--from-env-file=${path.join(inputs, 'app.properties')}`], true],
  ['secret from binary file', ['secret', 'generic', 'files', `--from-file=${path.join(inputs, 'blob.bin')}`], true],
  ['rolebinding to a clusterrole', ['rolebinding', 'viewers', '--clusterrole=view', '--group=devs'], true],
  ['service clusterip headless', ['service', 'clusterip', 'headless', '--clusterip=None'], true],
  ['ingress default backend', ['ingress', 'simple', '--default-backend=svc:http', '--rule=/path=svc2:80'], true],
  ['priorityclass global default', ['priorityclass', 'default-pc', '--value=10', '--global-default'], true],
  ['deployment', ['deployment', 'web', '--image=nginx', '--replicas=2', '--port=80'], true],
  ['job', ['job', 'once', '--image=busybox', '--', 'sh', '-c', 'sleep 1'], true],
  ['cronjob', ['cronjob', 'hello', '--image=busybox', '--schedule=*/5 * * * *', '--restart=OnFailure', '--', 'echo', 'hi'], true],
  ['configmap', ['configmap', 'settings', '--from-literal=a=1', '--from-literal=b=two'], true],
  ['secret generic', ['secret', 'generic', 'sec', '--from-literal=k=v', '--type=Opaque'], true],
  ['secret docker-registry', ['secret', 'docker-registry', 'reg', '--docker-username=u', '--docker-password=p', '--docker-server=registry.example.com'], true],
  ['namespace', ['namespace', 'team-a'], true],
  ['serviceaccount', ['serviceaccount', 'robot'], true],
  ['role', ['role', 'reader', '--verb=get,list', '--resource=configmaps,pods/log', '--resource-name=one'], true],
  ['rolebinding', ['rolebinding', 'reader-bob', '--role=reader', '--user=bob', '--serviceaccount=default:robot'], true],
  ['clusterrole', ['clusterrole', 'aggregated', '--aggregation-rule=rbac.example.com/aggregate=true'], true],
  ['clusterrole rules', ['clusterrole', 'ns-reader', '--verb=get', '--resource=namespaces', '--non-resource-url=/healthz'], true],
  ['clusterrolebinding', ['clusterrolebinding', 'ns-reader-devs', '--clusterrole=ns-reader', '--group=devs'], true],
  ['service clusterip', ['service', 'clusterip', 'svc', '--tcp=5678:8080'], true],
  ['service nodeport', ['service', 'nodeport', 'np', '--tcp=80:http', '--node-port=30080'], true],
  ['service loadbalancer', ['service', 'loadbalancer', 'lb', '--tcp=80:8080'], true],
  ['service externalname', ['service', 'externalname', 'ext', '--external-name=example.com'], true],
  ['ingress', ['ingress', 'ing', '--class=default', '--rule=foo.com/bar*=svc1:8080,tls=my-cert', '--annotation=team=a'], true],
  ['priorityclass', ['priorityclass', 'high', '--value=1000', '--description=high priority', '--preemption-policy=Never'], true],
  ['priorityclass zero', ['priorityclass', 'zero', '--value=0'], true],
  ['quota', ['quota', 'q', '--hard=cpu=1,memory=1G,pods=2', '--scopes=BestEffort'], true],
  ['pdb', ['pdb', 'web-pdb', '--selector=app=web', '--min-available=50%'], true],
  ['poddisruptionbudget', ['poddisruptionbudget', 'web-pdb2', '--selector=app=web', '--max-unavailable=1'], true],
  ['token', ['token', 'default', '--duration=2h', '--audience=api', '--audience=vault'], false],
];

/** The protobuf request body (and its content type) in kubectl -v=9 output: the hex dump after "Request Body:". */
function bodyFrom(stderr) {
  const lines = stderr.split('\n');
  const start = lines.findIndex((l) => /"Request Body" body=<$/.test(l));
  if (start < 0) return undefined;
  const bytes = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^\s*([0-9a-f]{8}) {2}((?:[0-9a-f]{2} {1,2}){1,16})/.exec(line);
    if (!m) break;
    bytes.push(...m[2].trim().split(/\s+/).map((h) => parseInt(h, 16)));
  }
  const contentType = /-H "Content-Type: ([^"]+)"/.exec(stderr)?.[1];
  return { contentType, body: Buffer.from(bytes).toString('base64') };
}

const cluster = await startLocalCluster({});
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-capture-'));
// asynchronous: the cluster answers from this process's event loop
const run = (args) =>
  new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: home, KUBECACHEDIR: path.join(home, 'cache') };
    execFile(kubectl, ['--kubeconfig', cluster.kubeconfigPath, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => resolve({ status: err ? 1 : 0, stdout, stderr }));
  });
const fixtures = [];
try {
  for (const [name, args, dryRun] of commands) {
    const sent = bodyFrom((await run(['create', ...(dryRun ? ['--dry-run=server'] : []), '-v=9', ...args])).stderr);
    if (!sent?.body) throw new Error(`kubectl create ${args.join(' ')}: no request body in its -v=9 log`);
    const client = dryRun ? await run(['create', '--dry-run=client', '-o', 'json', ...args]) : undefined;
    if (client && client.status !== 0) throw new Error(`kubectl create ${args.join(' ')} --dry-run=client: ${client.stderr}`);
    fixtures.push({ name, command: ['create', ...args], ...sent, ...(client ? { clientJson: JSON.parse(client.stdout) } : {}) });
  }
  for (const [name, args] of [['auth can-i', ['auth', 'can-i', 'list', 'pods', '--subresource=log', '-n', 'kube-system']], ['auth whoami', ['auth', 'whoami']]]) {
    fixtures.push({ name, command: args, ...bodyFrom((await run([...args, '-v=9'])).stderr) });
  }
} finally {
  await cluster.stop();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(inputs, { recursive: true, force: true });
}
const version = /Client Version: (\S+)/.exec(execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }))?.[1];
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, `${JSON.stringify({ kubectl: version, fixtures }, null, 2)}\n`);
process.stderr.write(`${fixtures.length} bodies from kubectl ${version} → ${path.relative(repoRoot, output)}\n`);
