import { collectMarkers, readMarker } from './collect.js';
import { formatDiagnostic, type CommentLine, type MarkerTarget } from './types.js';

function lines(...texts: string[]): CommentLine[] {
  return texts.map((text, i) => ({ text, position: { file: 'api/v1/cronjob_types.ts', line: 10 + i, column: 4 } }));
}

function collect(target: MarkerTarget, ...texts: string[]) {
  const result = collectMarkers(lines(...texts), target);
  return { ...result, errors: result.diagnostics.map(formatDiagnostic) };
}

describe('collectMarkers', () => {
  it('splits markers from description lines, in order', () => {
    const result = collect('field', 'The schedule in Cron format.', '+kubebuilder:validation:MinLength=0', 'See https://en.wikipedia.org/wiki/Cron.', '+optional');
    expect(result.descriptionLines.map((l) => l.text)).toEqual(['The schedule in Cron format.', 'See https://en.wikipedia.org/wiki/Cron.']);
    expect(result.markers.map((m) => [m.name, m.args])).toEqual([
      ['kubebuilder:validation:MinLength', { '': 0 }],
      ['optional', { '': true }],
    ]);
    expect(result.markers[0]).toMatchObject({ text: '+kubebuilder:validation:MinLength=0', position: { line: 11, column: 4 } });
    expect(result.errors).toEqual([]);
  });

  it('resolves named arguments written after the last name segment', () => {
    const result = collect('type', '+kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"');
    expect(result.markers[0]).toMatchObject({ name: 'kubebuilder:printcolumn', args: { name: 'Age', type: 'date', JSONPath: '.metadata.creationTimestamp' } });
  });

  it('accepts the kubebuilder tutorial :=  form', () => {
    expect(collect('field', '+kubebuilder:default:=Allow').markers[0]).toMatchObject({ name: 'kubebuilder:default', args: { '': 'Allow' } });
  });

  it('points the column at the + when the text is indented', () => {
    expect(collect('field', '   +optional').markers[0].position.column).toBe(7);
  });

  it('reports an unknown kubebuilder marker with did-you-mean, quoting it', () => {
    expect(collect('field', '+kubebuilder:validation:Minimun=0').errors).toEqual([
      'api/v1/cronjob_types.ts:10:4: unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)',
    ]);
  });

  it('suggests the right letter case', () => {
    expect(collect('field', '+kubebuilder:validation:enum=a;b').errors[0]).toContain('(did you mean "+kubebuilder:validation:Enum"?)');
  });

  it('reports near-misses of unprefixed catalogue names', () => {
    expect(collect('field', '+optinal').errors).toEqual(['api/v1/cronjob_types.ts:10:4: unknown marker "+optinal" (did you mean "+optional"?)']);
  });

  it('warns about an unknown k8s: marker without a close match, without a suggestion', () => {
    const result = collect('field', '+k8s:zzzzzzzzzzzz');
    expect(result.errors).toEqual(['api/v1/cronjob_types.ts:10:4: warning: unknown marker "+k8s:zzzzzzzzzzzz"; controller-gen ignores it']);
    expect(result.diagnostics[0]!.severity).toBe('warning');
  });

  // The real-code markers of issue 16 that controller-gen ignores: warnings (manifests still writes), with the
  // marker the author most likely meant; none of them is a typo of a catalogue name.
  it.each([
    ['+kubebuilder:validation:UniqueItems:true', 'unknown marker "+kubebuilder:validation:UniqueItems:true" (did you mean "+kubebuilder:validation:UniqueItems=true"?)'],
    ['+optional.', 'unknown marker "+optional." (did you mean "+optional"?)'],
    ['+kubebuilder:validation:OneOf=a;b', 'unknown marker "+kubebuilder:validation:OneOf" (did you mean "+kubebuilder:validation:AtMostOneOf"?)'],
    ['+kubebuilder:something:new', 'unknown marker "+kubebuilder:something:new"'],
    ['+mytool:frobnicate=yes', 'unknown marker "+mytool:frobnicate"'],
  ])('warns about %s, which controller-gen ignores', (text, message) => {
    const result = collect('field', text);
    expect(result.diagnostics).toEqual([{ position: { file: 'api/v1/cronjob_types.ts', line: 10, column: 4 }, severity: 'warning', message: `${message}; controller-gen ignores it` }]);
    expect(result.markers).toEqual([]);
    expect(result.descriptionLines).toEqual([]);
  });

  // Typos of a known marker stay errors: same prefix, last segment within 2 edits or a case change.
  it.each([
    ['+kubebuilder:validation:Minimun=1', '+kubebuilder:validation:Minimun', '+kubebuilder:validation:Minimum'],
    ['+kubebuilder:validation:Maxlength=1', '+kubebuilder:validation:Maxlength', '+kubebuilder:validation:MaxLength'],
    ['+requried', '+requried', '+required'],
    ['+kubebuilder:defualt=1', '+kubebuilder:defualt', '+kubebuilder:default'],
  ])('keeps the typo %s an error', (text, shown, meant) => {
    const result = collect('field', text);
    expect(result.diagnostics).toEqual([{ position: { file: 'api/v1/cronjob_types.ts', line: 10, column: 4 }, message: `unknown marker "${shown}" (did you mean "${meant}"?)` }]);
  });

  it("ignores other tools' markers and keeps them out of the description", () => {
    const result = collect('type', '+genclient', '+k8s:openapi-gen=true', '+kubebuilder:scaffold:imports', 'Foo is a thing.');
    expect(result.errors).toEqual([]);
    expect(result.markers).toEqual([]);
    expect(result.descriptionLines.map((l) => l.text)).toEqual(['Foo is a thing.']);
  });

  it('reports a marker on the wrong target', () => {
    expect(collect('type', '+nullable').errors).toEqual(['api/v1/cronjob_types.ts:10:4: marker "+nullable" cannot be used on a type (it applies to: field)']);
    expect(collect('field', '+kubebuilder:subresource:status').errors[0]).toContain('cannot be used on a field (it applies to: type)');
  });

  it('skips package-level markers met on a type (they are collected file-wide)', () => {
    const result = collect('type', '+kubebuilder:rbac:groups=batch,resources=jobs,verbs=get', '+groupName=batch.io');
    expect(result).toMatchObject({ markers: [], errors: [] });
  });

  it('reports bad arguments with controller-gen messages, quoting the marker', () => {
    expect(collect('field', '+kubebuilder:validation:Enum=Phone,Address,Name').errors).toEqual([
      'api/v1/cronjob_types.ts:10:38: marker "+kubebuilder:validation:Enum=Phone,Address,Name": extra arguments provided: ",Address,Name"',
    ]);
    expect(collect('type', '+kubebuilder:object:root').errors).toEqual(['api/v1/cronjob_types.ts:10:4: marker "+kubebuilder:object:root": missing argument ""']);
  });

  it('reports one bad argument of an rbac marker once, at the argument, the same from the cache as the first time', () => {
    const marker = '+kubebuilder:rbac:groups=apps,resourcs=deployments,verbs=get;list';
    const expected = 'api/v1/cronjob_types.ts:10:34: marker "+kubebuilder:rbac:groups=apps,resourcs=deployments,verbs=get;list": unknown argument "resourcs" (did you mean "resources"?)';
    expect(collect('package', marker).errors).toEqual([expected]);
    expect(collect('package', marker).errors).toEqual([expected]);
  });

  it('suggests the closest argument name for an unknown argument', () => {
    expect(collect('type', '+kubebuilder:printcolumn:name=Age,type=date,JSONpath=.x').errors[0]).toContain('unknown argument "JSONpath" (did you mean "JSONPath"?)');
  });

  it('drops +default=ref(...) as controller-gen does', () => {
    expect(collect('field', '+default=ref(Foo)')).toMatchObject({ markers: [], errors: [] });
  });

  it('reads items: variants', () => {
    expect(collect('field', '+kubebuilder:validation:items:MaxLength=5').markers[0]).toMatchObject({ name: 'kubebuilder:validation:items:MaxLength', args: { '': 5 } });
  });
});

describe('readMarker on repeated texts', () => {
  const at = (line: number) => ({ file: 'api/v1/a_types.ts', line, column: 3 });

  it('gives each occurrence its own text and position, and the same arguments', () => {
    const first = readMarker('+kubebuilder:validation:Enum=A;B', 'field', at(1));
    const second = readMarker('+kubebuilder:validation:Enum=A;B', 'field', at(7));
    expect(first.marker).toEqual({ name: 'kubebuilder:validation:Enum', args: { '': ['A', 'B'] }, text: '+kubebuilder:validation:Enum=A;B', position: at(1) });
    expect(second.marker).toEqual({ ...first.marker, position: at(7) });
    expect(second.marker!.args).toBe(first.marker!.args);
  });

  it('reports an error at every occurrence, with that occurrence\'s position', () => {
    const texts = [1, 2].map((line) => readMarker('+kubebuilder:validation:Minimun=1', 'field', at(line)).diagnostics.map(formatDiagnostic));
    expect(texts[0]).toEqual(['api/v1/a_types.ts:1:3: unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)']);
    expect(texts[1]).toEqual([texts[0]![0]!.replace(':1:3:', ':2:3:')]);
  });

  it('reads a text by its target and reporting option, never by what another target read', () => {
    expect(readMarker('+kubebuilder:validation:Minimum=1', 'field', at(1)).marker?.name).toBe('kubebuilder:validation:Minimum');
    expect(readMarker('+kubebuilder:validation:Minimum=1', 'package', at(1))).toEqual({ diagnostics: [] });
    expect(readMarker('+kubebuilder:nosuchmarker', 'type', at(1)).diagnostics).toHaveLength(1);
    expect(readMarker('+kubebuilder:nosuchmarker', 'type', at(1), { reportUnknown: false }).diagnostics).toHaveLength(0);
    expect(readMarker('+kubebuilder:nosuchmarker', 'type', at(2)).diagnostics).toHaveLength(1);
  });
});
