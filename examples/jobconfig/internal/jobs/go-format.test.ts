/** Go's duration and time strings as Furiko's messages print them. */
import { goDurationSeconds, goTimeUtc, rfc3339 } from './go-format.js';

describe('goDurationSeconds', () => {
  it('prints like time.Duration.String()', () => {
    expect([0, 45, 60, 600, 900, 1800, 3600, 3661, -5].map(goDurationSeconds)).toEqual(['0s', '45s', '1m0s', '10m0s', '15m0s', '30m0s', '1h0m0s', '1h1m1s', '-5s']);
  });
});

describe('goTimeUtc / rfc3339', () => {
  it('prints a UTC instant as Go does and as the API server stores it', () => {
    const ms = Date.parse('2024-01-15T10:30:00.750Z');
    expect(goTimeUtc(ms)).toBe('2024-01-15 10:30:00 +0000 UTC');
    expect(rfc3339(ms)).toBe('2024-01-15T10:30:00Z');
  });
});
