/** WatchLines cuts a watch response into whole lines wherever the socket splits it. */
import { PassThrough } from 'node:stream';
import { WatchLines } from './watch-lines.js';

function drain(lines: WatchLines): string[] {
  const out: string[] = [];
  for (let line = lines.next(); line !== undefined; line = lines.next()) out.push(line);
  return out;
}

const events = ['{"type":"ADDED","object":{"metadata":{"name":"é-1"}}}', '{"type":"MODIFIED","object":{"metadata":{"name":"b"}}}', '{"type":"BOOKMARK"}'];
const body = Buffer.from(`${events[0]}\n${events[1]}\r\n\n${events[2]}\n`);

test('every split of the body into two or three chunks gives the same lines (CRLF and empty lines dropped)', () => {
  let splits = 0;
  for (let i = 0; i <= body.length; i++) {
    for (let j = i; j <= body.length; j += 7) {
      const response = new PassThrough();
      const lines = new WatchLines(response, () => undefined);
      const got: string[] = [];
      for (const chunk of [body.subarray(0, i), body.subarray(i, j), body.subarray(j)]) {
        if (chunk.length > 0) response.write(chunk);
        got.push(...drain(lines));
      }
      expect(got).toEqual(events);
      splits++;
    }
  }
  expect(splits).toBeGreaterThan(body.length);
});

test('a line carried over several chunks is joined whole; the rest of the last chunk stays lines of its own', () => {
  const response = new PassThrough();
  const lines = new WatchLines(response, () => undefined);
  const long = `{"data":"${'x'.repeat(100)}"}`;
  response.write(long.slice(0, 30));
  response.write(long.slice(30, 60));
  expect(drain(lines)).toEqual([]);
  response.write(`${long.slice(60)}\n${events[2]}\n{"partial`);
  expect(drain(lines)).toEqual([long, events[2]]);
  response.write('":1}\n');
  expect(drain(lines)).toEqual(['{"partial":1}']);
});
