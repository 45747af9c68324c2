/**
 * The event source of the CronController: JobConfig informer events keep the CronBook's schedule heap,
 * and one timer on the manager's clock — never the wall clock — runs the ticks. The timer sleeps until
 * the whole second of the earliest heap entry rather than waking every second: a tick with nothing due does
 * nothing, so the outcome is the same, and tests can step hours of virtual time in a few timer firings.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject, Source, Timer } from 'kubeforge/runtime';
import { JobConfigKind } from '../../api/v1alpha1/jobconfig_types.js';
import type { CronBook } from '../schedule/cron-book.js';

/**
 * The source of the cron controller: JobConfig informer events keep the book (register on add — at start
 * and, [KF-F1], on creation; refresh when `spec.schedule` changes; remove on delete), and a timer on the
 * manager's clock runs the ticks and emits one event per JobConfig that got due schedule times. A change of
 * Furiko's cron settings (the dynamic config) parses every JobConfig's schedule again.
 */
export function cronScheduleSource(book: CronBook): Source<KubeObject> {
  let session: { stopped: boolean; timer?: Timer; wakeAt?: number; sync?: () => Promise<void>; unsubscribe?: () => void } | undefined;
  return {
    start(dispatch, context) {
      book.clear();
      const current: NonNullable<typeof session> = { stopped: false };
      session = current;
      const clock = context.clock;
      const reschedule = (): void => {
        if (current.stopped) return;
        const wakeAt = book.nextTickMs(clock.now());
        if (wakeAt === current.wakeAt) return;
        current.timer?.cancel();
        current.timer = undefined;
        current.wakeAt = wakeAt;
        if (wakeAt === undefined) return;
        current.timer = clock.schedule(wakeAt, () => {
          if (current.stopped) return;
          current.timer = undefined;
          current.wakeAt = undefined;
          for (const key of book.tick(clock.now())) {
            const [namespace, name] = key.split('/') as [string, string];
            dispatch.generic({ object: { metadata: { namespace, name } } });
          }
          reschedule();
        });
      };
      const informer = context.cache.informerFor(JobConfigKind);
      current.sync = () => informer.waitForSync();
      informer.addHandler({
        onAdd: (jobConfig) => {
          if (current.stopped) return;
          book.register(jobConfig, clock.now());
          reschedule();
        },
        onUpdate: (before, after) => {
          if (current.stopped || isDeepStrictEqual(before.spec?.schedule, after.spec?.schedule)) return;
          book.refresh(after, clock.now());
          reschedule();
        },
        onDelete: (jobConfig) => {
          if (current.stopped) return;
          book.remove(`${jobConfig.metadata!.namespace}/${jobConfig.metadata!.name}`);
          reschedule();
        },
      });
      // Furiko's dynamic config changed the cron settings: every JobConfig's schedule is parsed again.
      current.unsubscribe = book.onCronConfigChange(() => {
        if (current.stopped) return;
        for (const jobConfig of informer.store.values()) book.reparse(jobConfig, clock.now());
        reschedule();
      });
    },
    waitForSync: () => session?.sync?.() ?? Promise.resolve(),
    stop() {
      if (!session) return;
      session.stopped = true;
      session.timer?.cancel();
      session.unsubscribe?.();
      book.clear();
    },
  };
}
