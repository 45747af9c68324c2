/** Placeholder: replaced by the go-spew printer of v1.PodTemplateSpec. */
import { canonicalJson } from '../registry/system-metadata.js';
export function spewPodTemplate(template: unknown): string {
  return canonicalJson(template);
}
