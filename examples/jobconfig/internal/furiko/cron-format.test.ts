/** `cronFormat` of Furiko's cron config reaches both users of the parser: the cron schedule and the JobConfig webhook. */
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { scheduleRuleOf } from '../schedule/schedule-rule.js';
import { validateJobConfig } from '../webhook/v1alpha1/jobconfig_webhook.js';
import { defaultFurikoConfig, type FurikoConfig } from './config.js';

const quartz: FurikoConfig = { ...defaultFurikoConfig, cronFormat: 'quartz' };
const ref = { namespace: 'default', name: 'weekly' };
const nextAfter = (expression: string, config: FurikoConfig, from: string) =>
  new Date(scheduleRuleOf(ref, { cron: { expression } }, config)!.next(Date.parse(from))!).toISOString();

function jobConfigWith(expression: string): JobConfig {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'JobConfig',
    metadata: { name: 'weekly', namespace: 'default' },
    spec: {
      concurrency: { policy: 'Allow' },
      schedule: { cron: { expression } },
      template: { spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } } },
    },
  };
}

test('the cron schedule reads day of week 2 as Monday in quartz, Tuesday in standard', () => {
  expect(nextAfter('0 0 11 ? * 2 *', quartz, '2020-12-12T00:00:00Z')).toBe('2020-12-14T11:00:00.000Z');
  expect(nextAfter('0 0 11 ? * 2 *', defaultFurikoConfig, '2020-12-12T00:00:00Z')).toBe('2020-12-15T11:00:00.000Z');
});

test('the JobConfig webhook parses with the configured format: day of week 0 is rejected in quartz only', () => {
  expect(() => validateJobConfig(jobConfigWith('0 0 11 ? * 0 *'), quartz)).toThrow('spec.schedule.cron.expression: Invalid value: "0 0 11 ? * 0 *": cannot parse cron schedule');
  expect(() => validateJobConfig(jobConfigWith('0 0 11 ? * 0 *'), defaultFurikoConfig)).not.toThrow();
  expect(() => validateJobConfig(jobConfigWith('0 0 11 ? * 7 *'), quartz)).not.toThrow();
});
