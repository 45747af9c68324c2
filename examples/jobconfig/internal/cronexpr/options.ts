/** Parse options of a cron expression, mirroring cronexpr's WithHash / WithHashFields / WithHashEmptySeconds. */
export interface CronOptions {
  /** The hash ID `H` derives its values from (Furiko: `"<namespace>/<name>"`; validation: `""`). Without one, `H` is an error. */
  hashId?: string;
  /** Append `":" + fieldName` to the hash ID per field (Furiko's `cronHashFields`). Default false, as in cronexpr. */
  hashFields?: boolean;
  /** A 5/6-token expression gets seconds `H` instead of `0` (Furiko's `cronHashSecondsByDefault`). Default false. */
  hashSecondsByDefault?: boolean;
  /** Allow `H` at all (Furiko's `cronHashNames`); default true. */
  hashNames?: boolean;
  /** cronexpr's CronFormat (Furiko's `cronFormat`): `standard` (default) or `quartz` (day of week 1–7 = SUN–SAT). */
  format?: CronFormat;
}

/** The cron formats furiko-io/cronexpr parses (ParseForFormat). */
export type CronFormat = 'standard' | 'quartz';
export const CRON_FORMATS: readonly CronFormat[] = ['standard', 'quartz'];
