// `npm run demo`, the README's main command, run as a user runs it (node dist/demo/main.js, which
// `npm test` builds first) with no pause between virtual minutes: it must exit 0 and show the operators at work.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist/demo/main.js')], {
      cwd: repoRoot,
      env: { ...process.env, KUBEFORGE_DEMO_PACE_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('npm run demo (the reference operators on the local cluster)', () => {
  it('runs AT, EventJob, CronJob, JobConfig (Furiko, with an ad-hoc Job from its CLI), Memcached and StorageBucket against the built-in CronJob "hello", shows kubectl tables and exits 0', async () => {
    if (!existsSync(join(repoRoot, 'dist/demo/main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    const demo = await runDemo();
    if (demo.code !== 0) throw new Error(`demo exited ${demo.code}:\n${demo.stdout}\n${demo.stderr}`);
    expect(demo.stderr).toBe('');
    expect(demo.ms).toBeLessThan(60_000);
    const out = demo.stdout;

    // The generator step, then the samples applied with real kubectl.
    expect(out).toContain('All 5 expected files were written.');
    expect(out).toContain('at.batch.my.domain/at-sample created');
    expect(out).toContain('eventjob.batch.kitagry.github.io/eventjob-sample created');
    expect(out).toContain('cronjob.batch/hello created');
    expect(out).toContain('cronjob.batch.tutorial.kubebuilder.io/cronjob-sample created');
    expect(out).toContain('jobconfig.execution.furiko.io/jobconfig-sample created');
    expect(out).toContain('job.execution.furiko.io/job-sample created');
    expect(out).toContain('memcached.cache.example.com/memcached-sample created');
    expect(out).toContain('(the memcached controller deploys MEMCACHED_IMAGE=memcached:1.6.26-alpine, from examples/memcached/config/manager/manager.yaml)');

    // A line per step, naming the Jobs each controller made.
    expect(out).toContain('new Jobs: at-sample-1584798835 (by AT at-sample), Furiko Job job-sample (by no owner)');
    expect(out.split('\n').find((l) => l.startsWith('── minute 1, virtual time '))).toContain('Furiko Job job-sample succeeded');
    for (let minute = 1; minute <= 4; minute++) {
      const line = out.split('\n').find((l) => l.startsWith(`── minute ${minute}, virtual time `));
      expect(line).toMatch(/hello-\d+ \(by CronJob hello\)/);
      expect(line).toMatch(/cronjob-sample-\d+ \(by CronJob cronjob-sample\)/);
      expect(line).toMatch(/eventjob-sample-[a-z0-9]{5} \(by EventJob eventjob-sample\)/);
    }

    // kubectl's own tables: printer columns of the custom resources, Jobs and Events.
    expect(out).toMatch(/NAME +STATUS +LASTSCHEDULETIME +SCHDULE\nat\.batch\.my\.domain\/at-sample +Succeeded /);
    expect(out).toMatch(/NAME +STATUS +COMPLETIONS +DURATION +AGE/);
    expect(out).toMatch(/at-sample-1584798835 +Complete +1\/1 +30s/);
    expect(out).toMatch(/SawCompletedJob +cronjob\/hello +Saw completed job: hello-\d+, status: Complete/);
    expect(out).toMatch(/NAME +AGE +STATE +ACTIVE +QUEUED +LAST EXECUTED +LAST SCHEDULED +CRON SCHEDULE +TIMEZONE\njobconfig\.execution\.furiko\.io\/jobconfig-sample +4m +\w+ +\d +\d .*H\/15 \* \* \* \* +Asia\/Singapore/);
    expect(out).toMatch(/NAME +AGE +PHASE +CREATED TASKS +RUNNING TASKS +RUN TIME +FINISH TIME\njob\.execution\.furiko\.io\/job-sample +4m +Succeeded +1 +0 /);
    expect(out).toMatch(/Created +job\/job-sample +Created task of kind Pod: job-sample-gezdqo-0/);

    // Furiko's CLI as a kubectl plugin: an ad-hoc Job from the JobConfig sample, succeeded by minute 1, described by the CLI.
    const adhoc = /\n\$ kubectl furiko run jobconfig-sample --option user-name=Demo\nJob default\/(jobconfig-sample-[a-z0-9]{5}) created\n/.exec(out)?.[1];
    expect(adhoc).toBeDefined();
    expect(out).toContain(`, Furiko Job ${adhoc} (by JobConfig jobconfig-sample)`);
    expect(out.split('\n').find((l) => l.startsWith('── minute 1, virtual time '))).toContain(`Furiko Job ${adhoc} succeeded`);
    expect(out).toMatch(new RegExp(`\n\\$ kubectl furiko get job ${adhoc}\nJOB INFO\nName: +${adhoc}\nNamespace: +default\nType: +Adhoc\nCreated: +.+\nJob Config: +jobconfig-sample\nConcurrency Policy: +Forbid\n\nJOB STATUS\nState: +Finished\nPhase: +Succeeded\n`));
    expect(out).toContain(`\nok   Furiko Job ${adhoc} (kubectl furiko run): type Adhoc, optionValues {"user-name":"Demo"}, Succeeded\n`);

    // memcached: its Deployment rolls out (a ReplicaSet, a pod Running and Ready), is scaled to 3 with kubectl, and rolls out again.
    expect(out).toMatch(/\nNAME +READY +UP-TO-DATE +AVAILABLE +AGE\ndeployment\.apps\/memcached-sample +1\/1 +1 +1 /);
    expect(out).toMatch(/\$ kubectl patch memcached memcached-sample --type merge -p \{"spec":\{"size":3\}\}\nmemcached\.cache\.example\.com\/memcached-sample patched/);
    expect(out).toMatch(/\nNAME +READY +UP-TO-DATE +AVAILABLE +AGE\ndeployment\.apps\/memcached-sample +3\/3 +3 +3 /);
    expect(out).toMatch(/replicaset\.apps\/memcached-sample-[a-z0-9]+ +3 +3 +3 /);
    expect(out.split('\n').filter((l) => /^memcached-sample-[a-z0-9]+-[a-z0-9]{5} +1\/1 +Running /.test(l)).length).toBeGreaterThanOrEqual(3);
    expect(out.split('\n').find((l) => l.startsWith('── minute 2, virtual time '))).toContain('memcached-sample: 3/3 pods ready');

    // storagebucket: available while its bucket exists in the s3rver; deleted there after minute 1, unavailable at the next tick.
    expect(out).toMatch(/\(the StorageBucket controller probes a real s3rver at http:\/\/127\.0\.0\.1:\d+, which holds the bucket storagebucket-sample\)/);
    expect(out).toContain('storagebucket.storage.example.com/storagebucket-sample created');
    const minuteLine = (minute: number): string | undefined => out.split('\n').find((l) => l.startsWith(`── minute ${minute}, virtual time `));
    expect(minuteLine(1)).toMatch(/; storagebucket-sample: available \(probed \d\d:\d\d:\d\d\)$/);
    expect(out).toMatch(/\n── the object store: bucket storagebucket-sample deleted \(S3 DeleteBucket at http:\/\/127\.0\.0\.1:\d+\); nothing in the cluster changes/);
    expect(minuteLine(2)).toMatch(/; storagebucket-sample: unavailable \(probed \d\d:\d\d:\d\d\)$/);
    expect(out).toMatch(/\nNAME +BUCKET +AVAILABLE +LAST PROBE +AGE\nstoragebucket-sample +storagebucket-sample +true /);
    expect(out).toMatch(/\nNAME +BUCKET +AVAILABLE +LAST PROBE +AGE\nstoragebucket-sample +storagebucket-sample +false /);

    // CronJob's multiversion tutorial: the v1 sample read as v2 through the manager's conversion webhook.
    expect(out).toContain('$ kubectl get cronjobs.v2.batch.tutorial.kubebuilder.io cronjob-sample -n default -o yaml\napiVersion: batch.tutorial.kubebuilder.io/v2\nkind: CronJob\n');
    const v2Yaml = out.slice(out.indexOf('$ kubectl get cronjobs.v2.batch.tutorial.kubebuilder.io'));
    expect(v2Yaml).toMatch(/\n  schedule:\n    minute: '\*\/1'\n/);
    expect(v2Yaml).toMatch(/\n  lastScheduleTime: "[-\dT:]+Z"\n/);

    // The summary.
    expect(out).toMatch(/ok +AT at-sample: 1 Job\(s\)/);
    expect(out).toMatch(/ok +CronJob hello: 4 Job\(s\)/);
    expect(out).toMatch(/ok +EventJob eventjob-sample: [34] Job\(s\)/);
    expect(out).toMatch(/ok +CronJob cronjob-sample: 4 Job\(s\)/);
    expect(out).toMatch(/ok +Furiko Job job-sample: 1 succeeded/);
    expect(out).toMatch(/ok +CronJob cronjob-sample read as v2: schedule \{"minute":"\*\/1"\} \(v1: "\*\/1 \* \* \* \*"\), converted by the manager's conversion webhook\n/);
    expect(out).toMatch(/ok +Memcached memcached-sample: Deployment 3\/3 available \(Available=True\); Memcached Available=True — "Deployment for custom resource \(memcached-sample\) with 3 replicas created successfully"/);
    expect(out).toMatch(/ok +StorageBucket storagebucket-sample: available while its bucket existed \(true\), then available=false \(BucketNotFound\) at [-\dT:]+Z, after the bucket was deleted\n/);
    expect(out).toMatch(
      /\nAT, EventJob, CronJob, JobConfig, Memcached and StorageBucket did what their samples ask: every expected Job appeared \(\d+ Jobs in all\) and memcached-sample runs 3\/3 memcached pods and storagebucket-sample turned unavailable when its bucket was deleted and the furiko CLI's ad-hoc Job jobconfig-sample-[a-z0-9]{5} succeeded\.\n/,
    );

    // The run's transpiled copy of the examples is gone.
    const left = existsSync(join(repoRoot, 'dist/examples')) ? readdirSync(join(repoRoot, 'dist/examples')) : [];
    expect(left.filter((name) => name.startsWith('run-'))).toEqual([]);
    // six operators, a real s3rver and the furiko CLI: about 20 s alone, over a minute on two busy cores
  }, 180_000);
});
