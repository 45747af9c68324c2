/**
 * `kubeforge dev` (issue 14, the inner loop) in a made project, started as a child process: the manager
 * runs against the local cluster dev keeps; editing the controller restarts the manager and the new
 * behaviour shows through the cluster; editing a type under api/ puts the new field into the CRD in the
 * cluster; a syntax error is printed once and the loop waits, then the fix is built and run; so is a
 * manager that fails at start; Ctrl-C ends
 * dev, the manager and the waiting host. Every wait is on a line dev prints (its readiness signals); the
 * kubectl checks after a restart poll with a bound (the manager reconciles on the real clock).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { DevProcess } from './dev-process.js';
import { CHECKOUT, createApi, init, linkDependencies, tempProject } from './scaffold-harness.js';

const CONTROLLER = 'internal/controller/widget_controller.ts';
const TYPES = 'api/v1/widget_types.ts';

/** Polls kubectl (real clock) every 200 ms until `check` gives a value other than '' or the bound passes. */
async function eventually(read: () => Promise<string>, limitMs = 30_000): Promise<string> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (value !== '' || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Saves `path` once with every replacement made. */
function edit(root: string, path: string, ...replacements: Array<[string | RegExp, string]>): void {
  const file = join(root, path);
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of replacements) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`${path}: ${String(from)} not found`);
    text = next;
  }
  writeFileSync(file, text);
}

const restarted = (path: string): RegExp => new RegExp(`manager restarted (\\d+) ms after the change \\(${path.replace(/[.]/g, '\\.')} changed;`);

describe('kubeforge dev in a made project', () => {
  const project = tempProject('widgets');
  let dev: DevProcess;
  let kubectl: Kubectl;

  beforeAll(async () => {
    if (!existsSync(join(CHECKOUT, 'dist/cli/dev.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` first`);
    const root = project.root;
    expect(init(root).code).toBe(0);
    expect((await createApi(root, { group: 'batch', version: 'v1', kind: 'Widget', resource: true, controller: true })).code).toBe(0);
    linkDependencies(root);
    dev = new DevProcess(root);
    const started = await dev.waitFor(/export KUBECONFIG=(\S+)\n/, 0, 90_000);
    expect(started[1]).toBe(join(root, '.kubeforge/kubeconfig'));
    kubectl = new Kubectl(started[1]!);
    await dev.waitFor(/manager running \d+ ms after the start/, 0, 120_000);
  }, 240_000);

  afterAll(async () => {
    if (dev && dev.exit === undefined) await dev.interrupt();
    dev?.killGroup();
    kubectl?.cleanup();
    project.remove();
  });

  it('an edited controller is rebuilt and restarted, and its new behaviour shows in the cluster', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'batch.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { foo: 'x' } }));
    // The scaffolded controller leaves the Widget alone.
    const before = await kubectl.ok(['get', 'widget', 'w1', '-n', 'default', '-o', "jsonpath={.metadata.annotations['dev\\.kubeforge\\.io/seen']}"]);
    expect(before).toBe('');

    const from = dev.mark();
    edit(project.root, CONTROLLER, [
      '// TODO(user): your logic here',
      "if (object.metadata?.annotations?.['dev.kubeforge.io/seen'] !== 'v2') await this.mgr.client.patch(object, { metadata: { annotations: { 'dev.kubeforge.io/seen': 'v2' } } });",
    ]);
    const line = await dev.waitFor(restarted(CONTROLLER), from);
    process.stderr.write(`dev.test.ts: controller edit → manager restarted in ${line[1]} ms\n`);
    const seen = await eventually(() => kubectl.ok(['get', 'widget', 'w1', '-n', 'default', '-o', "jsonpath={.metadata.annotations['dev\\.kubeforge\\.io/seen']}"]));
    expect(seen).toBe('v2');
  }, 120_000);

  it('a new field in an api/ type reaches the CRD in the cluster, and the cluster keeps it in objects', async () => {
    const from = dev.mark();
    edit(
      project.root,
      TYPES,
      ["import type { Condition, ListMeta, ObjectMeta } from 'kubeforge/api';", "import type { Condition, ListMeta, ObjectMeta, int32 } from 'kubeforge/api';"],
      [/^ {2}foo\?: string;$/m, '  foo?: string;\n\n  /** replicas is how many copies to run. */\n  // +kubebuilder:validation:Minimum=0\n  replicas?: int32;'],
    );
    await dev.waitFor(/applied CRD widgets\.batch\.example\.com/, from);
    await dev.waitFor(restarted(TYPES), from);
    const schema = await kubectl.ok(['get', 'crd', 'widgets.batch.example.com', '-o', 'jsonpath={.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas}']);
    expect(JSON.parse(schema)).toEqual({ type: 'integer', format: 'int32', minimum: 0, description: 'replicas is how many copies to run.' });
    // Not pruned: the served schema has the field.
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'batch.example.com/v1', kind: 'Widget', metadata: { name: 'w2', namespace: 'default' }, spec: { foo: 'y', replicas: 3 } }));
    expect(await kubectl.ok(['get', 'widget', 'w2', '-n', 'default', '-o', 'jsonpath={.spec.replicas}'])).toBe('3');
    // The deep copies were regenerated for the new field's type.
    expect(readFileSync(join(project.root, 'api/v1/zz_generated.deepcopy.ts'), 'utf8')).toContain('WidgetSpec');
  }, 120_000);

  it('a syntax error is printed once and the loop waits; the fix is built and the manager restarted', async () => {
    const good = readFileSync(join(project.root, CONTROLLER), 'utf8');
    const from = dev.mark();
    writeFileSync(join(project.root, CONTROLLER), `${good}\nexport const broken = ;\n`);
    await dev.waitFor(/waiting for a change/, from);
    const printed = dev.output.slice(from);
    expect(printed).toMatch(/internal\/controller\/widget_controller\.ts\(\d+,\d+\): error TS1109: Expression expected\./);
    expect(printed.match(/error TS1109/g)).toHaveLength(1);
    expect(printed).toContain('nothing was built, the manager keeps running the last good build');
    expect(dev.exit).toBeUndefined();

    const fixed = dev.mark();
    writeFileSync(join(project.root, CONTROLLER), good.replace("'v2'", "'v3'").replace("'v2'", "'v3'"));
    await dev.waitFor(restarted(CONTROLLER), fixed);
    const seen = await eventually(async () => {
      const value = await kubectl.ok(['get', 'widget', 'w1', '-n', 'default', '-o', "jsonpath={.metadata.annotations['dev\\.kubeforge\\.io/seen']}"]);
      return value === 'v3' ? value : '';
    });
    expect(seen).toBe('v3');
  }, 120_000);

  it('a manager that fails at start is reported once with its error; the loop waits and the fix runs', async () => {
    const good = readFileSync(join(project.root, CONTROLLER), 'utf8');
    const from = dev.mark();
    edit(project.root, CONTROLLER, ['export function setupWidgetController(mgr: Manager): void {', "export function setupWidgetController(mgr: Manager): void {\n  if (process.env.WIDGET_SETUP !== 'fine') throw new Error('widget setup broke');"]);
    await dev.waitFor(/the manager exited with code 1 before it ran \(internal\/controller\/widget_controller\.ts changed\); waiting for a change/, from);
    const printed = dev.output.slice(from);
    expect(printed.match(/Error: widget setup broke/g)).toHaveLength(1);
    expect(printed.match(/the manager exited/g)).toHaveLength(1);
    // Source-mapped: the stack names the TypeScript file.
    expect(printed).toMatch(/internal\/controller\/widget_controller\.ts:\d+:\d+/);
    expect(dev.exit).toBeUndefined();

    const fixed = dev.mark();
    writeFileSync(join(project.root, CONTROLLER), good);
    await dev.waitFor(restarted(CONTROLLER), fixed);
  }, 120_000);

  it('Ctrl-C stops the manager, the watcher and the cluster, and dev exits 0', async () => {
    const from = dev.mark();
    const exit = await dev.interrupt();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(dev.output.slice(from)).toContain('kubeforge dev: stopped');
    // The manager got the Ctrl-C too: its exit is part of stopping, not news.
    expect(dev.output.slice(from)).not.toContain('the manager exited');
    expect(dev.groupAlive()).toBe(false);
  }, 60_000);
});
