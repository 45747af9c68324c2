// The order jest starts test files in. With its timing cache (a second run on a machine) jest's own order holds:
// files that failed last time first, then the slowest by measurement. Without it — CI's clean clone — jest
// would fall back to file size, which can start a minute-long end-to-end file last and stretch the run by that
// minute; so a file with no measurement gets an estimate from what its folder does (installs, image steps,
// deploys, made projects, clusters), and the slowest estimates start first.
import Sequencer from '@jest/test-sequencer';

/** Seconds a file of each kind takes on two cores (measured in full runs), most specific first. */
const ESTIMATES = [
  [/\/e2e\/examples\/run-local\.test\.ts$/, 60],
  [/\/e2e\/ship\//, 40],
  [/\/e2e\/deploy\//, 20],
  [/\/e2e\/scaffold\//, 15],
  [/\/e2e\/(cluster|generator|editor|demo)\//, 5],
  [/\/examples\/[^/]+\/test\//, 4],
];

export default class SlowestFirst extends Sequencer {
  sort(tests) {
    const estimate = (test) => {
      const measured = this.time(test);
      if (measured != null) return measured / 1000;
      const known = ESTIMATES.find(([pattern]) => pattern.test(test.path));
      return known ? known[1] : 1;
    };
    const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), seconds: estimate(test) }));
    keyed.sort((a, b) => (a.failed !== b.failed ? (a.failed ? -1 : 1) : b.seconds - a.seconds));
    return keyed.map(({ test }) => test);
  }
}
