// A jest test environment that measures, per test file, the CPU its worker spends loading the file's modules
// (from jest-circus's `setup` event to `run_start`: the test file and everything it imports, evaluated in
// this file's fresh vm context) and running its tests (`run_start` to teardown), and what the processes it
// started (kubectl, tsc, npm, node) spent. Used by
// scripts/load-cpu/measure.mjs; appends one JSON line per file to $LOAD_CPU_OUT.
import { appendFileSync, readFileSync } from 'node:fs';
import { TestEnvironment } from 'jest-environment-node';

/** CPU seconds of the worker's children that have ended and been waited for (kubectl, tsc, npm, node, make…): /proc's cutime + cstime. */
const childCpuSeconds = () => {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // clock ticks (USER_HZ 100 on Linux)
  } catch {
    return 0;
  }
};

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

export default class LoadCpuEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.marks = { created: cpuSeconds(), childrenAtStart: childCpuSeconds() };
  }

  handleTestEvent(event) {
    if (event.name === 'setup' || event.name === 'run_start') this.marks[event.name] ??= cpuSeconds();
  }

  async teardown() {
    const end = cpuSeconds();
    const { created, setup = end, run_start: runStart = end } = this.marks;
    const line = { file: this.testPath, frameworkCpu: setup - created, loadCpu: runStart - setup, testCpu: end - runStart, childCpu: childCpuSeconds() - this.marks.childrenAtStart };
    if (process.env.LOAD_CPU_OUT) appendFileSync(process.env.LOAD_CPU_OUT, `${JSON.stringify(line)}\n`);
    await super.teardown();
  }
}
