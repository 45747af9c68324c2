/**
 * Admission for the writes built-in controllers make in-process (§7.1: "the same validation/admission
 * path"): the same `admittedWrite` step HTTP requests take, bridged to the controllers' synchronous
 * reconciles. When a webhook applies, the write is refused with `AdmissionPending` while the
 * webhooks are called; the scheduler re-runs the reconcile when they answer, and the identical write
 * then takes the webhooks' verdict (mutated body, or their denial) synchronously. Deletes likewise.
 * The webhooks' warnings cannot reach a client; as kube-controller-manager logs them, they are kept
 * for the request log entry of the write (`takeWarnings`).
 */
import type { UserInfo } from '../http/authentication.js';
import type { ObjectOperations, WriteResult } from '../registry/object-operations.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { KubeObject } from '../store/object-store.js';
import { type AdmissionRequestContext, type WebhookAdmission, admittedWrite } from './webhook-admission.js';

/** Thrown by a controller write that waits for its webhooks; `settled` resolves when they answered. */
export class AdmissionPending extends Error {
  constructor(readonly settled: Promise<void>) {
    super('waiting for admission webhooks');
  }
}

type Verdict = { mutated: KubeObject | undefined; warnings: string[] } | { error: unknown };

/** A controller write under admission: `preview` computes what would be stored, `write(mutated?)` stores it. */
export interface ControllerWrite {
  op: 'CREATE' | 'UPDATE';
  rt: ResourceType;
  namespace: string | undefined;
  name: string | undefined;
  subresource?: string;
  user: UserInfo;
  body: KubeObject;
  old: KubeObject | undefined;
  preview: () => WriteResult;
  write: (mutated: KubeObject | undefined) => WriteResult;
}

const maxVerdicts = 1000;

export class ControllerAdmission {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Webhook warnings of the writes that took effect since the last takeWarnings(). */
  private warnings: string[] = [];

  constructor(private readonly admission: WebhookAdmission, private readonly ops: ObjectOperations) {}

  /** Webhook calls still running (settle() waits for them). */
  pending(): Promise<void> | undefined {
    return this.inFlight.size ? Promise.all(this.inFlight).then(() => undefined) : undefined;
  }

  /** The webhook warnings of the controller writes made since the last call (the request log attaches them to the write's entry). */
  takeWarnings(): string[] {
    const taken = this.warnings;
    this.warnings = [];
    return taken;
  }

  /** False while no webhook configuration is stored: every write goes straight through (write(undefined)). */
  configured(): boolean {
    return this.admission.configured();
  }

  write(w: ControllerWrite): WriteResult {
    const c: AdmissionRequestContext = {
      rt: w.rt,
      ...(w.namespace !== undefined ? { namespace: w.namespace } : {}),
      ...(w.name !== undefined ? { name: w.name } : {}),
      ...(w.subresource ? { subresource: w.subresource } : {}),
      user: w.user,
      dryRun: false,
    };
    if (!this.admission.applies(w.op, c, w.body, w.old)) return w.write(undefined);
    const key = JSON.stringify([w.op, w.rt.bucket, w.namespace, w.name, w.subresource, w.user.username, w.body]);
    // The shared step, with the final write replaced by recording the (possibly mutated) body.
    const verdict = this.verdict(key, async () => {
      let body: KubeObject | undefined;
      let own = 0;
      const result = await admittedWrite(this.admission, w.op, c, this.ops, w.body, w.old, w.preview, (m) => {
        body = m;
        const previewed = w.preview();
        own = previewed.warnings.length;
        return previewed;
      });
      // admittedWrite puts the write's own warnings first, then the webhooks': keep the webhooks'
      return { mutated: body, warnings: result.warnings.slice(own) };
    });
    const written = w.write(verdict.mutated);
    this.warnings.push(...verdict.warnings);
    return { ...written, warnings: [...verdict.warnings, ...written.warnings] };
  }

  /** Admission of a controller's DELETE of `old`: returns when allowed, throws the denial or AdmissionPending. */
  delete(rt: ResourceType, old: KubeObject, user: UserInfo): void {
    const namespace = rt.namespaced ? old.metadata.namespace : undefined;
    const c: AdmissionRequestContext = { rt, ...(namespace ? { namespace } : {}), name: old.metadata.name, user, dryRun: false };
    if (!this.admission.applies('DELETE', c, undefined, old)) return;
    const key = JSON.stringify(['DELETE', rt.bucket, namespace, old.metadata.name, user.username, old.metadata.uid, old.metadata.resourceVersion]);
    const verdict = this.verdict(key, async () => {
      const mutated = await this.admission.mutate('DELETE', c, undefined, old);
      const validated = await this.admission.validate('DELETE', c, undefined, old);
      return { mutated: undefined, warnings: [...mutated.warnings, ...validated] };
    });
    this.warnings.push(...verdict.warnings);
  }

  /** The remembered verdict for `key` (consumed), or starts `decide` and throws AdmissionPending. */
  private verdict(key: string, decide: () => Promise<{ mutated: KubeObject | undefined; warnings: string[] }>): { mutated: KubeObject | undefined; warnings: string[] } {
    const known = this.verdicts.get(key);
    if (known) {
      this.verdicts.delete(key);
      if ('error' in known) throw known.error;
      return known;
    }
    const call = decide().then(
      (decided) => this.remember(key, decided),
      (error: unknown) => this.remember(key, { error }),
    );
    const settled: Promise<void> = call.finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
    throw new AdmissionPending(settled);
  }

  private remember(key: string, verdict: Verdict): void {
    if (this.verdicts.size >= maxVerdicts) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(key, verdict);
  }
}
