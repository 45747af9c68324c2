/** The seven cron fields of cronexpr: names (as error messages print them), bounds and accepted value spellings. */

export interface FieldDescriptor {
  /** Name used in error messages and in hash keys. */
  readonly name: 'second' | 'minute' | 'hour' | 'day-of-month' | 'month' | 'day-of-week' | 'year';
  readonly min: number;
  readonly max: number;
  /** Upper bound of a plain `H` (day-of-month hashes into 1–28 so every month has the day). */
  readonly hashMax: number;
  /** Regular-expression alternation of one value, matched against the lower-cased item. */
  readonly valuePattern: string;
  /** Value of one spelling matched by valuePattern. */
  readonly valueOf: (text: string) => number;
}

const MONTH_NAMES: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
};

const DAY_NAMES: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tuesday: 2, wed: 3, wednesday: 3, thu: 4, thursday: 4,
  fri: 5, friday: 5, sat: 6, saturday: 6,
};

const number = (text: string): number => Number.parseInt(text, 10);

function numberOrName(names: Record<string, number>): (text: string) => number {
  return (text) => names[text] ?? number(text);
}

const SECOND_MINUTE_PATTERN = '0?[0-9]|[1-5][0-9]';

export const SECOND: FieldDescriptor = {
  name: 'second', min: 0, max: 59, hashMax: 59, valuePattern: SECOND_MINUTE_PATTERN, valueOf: number,
};
export const MINUTE: FieldDescriptor = {
  name: 'minute', min: 0, max: 59, hashMax: 59, valuePattern: SECOND_MINUTE_PATTERN, valueOf: number,
};
export const HOUR: FieldDescriptor = {
  name: 'hour', min: 0, max: 23, hashMax: 23, valuePattern: '0?[0-9]|1[0-9]|2[0-3]', valueOf: number,
};
export const DAY_OF_MONTH: FieldDescriptor = {
  name: 'day-of-month', min: 1, max: 31, hashMax: 28, valuePattern: '0?[1-9]|[12][0-9]|3[01]', valueOf: number,
};
export const MONTH: FieldDescriptor = {
  name: 'month',
  min: 1,
  max: 12,
  hashMax: 12,
  valuePattern: `0?[1-9]|1[012]|${Object.keys(MONTH_NAMES).join('|')}`,
  valueOf: numberOrName(MONTH_NAMES),
};
/** 7 is Sunday (valueOf gives 0); a span ending at 7 ends at 6 instead (see field-parser). */
export const DAY_OF_WEEK: FieldDescriptor = {
  name: 'day-of-week',
  min: 0,
  max: 6,
  hashMax: 6,
  valuePattern: `0?[0-7]|${Object.keys(DAY_NAMES).join('|')}`,
  valueOf: (text) => numberOrName(DAY_NAMES)(text) % 7,
};
/** Quartz format (cronexpr's quartzDowDescriptor): 1–7 are SUN–SAT (0 and 8 are not values); names as standard. */
const QUARTZ_DAY_NUMBERS: Record<string, number> = { 1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6 };
export const QUARTZ_DAY_OF_WEEK: FieldDescriptor = {
  name: 'day-of-week',
  min: 0,
  max: 6,
  hashMax: 6,
  valuePattern: `0?[1-7]|${Object.keys(DAY_NAMES).join('|')}`,
  valueOf: (text) => DAY_NAMES[text] ?? QUARTZ_DAY_NUMBERS[String(number(text))]!,
};
export const YEAR: FieldDescriptor = {
  name: 'year', min: 1970, max: 2099, hashMax: 2099, valuePattern: '19[789][0-9]|20[0-9]{2}', valueOf: number,
};
