/**
 * The scaffold plugins `kubeforge create api --plugins <key>` accepts (kubebuilder's `--plugins`). A plugin
 * changes what `create api` makes for one kind; today there is one, kubebuilder's deploy-image/v1-alpha
 * (src/scaffold/deploy-image-plan.ts). This module resolves the `--plugins` value and refuses a plugin's
 * own flags when that plugin was not asked for, naming the flag.
 */
import { ScaffoldInputError } from './names.js';

/** The deploy-image plugin, under the key kubebuilder records in PROJECT. */
export const DEPLOY_IMAGE_PLUGIN = 'deploy-image.go.kubebuilder.io/v1-alpha';

/** Every key (short and full, as kubebuilder accepts them) → the plugin's full key. */
const PLUGIN_KEYS: Record<string, string> = {
  'deploy-image/v1-alpha': DEPLOY_IMAGE_PLUGIN,
  [DEPLOY_IMAGE_PLUGIN]: DEPLOY_IMAGE_PLUGIN,
};

/** The flags only the deploy-image plugin takes, as `create api` options. */
export interface DeployImageFlags {
  image?: string;
  imageContainerCommand?: string;
  imageContainerPort?: string;
  runAsUser?: string;
}

const DEPLOY_IMAGE_FLAGS: Array<[keyof DeployImageFlags, string]> = [
  ['image', '--image'],
  ['imageContainerCommand', '--image-container-command'],
  ['imageContainerPort', '--image-container-port'],
  ['runAsUser', '--run-as-user'],
];

/**
 * The plugins of a `--plugins` value (comma-separated, as kubebuilder's), by full key. The base layout's
 * own key (`kubeforge.io/ts/v1`) may be named and adds nothing; anything else unknown is refused.
 */
export function resolvePlugins(value: string | undefined, flags: DeployImageFlags): string[] {
  const requested = (value ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== 'kubeforge.io/ts/v1');
  if (value !== undefined && value.trim() === '') throw new ScaffoldInputError('--plugins', value, `name a plugin: ${Object.keys(PLUGIN_KEYS)[0]}`);
  const plugins: string[] = [];
  for (const key of requested) {
    const plugin = PLUGIN_KEYS[key];
    if (!plugin) throw new ScaffoldInputError('--plugins', value!, `unknown plugin "${key}"; the plugins of create api are: ${Object.keys(PLUGIN_KEYS)[0]}`);
    if (!plugins.includes(plugin)) plugins.push(plugin);
  }
  if (!plugins.includes(DEPLOY_IMAGE_PLUGIN)) {
    for (const [option, flag] of DEPLOY_IMAGE_FLAGS) {
      const given = flags[option];
      if (given !== undefined) throw new ScaffoldInputError(flag, given, 'only with --plugins deploy-image/v1-alpha (the flag belongs to that plugin)');
    }
  }
  return plugins;
}
