/**
 * The apply-configuration generator (controller-gen's `applyconfiguration` generator for TypeScript): one
 * `zz_generated.applyconfigurations.ts` per api folder that asks for it with `+kubebuilder:ac:generate=true`,
 * with a deep-partial interface, a builder and a constructor per API type, for typed server-side apply.
 */
import type { ApiModel } from '../../model/index.js';
import { emitApplyConfigurations, applyConfigFilePath } from './emit.js';

export { emitApplyConfigurations, applyConfigFilePath, APPLYCONFIG_HEADER, APPLYCONFIG_FILE_NAME } from './emit.js';
export { selectApplyConfigTypes, applyConfigEnabled } from './selection.js';

/** Every apply-configuration file of the model (folders that do not ask get none), in group/version order. */
export function planApplyConfigFiles(model: ApiModel): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (const group of model.groups) {
    for (const version of group.versions) {
      const content = emitApplyConfigurations(model, version);
      if (content !== undefined) files.push({ path: applyConfigFilePath(version), content });
    }
  }
  return files;
}
