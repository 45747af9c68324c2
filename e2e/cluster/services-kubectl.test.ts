/**
 * Services through real kubectl 1.32 as on kind: the `kubernetes` Service and its endpoints, cluster IPs
 * allocated from 10.96.0.0/16 without collisions (and released on delete), node ports from 30000-32767,
 * LoadBalancer `<pending>`, headless and ExternalName, `kubectl create service` (protobuf) and
 * `kubectl expose deployment`, the 1.32 validation messages, and Endpoints/EndpointSlices following pods
 * as they start and as their readiness changes.
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

/** The node the kubelet simulator runs pods on (kind's single node is kubeforge-control-plane). */
const podNode = 'kubeforge-control-plane';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);
const row = (table: string, name: string): string[] => table.split('\n').find((l) => l.startsWith(`${name} `))!.trim().split(/\s+/);

test('the kubernetes Service: 10.96.0.1, https 443 → 6443, endpoints at the control-plane node', async () => {
  const table = await kubectl.ok(['get', 'svc']);
  expect(table.split('\n')[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
  expect(row(table, 'kubernetes').slice(0, 5)).toEqual(['kubernetes', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP']);
  const svc = await getJson(['get', 'svc', 'kubernetes']);
  expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
  expect(svc.spec).toEqual({
    clusterIP: '10.96.0.1',
    clusterIPs: ['10.96.0.1'],
    internalTrafficPolicy: 'Cluster',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    sessionAffinity: 'None',
    type: 'ClusterIP',
  });
  expect(row(await kubectl.ok(['get', 'ep', 'kubernetes']), 'kubernetes').slice(0, 2)).toEqual(['kubernetes', '172.18.0.2:6443']);
  const slices = await kubectl.ok(['get', 'endpointslices', 'kubernetes']);
  expect(slices.split('\n')[0]).toMatch(/^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/);
  expect(row(slices, 'kubernetes').slice(0, 4)).toEqual(['kubernetes', 'IPv4', '6443', '172.18.0.2']);
});

test('kubectl create service: cluster IPs from the service CIDR, node ports, LoadBalancer pending, headless, ExternalName', async () => {
  expect(await kubectl.ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080'])).toBe('service/web created\n');
  await kubectl.ok(['create', 'service', 'clusterip', 'web2', '--tcp=80:8080']);
  await kubectl.ok(['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080']);
  await kubectl.ok(['create', 'service', 'loadbalancer', 'lb', '--tcp=443:8443']);
  await kubectl.ok(['create', 'service', 'clusterip', 'headless', '--clusterip=None']);
  await kubectl.ok(['create', 'service', 'externalname', 'ext', '--external-name=example.com']);
  const table = await kubectl.ok(['get', 'svc']);
  const [web, web2, np, lb, headless, ext] = ['web', 'web2', 'np', 'lb', 'headless', 'ext'].map((n) => row(table, n));
  expect(web!.slice(1, 5)).toEqual(['ClusterIP', web![2], '<none>', '80/TCP']);
  expect(web![2]).toMatch(/^10\.96\.(\d+)\.(\d+)$/);
  expect(web![2]).not.toMatch(/^10\.96\.0\./);
  expect(web2![2]).not.toBe(web![2]);
  expect(np!.slice(1, 5)).toEqual(['NodePort', np![2], '<none>', '80:30080/TCP']);
  expect(lb![1]).toBe('LoadBalancer');
  expect(lb![3]).toBe('<pending>');
  expect(lb![4]).toMatch(/^443:(3[0-2]\d{3})\/TCP$/);
  const lbPort = Number(/^443:(\d+)/.exec(lb![4]!)![1]);
  expect(lbPort).toBeGreaterThanOrEqual(30000);
  expect(lbPort).toBeLessThanOrEqual(32767);
  expect(headless!.slice(1, 5)).toEqual(['ClusterIP', 'None', '<none>', '<none>']);
  expect(ext!.slice(1, 5)).toEqual(['ExternalName', '<none>', 'example.com', '<none>']);
  const spec = (await getJson(['get', 'svc', 'web'])).spec;
  expect(spec).toEqual({
    clusterIP: web![2],
    clusterIPs: [web![2]],
    internalTrafficPolicy: 'Cluster',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
    selector: { app: 'web' },
    sessionAffinity: 'None',
    type: 'ClusterIP',
  });
});

test('a requested address or node port already held is refused with 422; deleting the holder releases it', async () => {
  const ip = (await getJson(['get', 'svc', 'web'])).spec.clusterIP;
  const taken = await kubectl.run(['create', 'service', 'clusterip', 'copy', `--clusterip=${ip}`, '--tcp=80']);
  expect(taken.stderr).toContain(`error: failed to create ClusterIP service: Service "copy" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`);
  const port = await kubectl.run(['create', 'service', 'nodeport', 'np-copy', '--tcp=80', '--node-port=30080']);
  expect(port.stderr).toContain('error: failed to create NodePort service: Service "np-copy" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
  await kubectl.ok(['delete', 'svc', 'web']);
  expect(await kubectl.ok(['create', 'service', 'clusterip', 'copy', `--clusterip=${ip}`, '--tcp=80'])).toBe('service/copy created\n');
});

test('the 1.32 validation messages: invalid and changed cluster IPs, duplicate ports, unnamed ports', async () => {
  const invalid = await kubectl.run(['create', 'service', 'clusterip', 'bad', '--clusterip=10.96.300.1', '--tcp=80']);
  expect(invalid.stderr).toContain('error: failed to create ClusterIP service: Service "bad" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.300.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
  const changed = await kubectl.run(['patch', 'svc', 'web2', '-p', '{"spec":{"clusterIP":"10.96.0.50","clusterIPs":["10.96.0.50"]}}']);
  expect(changed.stderr).toContain('The Service "web2" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set');
  const service = (ports: unknown[]) => stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ports' }, spec: { selector: { app: 'x' }, ports } });
  const dup = await kubectl.run(['apply', '-f', '-'], service([{ name: 'a', port: 80 }, { name: 'b', port: 80 }]));
  expect(dup.stderr).toContain(
    'The Service "ports" is invalid: spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  );
  const unnamed = await kubectl.run(['apply', '-f', '-'], service([{ port: 80 }, { port: 81 }]));
  expect(unnamed.stderr).toContain('The Service "ports" is invalid: \n* spec.ports[0].name: Required value\n* spec.ports[1].name: Required value\n');
});

test('kubectl expose deployment makes a Service selecting the Deployment’s pods on its container port', async () => {
  await kubectl.ok(['create', 'deployment', 'shop', '--image=nginx:1.27', '--port=8080']);
  // no --port: kubectl takes the container port of the Deployment's template
  expect(await kubectl.ok(['expose', 'deployment', 'shop'])).toBe('service/shop exposed\n');
  const svc = await getJson(['get', 'svc', 'shop']);
  expect(svc.spec.selector).toEqual({ app: 'shop' });
  expect(svc.spec.ports).toEqual([{ port: 8080, protocol: 'TCP', targetPort: 8080 }]);
  expect(svc.spec.clusterIP).toMatch(/^10\.96\./);
});

test('Endpoints and EndpointSlices follow pods: empty until they start, then ready, not ready, and gone', async () => {
  await kubectl.ok(['apply', '-f', '-'], stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'app' }, spec: { selector: { app: 'app' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } }));
  const pod = (name: string) =>
    stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'app' }, annotations: { 'sim.kubeforge.io/start-delay': '5s' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { httpGet: { path: '/', port: 8080 } } }] },
    });
  await kubectl.ok(['apply', '-f', '-'], `${pod('app-1')}---\n${pod('app-2')}`);
  await suite.cluster.settle();
  expect(row(await kubectl.ok(['get', 'ep', 'app']), 'app')[1]).toBe('<none>');
  expect(row(await kubectl.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=app']), (await getJson(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=app'])).items[0].metadata.name).slice(1, 4)).toEqual(['IPv4', '<unset>', '<unset>']);

  await suite.cluster.clock.advance(5000);
  await suite.cluster.settle();
  const ips = await Promise.all(['app-1', 'app-2'].map(async (n) => (await getJson(['get', 'pod', n])).status.podIP as string));
  expect(ips.every((ip) => /^10\.244\./.test(ip))).toBe(true);
  const ep = await getJson(['get', 'ep', 'app']);
  expect(ep.subsets).toHaveLength(1);
  expect(ep.subsets[0].addresses.map((a: any) => [a.ip, a.targetRef.name, a.nodeName])).toEqual(
    [...ips].sort().map((ip) => [ip, ip === ips[0] ? 'app-1' : 'app-2', podNode]),
  );
  expect(ep.subsets[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  expect(row(await kubectl.ok(['get', 'ep', 'app']), 'app')[1]).toBe([...ips].sort().map((ip) => `${ip}:8080`).join(','));
  const [slice] = (await getJson(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=app'])).items;
  expect(slice.metadata.name).toMatch(/^app-[a-z0-9]{5}$/);
  expect(slice.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
  expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  expect(slice.endpoints.map((e: any) => e.conditions)).toEqual([
    { ready: true, serving: true, terminating: false },
    { ready: true, serving: true, terminating: false },
  ]);

  expect(await kubectl.ok(['describe', 'svc', 'app'])).toMatch(new RegExp(`\\nEndpoints:\\s+${[...ips].sort().map((ip) => `${ip.replace(/\./g, '\\.')}:8080`).join(',')}\\n`));

  // app-1's readiness probe starts failing: it moves to notReadyAddresses and its slice endpoint to ready=false
  await kubectl.ok(['annotate', 'pod', 'app-1', 'sim.kubeforge.io/readiness=fail']);
  await suite.cluster.settle();
  const after = await getJson(['get', 'ep', 'app']);
  expect(after.subsets[0].addresses.map((a: any) => a.targetRef.name)).toEqual(['app-2']);
  expect(after.subsets[0].notReadyAddresses.map((a: any) => a.targetRef.name)).toEqual(['app-1']);
  const unready = (await getJson(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=app'])).items[0].endpoints.find((e: any) => e.targetRef.name === 'app-1');
  expect(unready.conditions).toEqual({ ready: false, serving: false, terminating: false });

  await kubectl.ok(['delete', 'pod', 'app-2', '--wait=false']);
  await suite.cluster.settle();
  expect((await getJson(['get', 'ep', 'app'])).subsets[0].addresses).toBeUndefined();
  await kubectl.ok(['delete', 'svc', 'app']);
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'ep', 'app'])).stderr).toContain('endpoints "app" not found');
  expect((await getJson(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=app'])).items).toEqual([]);
});

test('the API server writes the kubernetes Service and its endpoints again when they are deleted', async () => {
  await kubectl.ok(['delete', 'svc', 'kubernetes']);
  await kubectl.ok(['delete', 'ep', 'kubernetes']);
  await suite.cluster.settle();
  expect((await getJson(['get', 'svc', 'kubernetes'])).spec.clusterIP).toBe('10.96.0.1');
  expect(row(await kubectl.ok(['get', 'ep', 'kubernetes']), 'kubernetes')[1]).toBe('172.18.0.2:6443');
});
