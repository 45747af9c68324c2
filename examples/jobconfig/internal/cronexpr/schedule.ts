/** The parsed form of a cron expression: sorted allowed values per field plus the two day fields. */
import type { DaysOfMonthField, DaysOfWeekField } from './day-fields.js';

export interface Schedule {
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: DaysOfMonthField;
  readonly months: readonly number[];
  readonly daysOfWeek: DaysOfWeekField;
  readonly years: readonly number[];
}
