import { findMarker } from './catalogue.js';
import { parseMarkerArguments } from './parse-arguments.js';
import type { MarkerTarget } from './types.js';

function parse(name: string, text: string, target: MarkerTarget = 'field') {
  const definition = findMarker(name, target);
  if (!definition) throw new Error(`no definition ${name}`);
  return parseMarkerArguments(definition, text);
}

describe('marker argument grammar', () => {
  describe('int', () => {
    it('reads positive and negative integers', () => {
      expect(parse('kubebuilder:validation:MaxLength', '15').args).toEqual({ '': 15 });
      expect(parse('kubebuilder:validation:MaxLength', '-3').args).toEqual({ '': -3 });
    });
    it('rejects text', () => {
      expect(parse('kubebuilder:validation:MaxLength', 'ten').errors).toEqual(['expected integer, got "ten"']);
    });
    it('rejects trailing text after the number', () => {
      expect(parse('kubebuilder:validation:MaxLength', '10x').errors).toEqual(['extra arguments provided: "x"']);
    });
  });

  describe('number', () => {
    it('reads integers and floats', () => {
      expect(parse('kubebuilder:validation:Minimum', '-0.5').args).toEqual({ '': -0.5 });
      expect(parse('kubebuilder:validation:Maximum', '10').args).toEqual({ '': 10 });
      expect(parse('kubebuilder:validation:MultipleOf', '1e3').args).toEqual({ '': 1000 });
    });
    it('rejects text', () => {
      expect(parse('kubebuilder:validation:Minimum', 'low').errors).toEqual(['expected integer or float, got "low"']);
    });
  });

  describe('bool', () => {
    it('reads true and false', () => {
      expect(parse('kubebuilder:object:root', 'true', 'type').args).toEqual({ '': true });
      expect(parse('kubebuilder:validation:ExclusiveMaximum', 'false').args).toEqual({ '': false });
    });
    it('rejects other words', () => {
      expect(parse('kubebuilder:object:root', 'yes', 'type').errors).toEqual(['expected true or false, got "yes"']);
      expect(parse('kubebuilder:object:root', '1', 'type').errors).toEqual(['expected true or false, got "1"']);
    });
    it('requires the value of a required single-value marker', () => {
      expect(parse('kubebuilder:object:root', '', 'type').errors).toEqual(['missing argument ""']);
    });
  });

  describe('string', () => {
    it('reads double-quoted strings with escapes', () => {
      expect(parse('kubebuilder:validation:Pattern', '"^a\\\\d+\\n$"').args).toEqual({ '': '^a\\d+\n$' });
    });
    it('reads raw back-quoted strings verbatim', () => {
      expect(parse('kubebuilder:validation:Pattern', '`^\\d{3}(,\\d+)*$`').args).toEqual({ '': '^\\d{3}(,\\d+)*$' });
    });
    it('reads bare strings up to a comma, keeping inner spaces', () => {
      expect(parse('kubebuilder:printcolumn', 'name=Last Schedule,type=date,JSONPath=.status.lastScheduleTime', 'type').args).toEqual({
        name: 'Last Schedule',
        type: 'date',
        JSONPath: '.status.lastScheduleTime',
      });
    });
    it('keeps single quotes as characters (they are not delimiters)', () => {
      expect(parse('kubebuilder:validation:Format', "'date'").args).toEqual({ '': "'date'" });
    });
    it('keeps colons in bare strings outside maps', () => {
      expect(parse('kubebuilder:webhook', 'url=https://host:9443/mutate,mutating=true,failurePolicy=fail,groups=g,resources=r,verbs=create,versions=v1,name=a.b.c,admissionReviewVersions=v1', 'package').args.url).toBe(
        'https://host:9443/mutate',
      );
    });
    it('treats a lone backquote as a literal character', () => {
      expect(parse('kubebuilder:validation:Pattern', '^[a-z`]+$').args).toEqual({ '': '^[a-z`]+$' });
    });
    it('reports a bad escape', () => {
      expect(parse('kubebuilder:validation:Pattern', '"\\q"').errors).toEqual(['unable to parse string: invalid syntax']);
    });
    it('lets an optional single string be empty', () => {
      expect(parse('groupName', '', 'package').args).toEqual({ '': '' });
    });
  });

  describe('lists', () => {
    it('reads legacy a;b;c lists', () => {
      expect(parse('kubebuilder:rbac', 'groups=batch;apps,verbs=get;list', 'package').args).toEqual({ groups: ['batch', 'apps'], verbs: ['get', 'list'] });
    });
    it('reads {a,b} lists', () => {
      expect(parse('kubebuilder:rbac', 'groups={batch, apps},verbs={get}', 'package').args).toEqual({ groups: ['batch', 'apps'], verbs: ['get'] });
    });
    it('reads quoted empty strings as items', () => {
      expect(parse('kubebuilder:rbac', 'groups=core;"";other,verbs=get', 'package').args.groups).toEqual(['core', '', 'other']);
    });
    it('reports an unterminated {list', () => {
      expect(parse('kubebuilder:rbac', 'groups={a,b,verbs=get', 'package').errors[0]).toBe('argument "groups": expected comma, got the end of the marker');
    });
    it('keeps each Enum item its own JSON type', () => {
      expect(parse('kubebuilder:validation:Enum', '1;2;"foo";bar;true;-1.5').args).toEqual({ '': [1, 2, 'foo', 'bar', true, -1.5] });
    });
    it('explains commas used instead of semicolons (controller-gen message and column)', () => {
      expect(parse('kubebuilder:validation:Enum', 'Phone,Address,Name').errors).toEqual(['extra arguments provided: ",Address,Name"']);
    });
  });

  describe('any (type guessed from the text)', () => {
    const any = (text: string) => parse('kubebuilder:default', text);
    it('guesses scalars', () => {
      expect(any('forty-two').args).toEqual({ '': 'forty-two' });
      expect(any('42').args).toEqual({ '': 42 });
      expect(any('-4.5').args).toEqual({ '': -4.5 });
      expect(any('true').args).toEqual({ '': true });
      expect(any('"124"').args).toEqual({ '': '124' });
      expect(any('Allow').args).toEqual({ '': 'Allow' });
    });
    it('reads number-looking prefixes as strings (100Mi, dates)', () => {
      expect(any('100Mi').args).toEqual({ '': '100Mi' });
      expect(any('2024-01-15').args).toEqual({ '': '2024-01-15' });
    });
    it('guesses lists and maps, nested', () => {
      expect(any('{a,b}').args).toEqual({ '': ['a', 'b'] });
      expect(any('{1,2}').args).toEqual({ '': [1, 2] });
      expect(any('{}').args).toEqual({ '': {} });
      expect(any('{policy: "delete", retries: 3}').args).toEqual({ '': { policy: 'delete', retries: 3 } });
      expect(any('{{nested: {foo: "baz", bar: true}},{nested: {foo: "qux", bar: false}}}').args).toEqual({
        '': [{ nested: { foo: 'baz', bar: true } }, { nested: { foo: 'qux', bar: false } }],
      });
    });
    it('makes a legacy list from a top-level a;b', () => {
      expect(any('a;b').args).toEqual({ '': ['a', 'b'] });
    });
  });

  describe('json (+default)', () => {
    it('parses JSON values', () => {
      expect(parse('default', '"TCP"').args).toEqual({ '': 'TCP' });
      expect(parse('default', '["a","b"]').args).toEqual({ '': ['a', 'b'] });
      expect(parse('default', '{}').args).toEqual({ '': {} });
    });
    it('ignores ref(...) values', () => {
      expect(parse('default', 'ref(Foo)').args).toEqual({});
    });
    it('rejects text that is not JSON', () => {
      expect(parse('default', 'TCP').errors[0]).toMatch(/^invalid JSON value "TCP"/);
    });
  });

  describe('named arguments', () => {
    it('reports unknown, missing and malformed arguments', () => {
      // One bad argument is one error: no "extra arguments" or "missing argument" echoes of it.
      expect(parse('kubebuilder:rbac', 'groups=a,verb=get', 'package')).toMatchObject({ errors: ['unknown argument "verb"'], errorColumn: 10 });
      expect(parse('kubebuilder:rbac', 'groups=a', 'package').errors).toEqual(['missing argument "verbs"']);
      expect(parse('kubebuilder:subresource:scale', 'specpath .spec', 'type').errors[0]).toBe('expected equals, got "."');
    });
    it('reports the remaining scanner messages', () => {
      expect(parse('kubebuilder:rbac', 'groups={a,', 'package').errors[0]).toBe('argument "groups": expected close curly brace, got the end of the marker');
      expect(parse('kubebuilder:rbac', '=a', 'package').errors[0]).toBe('expected argument name, got "="');
      expect(parse('kubebuilder:default', '{a: 1, b 2}').errors[0]).toBe('expected colon, got "}"');
      expect(parse('kubebuilder:validation:Pattern', '"abc').errors).toEqual(['literal not terminated']);
    });
    it('names the argument a bad value belongs to, points at the value, and never shows parser positions', () => {
      const bad = parse('kubebuilder:rbac', 'groups=apps,resources=deployments,verbs={get,list', 'package');
      expect(bad.errors).toEqual(['argument "verbs": expected comma, got the end of the marker']);
      expect(bad.errorColumn).toBe(50);
      const typo = parse('kubebuilder:rbac', 'groups=apps,resourcs=deployments,verbs=get', 'package');
      expect(typo).toMatchObject({ errors: ['unknown argument "resourcs"'], errorColumn: 13 });
      expect(parse('kubebuilder:rbac', 'groups=a', 'package')).toEqual({ args: { groups: ['a'] }, errors: ['missing argument "verbs"'] });
      for (const text of ['groups=a,verb=get', 'groups={a,', 'groups=a,verbs=get,x']) expect(parse('kubebuilder:rbac', text, 'package').errors.join()).not.toContain('<input>');
    });
    it('lets a repeated argument win last', () => {
      expect(parse('kubebuilder:printcolumn', 'name=a,type=string,JSONPath=.x,name=b', 'type').args.name).toBe('b');
    });
  });

  describe('flags', () => {
    it('stores true and rejects a value', () => {
      expect(parse('kubebuilder:subresource:status', '', 'type').args).toEqual({ '': true });
      expect(parse('kubebuilder:subresource:status', 'true', 'type').errors).toEqual(['extra arguments provided: "true"']);
    });
  });
});
