/** Furiko's dynamic ConfigMap (keys jobs, jobConfigs, cron): field names, defaults, and errors that name the key, line and field. */
import { defaultFurikoConfig } from './config.js';
import { ConfigError, parseDynamicConfig } from './dynamic-config.js';

const source = 'ConfigMap furiko-system/execution-dynamic-config';

describe('parseDynamicConfig', () => {
  test("no ConfigMap, or one with only Furiko's _readme, is Furiko's defaults", () => {
    expect(parseDynamicConfig(undefined, source)).toEqual(defaultFurikoConfig);
    expect(parseDynamicConfig({ _readme: '# notes' }, source)).toEqual(defaultFurikoConfig);
    expect(defaultFurikoConfig).toMatchObject({
      defaultTTLSecondsAfterFinished: 3600,
      defaultPendingTimeoutSeconds: 900,
      forceDeleteTaskTimeoutSeconds: 900,
      maxEnqueuedJobs: 20,
      cronFormat: 'standard',
      cronHashNames: true,
      cronHashSecondsByDefault: false,
      cronHashFields: true,
      defaultTimezone: 'UTC',
      maxMissedSchedules: 5,
      maxDowntimeThresholdSeconds: 300,
    });
  });

  test("Furiko's sample ConfigMap (config/execution/dynamic/config.yaml) with every field changed", () => {
    const config = parseDynamicConfig(
      {
        jobs: 'apiVersion: config.furiko.io/v1alpha1\nkind: JobExecutionConfig\ndefaultTTLSecondsAfterFinished: 60\ndefaultPendingTimeoutSeconds: 0\nforceDeleteTaskTimeoutSeconds: 30\n',
        jobConfigs: 'apiVersion: config.furiko.io/v1alpha1\nkind: JobConfigExecutionConfig\nmaxEnqueuedJobs: 3\n',
        cron: [
          'apiVersion: config.furiko.io/v1alpha1',
          'kind: CronExecutionConfig',
          'cronFormat: "quartz"',
          'cronHashNames: false',
          'cronHashSecondsByDefault: true',
          'cronHashFields: false',
          'defaultTimezone: "Asia/Singapore"',
          'maxMissedSchedules: 0',
          'maxDowntimeThresholdSeconds: 600',
        ].join('\n'),
      },
      source,
    );
    expect(config).toEqual({
      defaultTTLSecondsAfterFinished: 60,
      defaultPendingTimeoutSeconds: 0,
      forceDeleteTaskTimeoutSeconds: 30,
      maxEnqueuedJobs: 3,
      cronFormat: 'quartz',
      cronHashNames: false,
      cronHashSecondsByDefault: true,
      cronHashFields: false,
      defaultTimezone: 'Asia/Singapore',
      maxMissedSchedules: 0,
      maxDowntimeThresholdSeconds: 600,
    });
  });

  test('a field left out keeps its default; JSON works too; an empty timezone or a threshold of 0 means the default', () => {
    const config = parseDynamicConfig({ jobs: '{"defaultTTLSecondsAfterFinished": 120}', cron: 'defaultTimezone: ""\nmaxDowntimeThresholdSeconds: 0\n' }, source);
    expect(config).toEqual({ ...defaultFurikoConfig, defaultTTLSecondsAfterFinished: 120 });
  });

  test.each([
    [{ cron: 'cronFormat: quartz\ncronHashNames: "yes"\n' }, `${source} data.cron line 2: cronHashNames: expected true or false, got string "yes"`],
    [{ cron: 'cronFormat: unix\n' }, `${source} data.cron line 1: cronFormat: expected one of "", "standard", "quartz", got "unix"`],
    [{ cron: '\ndefaultTimezone: Mars/Olympus\n' }, `${source} data.cron line 2: defaultTimezone: cannot parse timezone "Mars/Olympus"`],
    [{ jobs: 'defaultTTLSecondsAfterFinshed: 60\n' }, `${source} data.jobs line 1: defaultTTLSecondsAfterFinshed: unknown field (known: apiVersion, kind, defaultTTLSecondsAfterFinished, defaultPendingTimeoutSeconds, forceDeleteTaskTimeoutSeconds)`],
    [{ jobConfigs: 'maxEnqueuedJobs: 2.5\n' }, `${source} data.jobConfigs line 1: maxEnqueuedJobs: expected a whole number, got number 2.5`],
    [{ jobConfigs: 'maxEnqueuedJobs: -1\n' }, `${source} data.jobConfigs line 1: maxEnqueuedJobs: must be at least 0, got -1`],
    [{ jobs: 'kind: CronExecutionConfig\n' }, `${source} data.jobs line 1: kind: expected JobExecutionConfig, got "CronExecutionConfig"`],
    [{ cron: 'cronFormat: [quartz\n' }, `${source} data.cron line 2: `],
    [{ cron: '- quartz\n' }, `${source} data.cron line 1: expected a map of fields`],
  ])('%j is rejected: %s', (data, message) => {
    expect(() => parseDynamicConfig(data, source)).toThrow(ConfigError);
    expect(() => parseDynamicConfig(data, source)).toThrow(message);
  });
});
