/**
 * The one place the suites that compare with `../shared` (controller-gen goldens next to the checkout) decide
 * whether to run. Present: they run. Absent: a user's fresh clone skips them with a warning naming the suite and
 * the path; CI (`.ci/run` sets KUBEFORGE_REQUIRE_SHARED=1) fails them instead, so a missing `../shared` can never
 * pass as green.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The switch `.ci/run` sets: a suite whose `../shared` input is absent fails instead of skipping. */
export const REQUIRE_SHARED = 'KUBEFORGE_REQUIRE_SHARED';

/** The checkout's root (this file is in e2e/). */
const checkout = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `../shared` next to the checkout. */
export const SHARED_ROOT = join(checkout, '..', 'shared');

/** Thrown when a required `../shared` input is absent. */
export class MissingSharedInputError extends Error {}

/** The absolute path of `../shared/<relative>` (whether it exists or not). */
export function sharedPath(relative: string): string {
  return join(SHARED_ROOT, relative);
}

/**
 * Whether the suite `suite` can run: true when `path` (under `../shared`, from sharedPath) exists. When it is
 * absent: with KUBEFORGE_REQUIRE_SHARED=1 throws MissingSharedInputError (thrown while the test file loads, it
 * fails the suite with this message); otherwise warns and returns false, and the suite skips.
 */
export function sharedInputPresent(path: string, suite: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(path)) return true;
  if (env[REQUIRE_SHARED] === '1') {
    throw new MissingSharedInputError(
      `${suite}: ${path} is absent, and ${REQUIRE_SHARED}=1 (set by .ci/run) makes that a failure instead of a skip — put the shared folder (controller-gen goldens) next to the checkout`,
    );
  }
  console.warn(`skipping ${suite}: ${path} is absent (it needs ../shared next to the checkout; CI sets ${REQUIRE_SHARED}=1 to fail instead)`);
  return false;
}
