import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { toYaml } from './emit.js';

const conformance = sharedPath('conformance');
const available = sharedInputPresent(conformance, 'the YAML round trip of the controller-gen goldens');
const goldenFiles = available
  ? ['controller-tools', 'kubebuilder-cronjob-tutorial'].flatMap((dir) =>
      readdirSync(join(conformance, dir))
        .filter((f) => f.endsWith('.yaml') && f !== 'batch_v1_cronjob.yaml') // the sample CR is hand-written
        .map((f) => join(dir, f)),
    )
  : [];

/** Re-reads each golden file (real controller-gen output) and writes it back: the bytes must not change. */
describe('toYaml reproduces controller-gen output byte for byte', () => {
  if (!available) {
    it.skip(`needs ../shared/conformance (absent at ${conformance})`, () => {});
    return;
  }
  it.each(goldenFiles)('%s', (file) => {
    const text = readFileSync(join(conformance, file), 'utf8');
    const documents = parseAllDocuments(text).map((d) => d.toJS({ maxAliasCount: -1 }));
    const rewritten = documents.map((d) => `---\n${toYaml(d)}`).join('');
    // crd__…enums.yaml was stored without its leading `---` and final newline; everything else is verbatim.
    const withHeader = text.startsWith('---') ? text : `---\n${text}`;
    const expected = withHeader.endsWith('\n') ? withHeader : `${withHeader}\n`;
    expect(rewritten).toBe(expected);
  });
});
