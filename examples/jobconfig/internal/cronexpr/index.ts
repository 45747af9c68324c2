/**
 * Furiko's cron expressions (furiko-io/cronexpr v0.1.3 semantics, with `H` hashing) and time zones:
 * the public surface the webhooks and the cron scheduler import.
 */
export { CronParseError } from './errors.js';
export type { CronFormat, CronOptions } from './options.js';
export { CRON_FORMATS } from './options.js';
export type { CronExpression } from './expression.js';
export { parseCron, nextOfAll } from './expression.js';
export type { TimeZone } from './time-zone.js';
export { parseTimeZone } from './time-zone.js';
export { xxHash64 } from './xxhash64.js';
