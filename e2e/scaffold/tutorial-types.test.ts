/**
 * The CronJob tutorial's first step on a made project (issue 14 item 3): the placeholder `foo` is replaced
 * by real fields, some required (schedule, jobTemplate from kubernetes-types, a history limit with a
 * minimum), and `make test` — manifests, generate, the strict type-check and the project's jest — stays
 * green: the scaffolded controller and webhook tests build their objects from the CRD's required fields.
 * A second version of the kind with its own webhook is in the project too (the second-version webhook bug).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, createWebhook, init, linkDependencies, runInProject, tempProject } from './scaffold-harness.js';

const run = (command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> => runInProject(command, args, cwd);

/** The tutorial's CronJobSpec, in place of the scaffold's. */
const TUTORIAL_SPEC = `export interface CronJobSpec {
  /** The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron. */
  // +kubebuilder:validation:MinLength=0
  schedule: string;

  /** Optional deadline in seconds for starting the job if it misses scheduled time for any reason. */
  // +kubebuilder:validation:Minimum=0
  startingDeadlineSeconds?: int64;

  /** Specifies how to treat concurrent executions of a Job. */
  concurrencyPolicy?: ConcurrencyPolicy;

  /** This flag tells the controller to suspend subsequent executions. */
  suspend?: boolean;

  /** Specifies the job that will be created when executing a CronJob. */
  jobTemplate: JobTemplateSpec;

  /** The number of successful finished jobs to retain. */
  // +kubebuilder:validation:Minimum=1
  successfulJobsHistoryLimit: int32;

  /** What the jobs run as. */
  // +kubebuilder:validation:Enum=batch;interactive
  mode: 'batch' | 'interactive';
}

/** ConcurrencyPolicy describes how the job will be handled. */
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';
`;

describe('the CronJob tutorial\'s first step on a made project', () => {
  const project = tempProject('project');
  let root = '';

  beforeAll(async () => {
    root = project.root;
    expect(init(root, { domain: 'tutorial.kubebuilder.io', repo: 'cronjob-tutorial' }).code).toBe(0);
    expect(await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
    expect(await createWebhook(root, { group: 'batch', version: 'v1', kind: 'CronJob', defaulting: true, programmaticValidation: true, make: false })).toMatchObject({ code: 0, err: '' });
    expect(await createApi(root, { group: 'batch', version: 'v2', kind: 'CronJob', controller: false, make: false })).toMatchObject({ code: 0, err: '' });
    expect(await createWebhook(root, { group: 'batch', version: 'v2', kind: 'CronJob', defaulting: true, make: false })).toMatchObject({ code: 0, err: '' });

    const typesPath = join(root, 'api/v1/cronjob_types.ts');
    const types = readFileSync(typesPath, 'utf8');
    const start = types.indexOf('export interface CronJobSpec {');
    const end = types.indexOf('\n}\n', start) + 3;
    expect(start).toBeGreaterThan(0);
    const edited = (types.slice(0, start) + TUTORIAL_SPEC + types.slice(end))
      .replace("import type { Condition, ListMeta, ObjectMeta } from 'kubeforge/api';", "import type { Condition, int32, int64, ListMeta, ObjectMeta } from 'kubeforge/api';\nimport type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';")
      // v1 stays the storage version, as in the tutorial's multi-version step.
      .replace('// +kubebuilder:subresource:status\n', '// +kubebuilder:subresource:status\n// +kubebuilder:storageversion\n');
    expect(edited).toContain('jobTemplate: JobTemplateSpec;');
    expect(edited).toContain('// +kubebuilder:storageversion');
    expect(edited).not.toContain('foo');
    writeFileSync(typesPath, edited);
    linkDependencies(root);
  }, 120_000);
  afterAll(() => project.remove());

  it('make test is green: manifests, generate, the type-check and the scaffolded controller and webhook tests', async () => {
    const result = await run('make', ['test'], root);
    expect({ code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ code: 0, output: '' });
    // The required fields reached the CRD, and both versions' handler tests ran.
    const crd = readFileSync(join(root, 'config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml'), 'utf8');
    expect(crd).toMatch(/required:\n\s+- jobTemplate\n\s+- mode\n\s+- schedule\n\s+- successfulJobsHistoryLimit/);
    expect(result.output).toContain('PASS internal/controller/cronjob_controller.test.ts');
    expect(result.output).toContain('PASS internal/webhook/v1/cronjob_webhook.test.ts');
    expect(result.output).toContain('PASS internal/webhook/v2/cronjob_webhook.test.ts');
    expect(result.output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
  }, 300_000);
});
