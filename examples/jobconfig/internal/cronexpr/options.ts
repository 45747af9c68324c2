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
}
