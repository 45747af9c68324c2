/** The YAML writer of the generators: yaml.v2-identical output for CRDs, RBAC and webhook manifests. */
export { toYaml, toYamlPieces, joinYamlPieces, encodeYamlPieces, SharedText, type YamlPieces } from './emit.js';
export { compareKeys, keyLess } from './key-order.js';
export { chooseScalarStyle, readsBackAsString, formatNumber, type ScalarStyle } from './scalar-style.js';
