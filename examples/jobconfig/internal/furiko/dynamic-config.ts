/**
 * Furiko's dynamic configuration (config.furiko.io/v1alpha1): the ConfigMap whose keys `jobs`
 * (JobExecutionConfig), `jobConfigs` (JobConfigExecutionConfig) and `cron` (CronExecutionConfig) each hold a
 * YAML or JSON document. Each field left out takes Furiko's default; other keys (Furiko's `_readme`) are
 * ignored. A bad document is a ConfigError naming the ConfigMap, the key, the line and the field.
 */
import { CRON_FORMATS, parseTimeZone } from '../cronexpr/index.js';
import { defaultFurikoConfig, type FurikoConfig } from './config.js';
import { ConfigError, YamlFields } from './yaml-fields.js';

/** Where Furiko looks for it unless the bootstrap configuration says otherwise. */
export const DEFAULT_DYNAMIC_CONFIG = Object.freeze({ namespace: 'furiko-system', name: 'execution-dynamic-config' });

const API_VERSION = 'config.furiko.io/v1alpha1';

/** The ConfigMap keys (Furiko's ConfigName) and the kind each document may declare. */
export const DYNAMIC_CONFIG_KINDS = Object.freeze({ jobs: 'JobExecutionConfig', jobConfigs: 'JobConfigExecutionConfig', cron: 'CronExecutionConfig' });

/**
 * The configuration `data` describes, over `base` (Furiko's defaults; the ConfigMap's configuration when
 * `data` is the dynamic Secret's, whose fields win). `source` names the ConfigMap or Secret in messages.
 */
export function parseDynamicConfig(data: Readonly<Record<string, string>> | undefined, source: string, base: Readonly<FurikoConfig> = defaultFurikoConfig): FurikoConfig {
  const config: FurikoConfig = { ...base };
  const read = (key: keyof typeof DYNAMIC_CONFIG_KINDS): YamlFields | undefined => {
    const text = data?.[key];
    if (text === undefined) return undefined;
    const fields = YamlFields.parse(text, (line) => `${source} data.${key} line ${line}`);
    const apiVersion = fields.string('apiVersion');
    if (apiVersion !== undefined && apiVersion !== API_VERSION) throw fields.error('apiVersion', `expected ${API_VERSION}, got ${JSON.stringify(apiVersion)}`);
    const kind = fields.string('kind');
    if (kind !== undefined && kind !== DYNAMIC_CONFIG_KINDS[key]) throw fields.error('kind', `expected ${DYNAMIC_CONFIG_KINDS[key]}, got ${JSON.stringify(kind)}`);
    return fields;
  };

  const jobs = read('jobs');
  if (jobs) {
    jobs.only(['apiVersion', 'kind', 'defaultTTLSecondsAfterFinished', 'defaultPendingTimeoutSeconds', 'forceDeleteTaskTimeoutSeconds']);
    config.defaultTTLSecondsAfterFinished = jobs.integer('defaultTTLSecondsAfterFinished', 0) ?? config.defaultTTLSecondsAfterFinished;
    config.defaultPendingTimeoutSeconds = jobs.integer('defaultPendingTimeoutSeconds', 0) ?? config.defaultPendingTimeoutSeconds;
    config.forceDeleteTaskTimeoutSeconds = jobs.integer('forceDeleteTaskTimeoutSeconds', 0) ?? config.forceDeleteTaskTimeoutSeconds;
  }

  const jobConfigs = read('jobConfigs');
  if (jobConfigs) {
    jobConfigs.only(['apiVersion', 'kind', 'maxEnqueuedJobs']);
    config.maxEnqueuedJobs = jobConfigs.integer('maxEnqueuedJobs', 0) ?? config.maxEnqueuedJobs;
  }

  const cron = read('cron');
  if (cron) {
    cron.only(['apiVersion', 'kind', 'cronFormat', 'cronHashNames', 'cronHashSecondsByDefault', 'cronHashFields', 'defaultTimezone', 'maxMissedSchedules', 'maxDowntimeThresholdSeconds']);
    // An empty cronFormat is the standard one (Furiko's `omitempty` string).
    config.cronFormat = cron.oneOf('cronFormat', ['', ...CRON_FORMATS]) || config.cronFormat;
    config.cronHashNames = cron.bool('cronHashNames') ?? config.cronHashNames;
    config.cronHashSecondsByDefault = cron.bool('cronHashSecondsByDefault') ?? config.cronHashSecondsByDefault;
    config.cronHashFields = cron.bool('cronHashFields') ?? config.cronHashFields;
    // "If left empty, UTC will be used as the default timezone."
    const timezone = cron.string('defaultTimezone');
    if (timezone) {
      try {
        parseTimeZone(timezone);
      } catch {
        throw cron.error('defaultTimezone', `cannot parse timezone ${JSON.stringify(timezone)}`);
      }
      config.defaultTimezone = timezone;
    }
    config.maxMissedSchedules = cron.integer('maxMissedSchedules', 0) ?? config.maxMissedSchedules;
    // Furiko falls back to 5 minutes for a threshold that is not positive.
    const threshold = cron.integer('maxDowntimeThresholdSeconds');
    if (threshold !== undefined && threshold > 0) config.maxDowntimeThresholdSeconds = threshold;
  }
  return config;
}

export { ConfigError };
