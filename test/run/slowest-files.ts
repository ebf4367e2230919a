import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files at the end of a run (issue 25): where the wall time of CI
 * goes, so that a file that starts to hold the run is seen in its log.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return { file: m.relativeModuleId, ms: d.duration + d.collectDuration + d.setupDuration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (rows.length === 0) return;
    const lines = rows.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
    process.stdout.write(`\nslowest test files:\n${lines.join('\n')}\n`);
  }
}
