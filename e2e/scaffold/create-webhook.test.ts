/**
 * `kubeforge create webhook`: handler skeletons with `+kubebuilder:webhook` markers, the generated
 * webhook manifests, config/webhook and config/certmanager, the config/default edits, and the
 * registration in cmd/main.ts and internal/webhook/index.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { createApi, createWebhook, init, read, tempProject, treeHash } from './scaffold-harness.js';

describe('kubeforge create webhook', () => {
  const project = tempProject('tutorial');
  let first: { code: number; out: string; err: string };

  beforeAll(async () => {
    init(project.root, { domain: 'tutorial.kubebuilder.io' });
    await createApi(project.root, { group: 'batch', version: 'v1', kind: 'CronJob' });
    first = await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'CronJob', defaulting: true, programmaticValidation: true });
  });
  afterAll(() => project.remove());

  it('writes handler skeletons with the markers kubebuilder uses', () => {
    expect(first).toMatchObject({ code: 0, err: '' });
    const handler = read(project.root, 'internal/webhook/v1/cronjob_webhook.ts');
    expect(handler).toContain(
      '// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1',
    );
    expect(handler).toContain('/validate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=false');
    expect(handler).toContain('export class CronJobCustomDefaulter');
    expect(handler).toContain('export class CronJobCustomValidator');
    expect(existsSync(join(project.root, 'internal/webhook/v1/cronjob_webhook.test.ts'))).toBe(true);
    // the handler shapes come from kubeforge/runtime (issue 18): no admission plumbing copied into the project
    expect(handler).toContain("import type { CustomDefaulter, CustomValidator, Manager } from 'kubeforge/runtime';");
    expect(existsSync(join(project.root, 'internal/webhook/admission.ts'))).toBe(false);
    expect(readdirSync(join(project.root, 'internal/webhook')).sort()).toEqual(['index.ts', 'v1']);
  });

  it('runs manifests: config/webhook/manifests.yaml holds both configurations', () => {
    expect(first.out).toContain('wrote config/webhook/manifests.yaml');
    const kinds = parseAllDocuments(read(project.root, 'config/webhook/manifests.yaml')).map((d) => (d.toJS() as { kind: string }).kind);
    expect(kinds).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
  });

  it('adds config/webhook and config/certmanager and enables the webhook in config/default', () => {
    expect(parse(read(project.root, 'config/webhook/kustomization.yaml')).resources).toEqual(['manifests.yaml', 'service.yaml']);
    expect(read(project.root, 'config/certmanager/certificate-webhook.yaml')).toContain('tutorial-webhook-service.tutorial-system.svc');
    const defaults = parse(read(project.root, 'config/default/kustomization.yaml'));
    expect(defaults.resources).toContain('../webhook');
    expect(defaults.resources).toContain('../certmanager');
    expect(defaults.patches).toContainEqual({ path: 'manager_webhook_patch.yaml', target: { kind: 'Deployment' } });
    expect(read(project.root, 'config/default/manager_webhook_patch.yaml')).toContain('secretName: webhook-server-cert');
  });

  it('enables cert-manager and CA injection in config/default, as kubebuilder 4 does (kubectl kustomize)', () => {
    const defaults = parse(read(project.root, 'config/default/kustomization.yaml'));
    // The certificate's DNS names and both configurations' annotations; the conversion block stays off.
    const targets = (defaults.replacements as Array<{ targets: Array<{ select: { kind: string } }> }>).map((r) => r.targets[0]!.select.kind);
    expect(targets).toEqual(['Certificate', 'Certificate', 'ValidatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'MutatingWebhookConfiguration']);
    const rendered = parseAllDocuments(execFileSync('kubectl', ['kustomize', join(project.root, 'config/default')], { encoding: 'utf8' })).map((d) => d.toJS() as { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: { dnsNames?: string[] } });
    const byKind = (kind: string) => rendered.find((o) => o.kind === kind);
    expect(byKind('Certificate')?.spec?.dnsNames).toEqual(['tutorial-webhook-service.tutorial-system.svc', 'tutorial-webhook-service.tutorial-system.svc.cluster.local']);
    expect(byKind('Issuer')?.metadata.name).toBe('tutorial-selfsigned-issuer');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      expect({ kind, annotations: byKind(kind)?.metadata.annotations }).toEqual({ kind, annotations: { 'cert-manager.io/inject-ca-from': 'tutorial-system/tutorial-serving-cert' } });
    }
    expect(byKind('CustomResourceDefinition')?.metadata.annotations?.['cert-manager.io/inject-ca-from']).toBeUndefined();
  });

  it('registers the webhooks in cmd/main.ts and internal/webhook/index.ts', () => {
    const main = read(project.root, 'cmd/main.ts');
    expect(main).toContain("import { setupWebhooks } from '../internal/webhook/index.js';");
    expect(main).toMatch(/setupWebhooks\(mgr\);\n\s+\/\/ \+kubebuilder:scaffold:webhooks/);
    expect(read(project.root, 'cmd/run-local.ts')).toContain("if (process.env.ENABLE_WEBHOOKS !== 'false') setupWebhooks(mgr);");
    const index = read(project.root, 'internal/webhook/index.ts');
    expect(index).toContain("import { setupCronJobWebhookWithManager } from './v1/cronjob_webhook.js';");
    expect(index).toContain('paths.push(...setupCronJobWebhookWithManager(mgr));');
    const handler = read(project.root, 'internal/webhook/v1/cronjob_webhook.ts');
    expect(handler).toContain("mgr.webhookServer.registerDefaulter(CronJobKind, new CronJobCustomDefaulter(), '/mutate-batch-tutorial-kubebuilder-io-v1-cronjob')");
    expect(handler).toContain("mgr.webhookServer.registerValidator(CronJobKind, new CronJobCustomValidator(), '/validate-batch-tutorial-kubebuilder-io-v1-cronjob')");
  });

  it('records the webhooks in PROJECT', () => {
    expect(parse(read(project.root, 'PROJECT')).resources[0].webhooks).toEqual({ defaulting: true, validation: true, webhookVersion: 'v1' });
  });

  it('refuses the same webhook twice and changes nothing', async () => {
    const before = treeHash(project.root);
    const again = await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'CronJob', defaulting: true });
    expect(again.code).toBe(1);
    expect(again.err).toBe('kubeforge create webhook: --defaulting "true": CronJob already has this webhook (see PROJECT); use --force to scaffold it again');
    expect(treeHash(project.root)).toBe(before);
  });

  it('adds a conversion webhook later (hub v1, spoke v2), keeping the others, with the CRD patch enabled', async () => {
    expect((await createApi(project.root, { group: 'batch', version: 'v2', kind: 'CronJob', make: false })).code).toBe(0);
    const r = await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v2'], make: false });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(parse(read(project.root, 'PROJECT')).resources[0].webhooks).toEqual({ conversion: true, defaulting: true, spoke: ['v2'], validation: true, webhookVersion: 'v1' });
    expect(read(project.root, 'internal/webhook/v1/cronjob_webhook.ts')).toContain('export class CronJobCustomDefaulter');
    expect(read(project.root, 'internal/webhook/v1/cronjob_conversion.ts')).toContain('mgr.webhookFor(CronJobHub.hub).withConversion(cronJobConversion).complete()');
    expect(read(project.root, 'internal/webhook/index.ts')).toContain('paths.push(...setupCronJobConversionWithManager(mgr));');
    expect(read(project.root, 'config/crd/kustomization.yaml')).toMatch(/\n- path: patches\/webhook_in_cronjobs\.yaml\n/);
    expect(read(project.root, 'config/crd/patches/webhook_in_cronjobs.yaml')).toContain('strategy: Webhook');
    // The admission configurations stay listed next to the conversion.
    expect(parse(read(project.root, 'config/webhook/kustomization.yaml')).resources).toEqual(['manifests.yaml', 'service.yaml']);
    // CA injection into the CRDs too, now that a conversion webhook serves them.
    const targets = (parse(read(project.root, 'config/default/kustomization.yaml')).replacements as Array<{ targets: Array<{ select: { kind: string } }> }>).map((r) => r.targets[0]!.select.kind);
    expect(targets.filter((k) => k === 'CustomResourceDefinition')).toHaveLength(2);
    // Enabling the webhook again is idempotent: main.ts keeps one registration.
    expect(read(project.root, 'cmd/main.ts').match(/setupWebhooks\(mgr\)/g)).toHaveLength(1);
  });

  it('adds a second spoke without --force, next to the first', async () => {
    expect((await createApi(project.root, { group: 'batch', version: 'v3', kind: 'CronJob', make: false })).code).toBe(0);
    expect(await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v3'], make: false })).toMatchObject({ code: 0, err: '' });
    expect(parse(read(project.root, 'PROJECT')).resources[0].webhooks.spoke).toEqual(['v2', 'v3']);
    const registration = read(project.root, 'internal/webhook/v1/cronjob_conversion.ts');
    expect(registration).toMatch(/cronJobConversion\.spoke\(CronJobV2Convertible\);\ncronJobConversion\.spoke\(CronJobV3Convertible\);\n\/\/ \+kubebuilder:scaffold:spokes/);
    expect(existsSync(join(project.root, 'api/v3/cronjob_conversion.test.ts'))).toBe(true);
    expect(read(project.root, 'internal/webhook/index.ts').match(/setupCronJobConversionWithManager\(mgr\)/g)).toHaveLength(1);
  });

  it('never overwrites a handler file without --force; with it, renders every webhook the kind has', async () => {
    await createApi(project.root, { group: 'batch', version: 'v1', kind: 'Schedule' });
    expect((await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'Schedule', defaulting: true, make: false })).code).toBe(0);
    const before = treeHash(project.root);
    const blocked = await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'Schedule', programmaticValidation: true, make: false });
    expect(blocked.code).toBe(1);
    expect(blocked.err).toContain('internal/webhook/v1/schedule_webhook.ts already exists (use --force to overwrite it)');
    expect(treeHash(project.root)).toBe(before);
    const forced = await createWebhook(project.root, { group: 'batch', version: 'v1', kind: 'Schedule', programmaticValidation: true, force: true, make: false });
    expect(forced).toMatchObject({ code: 0, err: '' });
    const handler = read(project.root, 'internal/webhook/v1/schedule_webhook.ts');
    expect(handler).toContain('export class ScheduleCustomDefaulter');
    expect(handler).toContain('export class ScheduleCustomValidator');
    expect(read(project.root, 'internal/webhook/index.ts').match(/setupScheduleWebhookWithManager\(mgr\)/g)).toHaveLength(1);
  });

  it('registers a second version of a kind under its own name (kubebuilder imports each version package by name)', async () => {
    // v2 was added by the conversion test above.
    expect(parse(read(project.root, 'PROJECT')).resources.map((r: { version: string }) => r.version)).toContain('v2');
    expect(await createWebhook(project.root, { group: 'batch', version: 'v2', kind: 'CronJob', defaulting: true, make: false })).toMatchObject({ code: 0, err: '' });
    const index = read(project.root, 'internal/webhook/index.ts');
    expect(index).toContain("import { setupCronJobWebhookWithManager } from './v1/cronjob_webhook.js';");
    expect(index).toContain("import { setupCronJobWebhookWithManager as setupCronJobV2WebhookWithManager } from './v2/cronjob_webhook.js';");
    expect(index).toContain('paths.push(...setupCronJobV2WebhookWithManager(mgr));');
    expect(index.match(/paths\.push\(\.\.\.setupCronJobWebhookWithManager\(mgr\)\);/g)).toHaveLength(1);
    // Scaffolding v2 again (--force) keeps one import and one registration.
    expect(await createWebhook(project.root, { group: 'batch', version: 'v2', kind: 'CronJob', defaulting: true, force: true, make: false })).toMatchObject({ code: 0 });
    expect(read(project.root, 'internal/webhook/index.ts')).toBe(index);
  });
});

describe('kubeforge create webhook in a project made before config/default had the cert-manager replacements', () => {
  const project = tempProject('older');
  afterAll(() => project.remove());

  it('enables the webhook and leaves cert-manager to the user', async () => {
    init(project.root, { domain: 'example.com' });
    await createApi(project.root, { group: 'ship', version: 'v1', kind: 'Frigate', make: false });
    const path = join(project.root, 'config/default/kustomization.yaml');
    const current = read(project.root, 'config/default/kustomization.yaml');
    const older = current.slice(0, current.indexOf('# [CERTMANAGER] To enable cert-manager, uncomment ../certmanager above and the replacements'));
    expect(older).toContain('#- path: manager_webhook_patch.yaml');
    writeFileSync(path, older);
    expect(await createWebhook(project.root, { group: 'ship', version: 'v1', kind: 'Frigate', defaulting: true, make: false })).toMatchObject({ code: 0, err: '' });
    const defaults = parse(read(project.root, 'config/default/kustomization.yaml'));
    expect(defaults.resources).toContain('../webhook');
    expect(defaults.resources).not.toContain('../certmanager');
    expect(defaults.replacements).toBeUndefined();
  });
});
