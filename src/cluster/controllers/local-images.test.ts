/** Which container images the kubelet runs from a local build, and what the build's Dockerfile says it runs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalImages, defaultEntrypoint, imageMatches, parseImageMapping, readDockerfile } from './local-images.js';

const dirs: string[] = [];
function project(dockerfile?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-local-image-'));
  dirs.push(dir);
  if (dockerfile !== undefined) writeFileSync(join(dir, 'Dockerfile'), dockerfile);
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const digest = `sha256:${'ab'.repeat(32)}`;

test.each([
  ['controller', 'controller', true],
  ['controller', 'controller:latest', true],
  ['controller:latest', 'docker.io/library/controller', true],
  ['controller:v1', 'controller:latest', false],
  ['example.com/team/op:v1', 'example.com/team/op:v1', true],
  ['example.com/team/op:v1', 'team/op:v1', false],
  ['localhost:5000/op', 'localhost:5000/op:latest', true],
  [`op@${digest}`, `op:v9@${digest}`, true],
  [`op@${digest}`, 'op:latest', false],
  ['op:latest', `op@${digest}`, false],
])('mapping %s matches container image %s: %s', (mapped, image, expected) => {
  expect(imageMatches(mapped, image)).toBe(expected);
});

test('the Dockerfile of the last stage gives ENTRYPOINT, CMD (reset by a later ENTRYPOINT) and USER', () => {
  const dir = project(['FROM node:20 AS build', 'ENTRYPOINT ["false"]', 'CMD ["x"]', 'FROM gcr.io/distroless/nodejs20', '# a comment', 'CMD ["--old"]', 'ENTRYPOINT ["node", \\', '  "--enable-source-maps", "dist/cmd/main.js"]', 'CMD ["--leader-elect"]', 'USER 65532:65532'].join('\n'));
  expect(readDockerfile(join(dir, 'Dockerfile'))).toEqual({ entrypoint: ['node', '--enable-source-maps', 'dist/cmd/main.js'], cmd: ['--leader-elect'], user: '65532:65532' });
  expect(readDockerfile(join(project(), 'Dockerfile'))).toBeUndefined();
  const shell = project('FROM x\nENTRYPOINT node main.js --flag\n');
  expect(readDockerfile(join(shell, 'Dockerfile'))).toEqual({ entrypoint: ['/bin/sh', '-c', 'node main.js --flag'] });
  const bad = project('FROM x\nENTRYPOINT ["node", 3]\n');
  expect(() => readDockerfile(join(bad, 'Dockerfile'))).toThrow(`${join(bad, 'Dockerfile')}: ENTRYPOINT (instruction 2): not a JSON array of strings: ["node", 3]`);
});

test('a project without a Dockerfile runs the scaffold default; a missing folder is refused', () => {
  const dir = project();
  const images = new LocalImages({ 'controller:latest': dir });
  const found = images.find('controller');
  expect(found).toMatchObject({ reference: 'docker.io/library/controller:latest', projectDir: dir, entrypoint: defaultEntrypoint, cmd: [] });
  expect(found?.imageId).toMatch(/^docker\.io\/library\/controller@sha256:[0-9a-f]{64}$/);
  expect(images.find('nginx:1.27')).toBeUndefined();
  expect(() => new LocalImages({ op: join(dir, 'missing') })).toThrow(`image op: project folder ${join(dir, 'missing')} does not exist`);
});

test('--image values: <image>=<project dir>', () => {
  expect(parseImageMapping('example.com/op:v1=./op')).toEqual({ image: 'example.com/op:v1', projectDir: './op' });
  expect(() => parseImageMapping('op')).toThrow('--image: expected <image>=<project dir>, got "op"');
  expect(() => parseImageMapping('=./op')).toThrow('--image: expected <image>=<project dir>, got "=./op"');
});
