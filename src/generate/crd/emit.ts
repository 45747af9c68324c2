/** Serialises a generated CRD the way controller-gen writes it: `---\n` + yaml.v2 layout (src/generate/yaml). */
import { joinYamlPieces, toYamlPieces, type YamlPieces } from '../yaml/index.js';
import type { CustomResourceDefinition, GeneratedCrd } from './build.js';

/**
 * The text of a CRD file: optional header text (controller-gen's `headerFile`, written verbatim), then
 * `---\n` and the document in controller-gen's YAML layout.
 */
export function emitCrdYaml(crd: GeneratedCrd | CustomResourceDefinition, header = ''): string {
  return joinYamlPieces(emitCrdYamlPieces(crd, header));
}

/** `emitCrdYaml` as pieces (src/generate/yaml): what `manifests` encodes and writes without joining them. */
export function emitCrdYamlPieces(crd: GeneratedCrd | CustomResourceDefinition, header = ''): YamlPieces {
  const document = 'document' in crd ? crd.document : crd;
  return [`${header}---\n`, ...toYamlPieces(document)];
}
