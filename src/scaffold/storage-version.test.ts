/** The +kubebuilder:storageversion marker in a kind's types file: found in the root type's block, added once. */
import { hasStorageVersionMarker, withStorageVersionMarker } from './storage-version.js';

const types = [
  '/** CronJobSpec … */',
  'export interface CronJobSpec {',
  '  // +kubebuilder:storageversion (a field comment, not the kind’s)',
  '  foo?: string;',
  '}',
  '',
  '/** CronJob is the Schema for the cronjobs API. */',
  '// +kubebuilder:object:root=true',
  '// +kubebuilder:subresource:status',
  'export interface CronJob {',
  "  apiVersion: 'batch.example.com/v1';",
  '}',
  '',
  '// +kubebuilder:object:root=true',
  'export interface CronJobList {',
  '  items: CronJob[];',
  '}',
].join('\n');

describe('storage-version marker', () => {
  test('is added below the root marker of the kind, not its list, and only once', () => {
    expect(hasStorageVersionMarker(types, 'CronJob')).toBe(false);
    const marked = withStorageVersionMarker(types, 'CronJob')!;
    expect(marked).toContain('// +kubebuilder:object:root=true\n// +kubebuilder:storageversion\n// +kubebuilder:subresource:status\nexport interface CronJob {');
    expect(marked.match(/^\/\/ \+kubebuilder:storageversion$/gm)).toHaveLength(1);
    expect(hasStorageVersionMarker(marked, 'CronJob')).toBe(true);
    expect(hasStorageVersionMarker(marked, 'CronJobList')).toBe(false);
    expect(withStorageVersionMarker(marked, 'CronJob')).toBe(marked);
  });

  test('without a root marker it goes right above the interface; an unknown kind gives undefined', () => {
    expect(withStorageVersionMarker('/** Doc. */\nexport interface Toy {\n}\n', 'Toy')).toBe('/** Doc. */\n// +kubebuilder:storageversion\nexport interface Toy {\n}\n');
    expect(withStorageVersionMarker(types, 'Schedule')).toBeUndefined();
  });
});
