import { formatDiagnostic } from '../markers/types.js';
import { fileCommentLines, scanFileMarkers } from './file-markers.js';

const FILE = 'internal/controller/cronjob_controller.ts';

describe('scanFileMarkers', () => {
  it('finds markers in // comments anywhere, with 1-based line and column of the +', () => {
    const text = [
      "import { x } from './x.js';", // 1
      '', // 2
      '// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get', // 3
      'export class R {', // 4
      '  //   +kubebuilder:rbac:groups=apps,resources=deployments,verbs=list', // 5
      '  reconcile() { return 1; } // +kubebuilder:rbac:groups=x,resources=y,verbs=watch', // 6
      '}', // 7
      '// +groupName=batch.example.com', // 8
    ].join('\n');
    const { markers, diagnostics } = scanFileMarkers(FILE, text);
    expect(diagnostics).toEqual([]);
    expect(markers.map((m) => [m.name, m.position.line, m.position.column])).toEqual([
      ['kubebuilder:rbac', 3, 4],
      ['kubebuilder:rbac', 5, 8],
      ['kubebuilder:rbac', 6, 32],
      ['groupName', 8, 4],
    ]);
    expect(markers[3].args).toEqual({ '': 'batch.example.com' });
  });

  it('reads markers inside JSDoc and block comments, without their leading *', () => {
    const text = ['/**', ' * Reconciles CronJobs.', ' * +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get', ' */', 'export function f() {}', '/* +kubebuilder:rbac:groups=a,resources=b,verbs=c */'].join('\n');
    const { markers } = scanFileMarkers(FILE, text);
    expect(markers.map((m) => [m.args.groups, m.position.line, m.position.column])).toEqual([
      [['batch'], 3, 4],
      [['a'], 6, 4],
    ]);
  });

  it('never reads comments out of strings, template literals or regular expressions', () => {
    const text = [
      "const a = '// +kubebuilder:rbac:groups=evil,resources=s,verbs=get';",
      'const b = `${a} // +kubebuilder:rbac:groups=evil,resources=s,verbs=get ${`/* +kubebuilder:rbac:groups=evil,resources=s,verbs=get */`}`;',
      'const c = /\\/\\/ +kubebuilder:rbac:groups=evil/;',
      '// +kubebuilder:rbac:groups=good,resources=s,verbs=get',
    ].join('\n');
    expect(scanFileMarkers(FILE, text).markers.map((m) => m.args.groups)).toEqual([['good']]);
  });

  it('skips type and field markers and ignores other tools, but reports unknown markers', () => {
    const text = ['// +kubebuilder:validation:Minimum=0', '// +optional', '// +kubebuilder:scaffold:imports', '// +genclient', '// +kubebuilder:rbca:groups=a,verbs=get'].join('\n');
    const { markers, diagnostics } = scanFileMarkers(FILE, text);
    expect(markers).toEqual([]);
    expect(diagnostics.map(formatDiagnostic)).toEqual([`${FILE}:5:4: unknown marker "+kubebuilder:rbca" (did you mean "+kubebuilder:rbac"?)`]);
    expect(scanFileMarkers(FILE, text, { reportUnknown: false }).diagnostics).toEqual([]);
  });

  it('reports bad arguments at the marker', () => {
    const { diagnostics } = scanFileMarkers(FILE, '\n  // +kubebuilder:rbac:groups=batch,resources=jobs\n');
    expect(diagnostics.map(formatDiagnostic)).toEqual([`${FILE}:2:6: marker "+kubebuilder:rbac:groups=batch,resources=jobs": missing argument "verbs"`]);
  });

  it('lists comment lines in source order, including the last comment of the file', () => {
    expect(fileCommentLines(FILE, 'let x = 1; // one\n/* two\n * three */\n// four').map((l) => l.text.trim())).toEqual(['one', 'two', 'three', 'four']);
  });
});
