/**
 * Label selectors for the API server: the shared parser and matcher (src/selectors), with a selector that
 * does not parse answered as the 400 BadRequest Status the real server sends.
 */
import { badRequest } from '../errors/status-errors.js';
import { LabelSelectorSyntaxError, parseLabelSelector as parse, type LabelSelector } from '../../selectors/label-selector.js';

export { labelSelectorToString, matchesLabels, type LabelRequirement, type LabelSelector } from '../../selectors/label-selector.js';

export function parseLabelSelector(text: string | undefined): LabelSelector {
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof LabelSelectorSyntaxError) throw badRequest(err.message);
    throw err;
  }
}
