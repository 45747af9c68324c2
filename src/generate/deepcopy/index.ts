/**
 * The deep-copy generator (controller-gen's `object` generator for TypeScript): one
 * `zz_generated.deepcopy.ts` per api folder, with a typed `deepCopy<Type>()` per API type — except where the
 * folder has a hand-written `deepCopy<Type>` (found by src/reader/hand-written-copies.ts), which is called instead.
 */
import type { ApiModel } from '../../model/index.js';
import { emitDeepCopy, deepCopyFilePath } from './emit.js';

export { emitDeepCopy, deepCopyFilePath, DEEPCOPY_HEADER, DEEPCOPY_FILE_NAME } from './emit.js';
export { selectDeepCopyTypes } from './selection.js';

/** Every deep-copy file of the model (folders with nothing to copy get none), in group/version order. */
export function planDeepCopyFiles(model: ApiModel): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (const group of model.groups) {
    for (const version of group.versions) {
      const content = emitDeepCopy(model, version);
      if (content !== undefined) files.push({ path: deepCopyFilePath(version), content });
    }
  }
  return files;
}
