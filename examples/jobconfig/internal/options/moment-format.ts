/**
 * Formats a zoned time with moment.js display tokens (English locale), as Furiko's Date options do through
 * goment: `YYYY-MM-DD`, `D MMM YYYY`, `dddd`, `Do`, `HH:mm:ss Z`, `[literal]`, `X`, weeks, and the localized
 * `L`/`LL`/`LT`… formats. Unknown characters are copied, as moment copies them.
 */
import { epochMillis, type ZonedTime } from './rfc3339.js';

/** moment's default display format (what an empty Date option format means). */
export const DEFAULT_MOMENT_FORMAT = 'YYYY-MM-DDTHH:mm:ssZ';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The English locale's long date formats, expanded before the other tokens (as moment does). */
const LOCALIZED: Record<string, string> = {
  LTS: 'h:mm:ss A',
  LT: 'h:mm A',
  L: 'MM/DD/YYYY',
  LL: 'MMMM D, YYYY',
  LLL: 'MMMM D, YYYY h:mm A',
  LLLL: 'dddd, MMMM D, YYYY h:mm A',
  l: 'M/D/YYYY',
  ll: 'MMM D, YYYY',
  lll: 'MMM D, YYYY h:mm A',
  llll: 'ddd, MMM D, YYYY h:mm A',
};

const LOCALIZED_TOKENS = /(\[[^\]]*\])|(LTS|LT|LL?L?L?|l{1,4})/g;
const TOKENS =
  /(\[[^\]]*\])|(Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|YYYYYY|YYYYY|YYYY|YY|Y|gg(ggg?)?|GG(GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|.)/g;

const pad = (n: number, width: number) => {
  const text = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${text}` : text;
};

/** English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

const dayOfYear = (t: ZonedTime) => Math.round((Date.UTC(t.year, t.month - 1, t.day) - Date.UTC(t.year, 0, 1)) / 86_400_000) + 1;
const weekday = (t: ZonedTime) => new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay();
const daysInYear = (year: number) => (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365);

/** moment's week numbering: weeks start on `dow`, and the week holding January `7 + dow - doy` is week 1. */
function firstWeekOffset(year: number, dow: number, doy: number): number {
  const firstWeekDay = 7 + dow - doy;
  const weekdayOfThat = (7 + new Date(Date.UTC(year, 0, firstWeekDay)).getUTCDay() - dow) % 7;
  return -weekdayOfThat + firstWeekDay - 1;
}

function weeksInYear(year: number, dow: number, doy: number): number {
  return (daysInYear(year) - firstWeekOffset(year, dow, doy) + firstWeekOffset(year + 1, dow, doy)) / 7;
}

function weekOfYear(t: ZonedTime, dow: number, doy: number): { week: number; year: number } {
  const week = Math.floor((dayOfYear(t) - firstWeekOffset(t.year, dow, doy) - 1) / 7) + 1;
  if (week < 1) return { week: week + weeksInYear(t.year - 1, dow, doy), year: t.year - 1 };
  if (week > weeksInYear(t.year, dow, doy)) return { week: week - weeksInYear(t.year, dow, doy), year: t.year + 1 };
  return { week, year: t.year };
}

/** English locale weeks start on Sunday with the week of January 1st as week 1; ISO weeks on Monday, January 4th. */
const localeWeek = (t: ZonedTime) => weekOfYear(t, 0, 6);
const isoWeek = (t: ZonedTime) => weekOfYear(t, 1, 4);

function offset(t: ZonedTime, separator: string): string {
  const sign = t.offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(t.offsetMinutes);
  return `${sign}${pad(Math.floor(minutes / 60), 2)}${separator}${pad(minutes % 60, 2)}`;
}

function formatToken(token: string, t: ZonedTime): string {
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  switch (token) {
    case 'M': return String(t.month);
    case 'Mo': return ordinal(t.month);
    case 'MM': return pad(t.month, 2);
    case 'MMM': return MONTHS[t.month - 1]!.slice(0, 3);
    case 'MMMM': return MONTHS[t.month - 1]!;
    case 'Q': return String(Math.ceil(t.month / 3));
    case 'Qo': return ordinal(Math.ceil(t.month / 3));
    case 'D': return String(t.day);
    case 'Do': return ordinal(t.day);
    case 'DD': return pad(t.day, 2);
    case 'DDD': return String(dayOfYear(t));
    case 'DDDo': return ordinal(dayOfYear(t));
    case 'DDDD': return pad(dayOfYear(t), 3);
    case 'd': return String(weekday(t));
    case 'do': return ordinal(weekday(t));
    case 'dd': return WEEKDAYS[weekday(t)]!.slice(0, 2);
    case 'ddd': return WEEKDAYS[weekday(t)]!.slice(0, 3);
    case 'dddd': return WEEKDAYS[weekday(t)]!;
    case 'e': return String(weekday(t));
    case 'E': return String(weekday(t) === 0 ? 7 : weekday(t));
    case 'w': return String(localeWeek(t).week);
    case 'wo': return ordinal(localeWeek(t).week);
    case 'ww': return pad(localeWeek(t).week, 2);
    case 'W': return String(isoWeek(t).week);
    case 'Wo': return ordinal(isoWeek(t).week);
    case 'WW': return pad(isoWeek(t).week, 2);
    case 'Y': return t.year <= 9999 ? String(t.year) : `+${t.year}`;
    case 'YY': return pad(t.year % 100, 2);
    case 'YYYY': return t.year <= 9999 ? pad(t.year, 4) : `+${t.year}`;
    case 'YYYYY': return pad(t.year, 5);
    case 'YYYYYY': return (t.year < 0 ? '-' : '+') + pad(Math.abs(t.year), 6);
    case 'gg': return pad(localeWeek(t).year % 100, 2);
    case 'gggg': return pad(localeWeek(t).year, 4);
    case 'ggggg': return pad(localeWeek(t).year, 5);
    case 'GG': return pad(isoWeek(t).year % 100, 2);
    case 'GGGG': return pad(isoWeek(t).year, 4);
    case 'GGGGG': return pad(isoWeek(t).year, 5);
    case 'A': return t.hour < 12 ? 'AM' : 'PM';
    case 'a': return t.hour < 12 ? 'am' : 'pm';
    case 'H': return String(t.hour);
    case 'HH': return pad(t.hour, 2);
    case 'h': return String(hour12);
    case 'hh': return pad(hour12, 2);
    case 'k': return String(t.hour === 0 ? 24 : t.hour);
    case 'kk': return pad(t.hour === 0 ? 24 : t.hour, 2);
    case 'm': return String(t.minute);
    case 'mm': return pad(t.minute, 2);
    case 's': return String(t.second);
    case 'ss': return pad(t.second, 2);
    case 'X': return String(Math.floor(epochMillis(t) / 1000));
    case 'x': return String(epochMillis(t));
    case 'z':
    case 'zz':
      return t.offsetMinutes === 0 ? 'UTC' : '';
    case 'Z': return offset(t, ':');
    case 'ZZ': return offset(t, '');
  }
  if (/^S{1,9}$/.test(token)) return pad(t.nanosecond, 9).slice(0, token.length);
  return token;
}

/** Formats `t` in its own offset with a moment.js format string (empty means DEFAULT_MOMENT_FORMAT). */
export function formatMoment(t: ZonedTime, format: string = ''): string {
  const expanded = (format || DEFAULT_MOMENT_FORMAT).replace(LOCALIZED_TOKENS, (match, escaped: string | undefined) =>
    escaped ? match : LOCALIZED[match]!,
  );
  return expanded.replace(TOKENS, (match, escaped: string | undefined) => (escaped ? escaped.slice(1, -1) : formatToken(match, t)));
}
