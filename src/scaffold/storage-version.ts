/**
 * The `+kubebuilder:storageversion` marker in a kind's types file: whether a version carries it, and
 * adding it to the root type's marker block. `create api` marks the existing version when a kind gets
 * its second one (objects already stored stay in their version), and `create webhook --conversion` marks
 * the hub, which by kubebuilder's convention is the storage version.
 */
const MARKER = '// +kubebuilder:storageversion';

/** The line index of `export interface <Kind> {` and the start of the comment/marker block above it. */
function rootBlock(lines: string[], kind: string): { declaration: number; blockStart: number } | undefined {
  const declaration = lines.findIndex((l) => new RegExp(`^export interface ${kind}\\b`).test(l));
  if (declaration < 0) return undefined;
  let blockStart = declaration;
  while (blockStart > 0 && /^\s*(\/\/|\/\*\*|\*)/.test(lines[blockStart - 1]!)) blockStart--;
  return { declaration, blockStart };
}

export function hasStorageVersionMarker(typesText: string, kind: string): boolean {
  const lines = typesText.split('\n');
  const block = rootBlock(lines, kind);
  return block !== undefined && lines.slice(block.blockStart, block.declaration).some((l) => l.trim() === MARKER);
}

/**
 * `typesText` with the marker below the root type's `+kubebuilder:object:root=true` (or right above the
 * interface); unchanged when it is there. Undefined when the file has no `export interface <Kind>`.
 */
export function withStorageVersionMarker(typesText: string, kind: string): string | undefined {
  if (hasStorageVersionMarker(typesText, kind)) return typesText;
  const lines = typesText.split('\n');
  const block = rootBlock(lines, kind);
  if (!block) return undefined;
  const root = lines.slice(block.blockStart, block.declaration).findIndex((l) => l.trim() === '// +kubebuilder:object:root=true');
  const at = root >= 0 ? block.blockStart + root + 1 : block.declaration;
  lines.splice(at, 0, MARKER);
  return lines.join('\n');
}
