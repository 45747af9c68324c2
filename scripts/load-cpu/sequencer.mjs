// Runs test files in the order scripts/load-cpu/measure.mjs lists in $LOAD_CPU_ORDER (a warm-up file first),
// so rounds can rotate the order and the warm-up takes the cost of jest's own start.
import Sequencer from '@jest/test-sequencer';

export default class ListedOrder extends Sequencer {
  sort(tests) {
    const order = JSON.parse(process.env.LOAD_CPU_ORDER ?? '[]');
    const rank = (test) => {
      const i = order.indexOf(test.path);
      return i < 0 ? order.length : i;
    };
    return [...tests].sort((a, b) => rank(a) - rank(b));
  }
}
