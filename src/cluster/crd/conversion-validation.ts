/**
 * The checks kube-apiserver 1.32 runs on a CRD's `spec.conversion` (validateCustomResourceConversion):
 * a Webhook strategy needs exactly one of a URL or a service client config and conversionReviewVersions
 * naming v1 or v1beta1; the None strategy takes neither. Errors are named by the internal type's paths
 * (`spec.conversion.webhookClientConfig`, `spec.conversion.conversionReviewVersions`), as the real server names them.
 */
import type { CustomResourceConversion, ServiceReference } from 'kubernetes-types/apiextensions/v1.js';
import { type FieldError, GoSyntaxValue, forbidden, goQuote, invalid, notSupported, required } from '../errors/field-errors.js';
import { dns1035LabelErrors } from '../registry/object-meta.js';

const acceptedReviewVersions = ['v1', 'v1beta1'];

function urlErrors(field: string, raw: string): FieldError[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (err) {
    return [invalid(field, raw, `url must be a valid URL: ${(err as Error).message}`)];
  }
  const errs: FieldError[] = [];
  if (url.protocol !== 'https:') errs.push(invalid(field, url.protocol.replace(/:$/, ''), "'https' is the only allowed URL scheme"));
  if (!url.host) errs.push(invalid(field, url.host, 'host must be specified'));
  if (url.username || url.password) errs.push(invalid(field, url.password ? `${url.username}:${url.password}` : url.username, 'user information is not permitted in the URL'));
  if (url.hash) errs.push(invalid(field, url.hash.slice(1), 'fragments are not permitted in the URL'));
  if (url.search) errs.push(invalid(field, url.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

function serviceErrors(field: string, service: ServiceReference): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(required(`${field}.name`, 'service name is required'));
  if (!service.namespace) errs.push(required(`${field}.namespace`, 'service namespace is required'));
  if (service.port !== undefined && (!Number.isInteger(service.port) || service.port < 1 || service.port > 65535)) {
    errs.push(invalid(`${field}.port`, service.port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (service.path !== undefined && service.path !== '' && !String(service.path).startsWith('/')) {
    errs.push(invalid(`${field}.path`, service.path, "must start with a '/'"));
  }
  return errs;
}

function reviewVersionErrors(field: string, versions: unknown): FieldError[] {
  const list: string[] = Array.isArray(versions) ? versions : [];
  if (list.length === 0) return [required(field)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(`${field}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of dns1035LabelErrors(String(v))) errs.push(invalid(`${field}[${i}]`, v, m));
  });
  if (!list.some((v) => acceptedReviewVersions.includes(v))) errs.push(invalid(field, new GoSyntaxValue(`[]string{${list.map((v) => goQuote(String(v))).join(', ')}}`), `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  return errs;
}

/** The errors of `spec.conversion` (already defaulted to `{ strategy: None }`). */
export function conversionErrors(conversion: CustomResourceConversion | undefined): FieldError[] {
  if (!conversion) return [];
  const strategy = conversion.strategy;
  if (strategy !== 'None' && strategy !== 'Webhook') return [notSupported('spec.conversion.strategy', strategy ?? '', ['None', 'Webhook'])];
  const clientField = 'spec.conversion.webhookClientConfig';
  const versionsField = 'spec.conversion.conversionReviewVersions';
  const clientConfig = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions;
  if (strategy === 'None') {
    const errs: FieldError[] = [];
    if (clientConfig) errs.push(forbidden(clientField, 'should not be set when strategy is not set to Webhook'));
    if (Array.isArray(reviewVersions) && reviewVersions.length > 0) errs.push(forbidden(versionsField, 'should not be set when strategy is not set to Webhook'));
    return errs;
  }
  const errs: FieldError[] = [];
  if (!clientConfig) errs.push(required(clientField, 'required when strategy is set to Webhook'));
  else if (Boolean(clientConfig.url) === Boolean(clientConfig.service)) errs.push(required(clientField, 'exactly one of url or service is required'));
  else if (clientConfig.url) errs.push(...urlErrors(`${clientField}.url`, String(clientConfig.url)));
  else errs.push(...serviceErrors(`${clientField}.service`, clientConfig.service!));
  errs.push(...reviewVersionErrors(versionsField, reviewVersions));
  return errs;
}
