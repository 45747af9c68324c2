/**
 * Validation of ObjectMeta shared by every kind: names, labels, annotations, finalizers and owner
 * references, with the messages of apimachinery 1.32.
 */
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { type FieldError, forbidden, invalid, required, tooLong } from '../errors/field-errors.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123Label = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123Subdomain = new RegExp(`^${dns1123SubdomainFmt}$`);
const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedName = new RegExp(`^${qualifiedNameFmt}$`);
const labelValue = new RegExp(`^(${qualifiedNameFmt})?$`);
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035Label = new RegExp(`^${dns1035LabelFmt}$`);

/** Messages for a DNS-1123 subdomain; empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123Subdomain.test(value)) {
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${dns1123SubdomainFmt}')`,
    );
  }
  return errs;
}

/** Messages for a DNS-1123 label; empty when valid. */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(value)) {
    errs.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${dns1123LabelFmt}')`,
    );
  }
  return errs;
}

/** Messages for a DNS-1035 label; empty when valid. */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value)) {
    errs.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035LabelFmt}')`,
    );
  }
  return errs;
}

/** Messages for a qualified name (`[prefix/]name`), as label keys, annotation keys and finalizers use. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123SubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  } else if (parts.length > 2) {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${qualifiedNameFmt}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedName.test(name)) {
    errs.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${qualifiedNameFmt}')`,
    );
  }
  return errs;
}

function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValue.test(value)) {
    errs.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(${qualifiedNameFmt})?')`,
    );
  }
  return errs;
}

/** A name must also be usable as a path segment. */
export function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  for (const bad of ['/', '%']) if (name.includes(bad)) return [`may not contain '${bad}'`];
  return [];
}

export type NameRule = 'subdomain' | 'label' | 'path-segment';

/** Validates metadata.name (or reports the missing name) by the kind's naming rule. */
export function validateName(meta: ObjectMeta, rule: NameRule): FieldError[] {
  const name = meta.name;
  if (typeof name !== 'string' || name === '') {
    return [required('metadata.name', 'name or generateName is required')];
  }
  const errs: FieldError[] = [];
  for (const m of pathSegmentErrors(name)) errs.push(invalid('metadata.name', name, m));
  if (errs.length) return errs;
  const msgs = rule === 'label' ? dns1123LabelErrors(name) : rule === 'subdomain' ? dns1123SubdomainErrors(name) : [];
  return msgs.map((m) => invalid('metadata.name', name, m));
}

const annotationLimit = 256 * 1024;

/** Labels, annotations, finalizers and owner references (kind-independent checks). */
export function validateObjectMetaFields(meta: ObjectMeta, isUpdateOfDeleting = false, oldFinalizers: string[] = []): FieldError[] {
  const errs: FieldError[] = [];
  const labels = meta.labels ?? {};
  for (const key of Object.keys(labels).sort()) {
    for (const m of qualifiedNameErrors(key)) errs.push(invalid('metadata.labels', key, m));
    const v = labels[key];
    if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(invalid(`metadata.labels`, v, m));
  }
  const annotations = meta.annotations ?? {};
  let total = 0;
  for (const key of Object.keys(annotations).sort()) {
    for (const m of qualifiedNameErrors(key.toLowerCase())) errs.push(invalid('metadata.annotations', key, m));
    total += key.length + String(annotations[key] ?? '').length;
  }
  if (total > annotationLimit) errs.push(tooLong('metadata.annotations', annotationLimit));
  const finalizers: unknown[] = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string') return;
    for (const m of qualifiedNameErrors(f)) errs.push(invalid(`metadata.finalizers[${i}]`, f, m));
  });
  if (isUpdateOfDeleting) {
    const added = finalizers.filter((f) => typeof f === 'string' && !oldFinalizers.includes(f));
    if (added.length) {
      errs.push(forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((a) => JSON.stringify(a)).join(', ')}}`));
    }
  }
  const owners: OwnerReference[] = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  let controllers = 0;
  owners.forEach((ref, i) => {
    const path = `metadata.ownerReferences[${i}]`;
    if (!ref?.apiVersion) errs.push(invalid(`${path}.apiVersion`, ref?.apiVersion ?? '', 'version must not be empty'));
    if (!ref?.kind) errs.push(invalid(`${path}.kind`, ref?.kind ?? '', 'kind must not be empty'));
    if (!ref?.name) errs.push(invalid(`${path}.name`, ref?.name ?? '', 'name must not be empty'));
    if (!ref?.uid) errs.push(invalid(`${path}.uid`, ref?.uid ?? '', 'uid must not be empty'));
    if (ref?.controller === true) controllers++;
  });
  if (controllers > 1) {
    errs.push(invalid('metadata.ownerReferences', owners, 'Only one reference can have Controller set to true. Found "true" in references for ' + owners.filter((o) => o.controller).map((o) => `${o.kind}/${o.name}`).join(' and ')));
  }
  return errs;
}
