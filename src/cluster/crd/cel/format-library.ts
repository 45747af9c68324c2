/** Kubernetes' CEL format library (1.31+): `format.<name>()` / `format.named()` and `<Format>.validate()`. */
import { Optional, type Environment } from '@marcbachmann/cel-js';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from '../../registry/object-meta.js';
import { parseRequestUri } from './url-library.js';

/** A named string format and its validator (messages as apimachinery's validation functions give them). */
export class NamedFormat {
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
  ) {}
}

class FormatNamespace {}

const withoutTrailingDash = (check: (s: string) => string[]) => (s: string) => check(s.endsWith('-') ? s.slice(0, -1) : s);

function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

const formats: Record<string, (s: string) => string[]> = {
  dns1123Label: dns1123LabelErrors,
  dns1123Subdomain: dns1123SubdomainErrors,
  dns1035Label: dns1035LabelErrors,
  qualifiedName: qualifiedNameErrors,
  dns1123LabelPrefix: withoutTrailingDash(dns1123LabelErrors),
  dns1123SubdomainPrefix: withoutTrailingDash(dns1123SubdomainErrors),
  dns1035LabelPrefix: withoutTrailingDash(dns1035LabelErrors),
  labelValue: labelValueErrors,
  uri: (s) => {
    try {
      parseRequestUri(s);
      return [];
    } catch (err) {
      return [`invalid URI: ${(err as Error).message}`];
    }
  },
  uuid: (s) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? [] : ['invalid base64']),
  date: (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? [] : ['invalid date']),
  datetime: (s) => (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime']),
};

/** Registers the `format` namespace and kubernetes.NamedFormat.validate. */
export function registerFormatLibrary(env: Environment): void {
  env
    .registerType('kubernetes.NamedFormat', NamedFormat)
    .registerType('FormatNamespace', FormatNamespace)
    .registerConstant('format', 'FormatNamespace', new FormatNamespace())
    .registerFunction('FormatNamespace.named(string): optional<kubernetes.NamedFormat>', (_ns: unknown, name: string) => {
      const check = formats[name];
      return check ? Optional.of(new NamedFormat(name, check)) : Optional.none();
    })
    .registerFunction('kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: NamedFormat, s: string) => {
      const errs = f.check(s);
      return errs.length === 0 ? Optional.none() : Optional.of(errs);
    });
  for (const [name, check] of Object.entries(formats)) {
    env.registerFunction(`FormatNamespace.${name}(): kubernetes.NamedFormat`, () => new NamedFormat(name, check));
  }
}
