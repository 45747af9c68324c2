/** The error a cron expression fails to parse with; its message is cronexpr's own text. */
export class CronParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronParseError';
  }
}
