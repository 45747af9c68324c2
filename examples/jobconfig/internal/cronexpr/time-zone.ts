/**
 * Time zones of Furiko schedules (reference-operators §4.4): `""`/`Local`/`UTC`/`GMT` → UTC,
 * `UTC±H[H][[:]MM]` / `GMT±…` → a fixed offset named `UTC±HH:MM`, otherwise an IANA zone name, whose
 * offsets come from Intl (full ICU in Node 20). Anything else is an error.
 */

/** A time zone a cron expression is evaluated in; opaque beyond its name. */
export interface TimeZone {
  readonly name: string;
}

/** A time zone that can say its UTC offset at an instant. */
export interface ZoneRules extends TimeZone {
  /** True when the offset never changes (UTC and `UTC±HH:MM`). */
  readonly fixed: boolean;
  /** Seconds east of UTC at `unixSeconds`. */
  offsetAt(unixSeconds: number): number;
}

class FixedZone implements ZoneRules {
  readonly fixed = true;

  constructor(
    readonly name: string,
    private readonly offsetSeconds: number,
  ) {}

  offsetAt(): number {
    return this.offsetSeconds;
  }
}

const MAX_CACHED_OFFSETS = 4096;

class IanaZone implements ZoneRules {
  readonly fixed = false;
  private readonly offsets = new Map<number, number>();

  constructor(
    readonly name: string,
    private readonly format: Intl.DateTimeFormat,
  ) {}

  offsetAt(unixSeconds: number): number {
    const cached = this.offsets.get(unixSeconds);
    if (cached !== undefined) return cached;
    const fields: Record<string, number> = {};
    for (const part of this.format.formatToParts(new Date(unixSeconds * 1000))) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value);
    }
    const wall = Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!);
    const offset = Math.round(wall / 1000) - unixSeconds;
    if (this.offsets.size >= MAX_CACHED_OFFSETS) this.offsets.clear();
    this.offsets.set(unixSeconds, offset);
    return offset;
  }
}

export const UTC: ZoneRules = new FixedZone('UTC', 0);

const UTC_OFFSET = /^(?:UTC|GMT)([+-])(?:(\d{1,2})|(\d{1,2}):(\d{2})|(\d{2})(\d{2}))$/;

function fixedOffsetZone(match: RegExpExecArray): ZoneRules | undefined {
  const [, sign, hoursAlone, hoursWithColon, minutesWithColon, hoursPacked, minutesPacked] = match;
  const hours = Number(hoursAlone ?? hoursWithColon ?? hoursPacked);
  const minutes = Number(minutesWithColon ?? minutesPacked ?? 0);
  if (hours > 23 || minutes > 59) return undefined;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const seconds = (sign === '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  return new FixedZone(`UTC${sign}${pad(hours)}:${pad(minutes)}`, seconds);
}

function ianaZone(name: string): ZoneRules | undefined {
  // Intl also takes offsets ("+01:00") and any letter case; Go's LoadLocation takes neither.
  if (!/^[A-Za-z]/.test(name)) return undefined;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return undefined;
  }
  const resolved = format.resolvedOptions().timeZone;
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return undefined;
  return new IanaZone(name, format);
}

/** Parses a Furiko `timezone` value; throws an Error for a name that is none of the accepted forms. */
export function parseTimeZone(name: string): ZoneRules {
  if (name === '' || name === 'Local' || name === 'UTC' || name === 'GMT') return UTC;
  const offset = UTC_OFFSET.exec(name);
  const zone = offset ? fixedOffsetZone(offset) : ianaZone(name);
  if (zone === undefined) throw new Error(`unknown time zone ${name}`);
  return zone;
}

/** The rules of a TimeZone: itself when parseTimeZone made it, else parsed again from its name. */
export function zoneRulesOf(zone: TimeZone): ZoneRules {
  return typeof (zone as Partial<ZoneRules>).offsetAt === 'function' ? (zone as ZoneRules) : parseTimeZone(zone.name);
}
