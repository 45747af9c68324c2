/**
 * Events: core/v1 Event and events.k8s.io/v1 Event share one storage (the core form); the
 * events.k8s.io view renames fields on the way in and out, so either API sees events written by the other.
 */
import { type FieldError, invalid, notSupported, required, tooLong } from '../../errors/field-errors.js';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { KubeObject, Stored } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, column, nameColumn } from '../table-format.js';

const coreFields = [
  'involvedObject', 'reason:string', 'message:string', 'source', 'firstTimestamp:string', 'lastTimestamp:string', 'count:integer',
  'type:string', 'eventTime:string', 'series', 'action:string', 'related', 'reportingComponent:string', 'reportingInstance:string',
];
const newFields = [
  'eventTime:string', 'series', 'reportingController:string', 'reportingInstance:string', 'action:string', 'reason:string', 'regarding', 'related',
  'note:string', 'type:string', 'deprecatedSource', 'deprecatedFirstTimestamp:string', 'deprecatedLastTimestamp:string', 'deprecatedCount:integer',
];

/** events.k8s.io/v1 field ↔ core/v1 field. */
const renames: Array<[string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(o: KubeObject, pairs: Array<[string, string]>, apiVersion: string): KubeObject {
  const out: KubeObject = { ...o, apiVersion, kind: 'Event', metadata: o.metadata };
  for (const [from, to] of pairs) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

function validateCoreEvent(stored: KubeObject): FieldError[] {
  const o = asStored<CoreEvent>(stored);
  const errs: FieldError[] = [];
  const ns = o.metadata.namespace;
  const involvedNs = o.involvedObject?.namespace ?? '';
  if (!o.eventTime) {
    if (involvedNs !== '' && involvedNs !== ns && ns !== 'default') errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    return errs;
  }
  if (!o.reportingComponent) errs.push(required('reportingController'));
  if (!o.reportingInstance) errs.push(required('reportingInstance'));
  else if (String(o.reportingInstance).length > 128) errs.push(tooLong('reportingInstance', 128));
  if (!o.action) errs.push(required('action'));
  if (!o.reason) errs.push(required('reason'));
  if (String(o.message ?? '').length > 1024) errs.push(tooLong('message', 1024));
  return errs;
}

function validateNewEvent(stored: KubeObject): FieldError[] {
  const o = asStored<CoreEvent>(stored);
  const errs: FieldError[] = [];
  if (!o.eventTime) errs.push(required('eventTime'));
  if (o.type !== 'Normal' && o.type !== 'Warning') errs.push(notSupported('type', o.type ?? '', ['Normal', 'Warning']));
  return [...errs, ...validateCoreEvent(stored)];
}

const eventLabels = (stored: KubeObject): Record<string, string> => eventFieldLabels(asStored<CoreEvent>(stored));

const eventFieldLabels = (o: Stored<CoreEvent>): Record<string, string> => ({
  'involvedObject.kind': o.involvedObject?.kind ?? '',
  'involvedObject.namespace': o.involvedObject?.namespace ?? '',
  'involvedObject.name': o.involvedObject?.name ?? '',
  'involvedObject.uid': o.involvedObject?.uid ?? '',
  'involvedObject.apiVersion': o.involvedObject?.apiVersion ?? '',
  'involvedObject.resourceVersion': o.involvedObject?.resourceVersion ?? '',
  'involvedObject.fieldPath': o.involvedObject?.fieldPath ?? '',
  reason: o.reason ?? '',
  reportingComponent: o.reportingComponent ?? '',
  source: o.source?.component || o.reportingComponent || '',
  type: o.type ?? '',
});

const eventTable = {
  columns: [
    column('Last Seen', 'string', 'Time when this Event was last seen'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object that this event is about.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('Subobject', 'string', 'The field of the object this event is about.', 1),
    column('Source', 'string', 'The component reporting this event.', 1),
    column('First Seen', 'string', 'The time at which the event was first recorded.', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    { ...nameColumn, priority: 1 },
  ],
  cells: (stored: KubeObject, now: number) => {
    const o = asStored<CoreEvent>(stored);
    const last = o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp;
    const first = o.firstTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp;
    const obj = `${String(o.involvedObject?.kind ?? '').toLowerCase()}/${o.involvedObject?.name ?? ''}`;
    const src = o.source?.component ? `${o.source.component}${o.source.host ? `, ${o.source.host}` : ''}` : o.reportingComponent ?? '';
    return [age(last, now), o.type ?? '', o.reason ?? '', obj, String(o.message ?? '').trim(), o.involvedObject?.fieldPath ?? '', src, age(first, now), o.count ?? 1, o.metadata.name];
  },
};

export const coreEvents = defineKind({
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  bucket: 'events',
  nameRule: 'path-segment',
  fields: coreFields,
  table: eventTable,
  strategy: { validateCreate: validateCoreEvent, validateUpdate: validateCoreEvent, fieldLabels: eventLabels },
});

export const newEvents: ResourceType = defineKind({
  group: 'events.k8s.io',
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  bucket: 'events',
  nameRule: 'path-segment',
  fields: newFields,
  table: eventTable,
  strategy: {
    toStorage: (o) => rename(o, renames, 'v1'),
    fromStorage: (o) => rename(o, renames.map(([a, b]) => [b, a] as [string, string]), 'events.k8s.io/v1'),
    validateCreate: (o) => validateNewEvent(o),
    validateUpdate: (o) => validateNewEvent(o),
    fieldLabels: (o) => {
      const core = eventLabels(o);
      const out: Record<string, string> = { reason: core.reason!, reportingController: core.reportingComponent!, source: core.source!, type: core.type! };
      for (const k of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) out[`regarding.${k}`] = core[`involvedObject.${k}`]!;
      return out;
    },
  },
});
