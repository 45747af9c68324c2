import type { int32, IntOrString } from './index.js';

describe('kubeforge/api', () => {
  it('keeps the named Go widths as plain JSON numbers at run time', () => {
    const replicas: int32 = 3;
    const port: IntOrString = 'http';
    expect(JSON.parse(JSON.stringify({ replicas, port }))).toEqual({ replicas: 3, port: 'http' });
  });
});
