// A jest test environment that measures, per test file, the CPU its worker spends loading the file's modules
// (from jest-circus's `setup` event to `run_start`: the test file and everything it imports, evaluated in
// this file's fresh vm context) and running its tests (`run_start` to teardown). Used by
// scripts/load-cpu/measure.mjs; appends one JSON line per file to $LOAD_CPU_OUT.
import { appendFileSync } from 'node:fs';
import { TestEnvironment } from 'jest-environment-node';

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

export default class LoadCpuEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.marks = { created: cpuSeconds() };
  }

  handleTestEvent(event) {
    if (event.name === 'setup' || event.name === 'run_start') this.marks[event.name] ??= cpuSeconds();
  }

  async teardown() {
    const end = cpuSeconds();
    const { created, setup = end, run_start: runStart = end } = this.marks;
    const line = { file: this.testPath, frameworkCpu: setup - created, loadCpu: runStart - setup, testCpu: end - runStart };
    if (process.env.LOAD_CPU_OUT) appendFileSync(process.env.LOAD_CPU_OUT, `${JSON.stringify(line)}\n`);
    await super.teardown();
  }
}
