/**
 * Cost of the duplicate-key check on JSON request bodies, as the API server runs it: decoding a body
 * Buffer (toString + JSON.parse) alone vs decoding plus the check (which reads the text once more),
 * interleaved rounds, medians.
 */
// Run: npx tsc -p tsconfig.build.json && node bench/duplicate-fields.bench.mjs
const { duplicateFields } = await import(process.env.DUPLICATE_FIELDS_MODULE ?? '../dist/cluster/http/json-duplicate-fields.js');

const deployment = JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web', 'app.kubernetes.io/name': 'web' }, annotations: { 'example.com/url': 'http://x:8080/a' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: Array.from({ length: 20 }, (_, i) => ({ name: `V${i}`, value: `x:${i}` })) }] } } },
});
const configMap = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key${i}`, `value:${i}:${'x'.repeat(100)}`])) });

function time(fn, rounds) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) fn();
  return Number(process.hrtime.bigint() - start) / rounds / 1000;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const [name, text, rounds] of [['deployment', deployment, 2000], ['configmap 5000 keys', configMap, 20]]) {
  const body = Buffer.from(text, 'utf8');
  const plain = [];
  const checked = [];
  for (let run = 0; run < 15; run++) {
    plain.push(time(() => JSON.parse(body.toString('utf8')), rounds));
    checked.push(time(() => duplicateFields(body.toString('utf8'), JSON.parse(body.toString('utf8'))), rounds));
  }
  console.log(`${name} (${text.length} bytes): parse ${median(plain).toFixed(1)} µs, parse+check ${median(checked).toFixed(1)} µs, ratio ${(median(checked) / median(plain)).toFixed(2)}`);
}
