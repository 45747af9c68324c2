/**
 * kubeforge/api — the TypeScript names for what Go API types express with Go types.
 *
 * Operator authors import these in `api/<version>/*_types.ts`. At run time they are plain JSON values;
 * the generator recognises each alias by name (and that it comes from `kubeforge/api`) and emits the
 * schema controller-gen emits for the Go type it stands for.
 */
import type { ObjectMeta as K8sObjectMeta, ListMeta as K8sListMeta, Condition as K8sCondition } from 'kubernetes-types/meta/v1.js';

/** A 32-bit integer: `type: integer, format: int32`. */
export type int32 = number;
/** A 64-bit integer: `type: integer, format: int64`. */
export type int64 = number;
/** An integer of unspecified width: `type: integer`. */
export type int = number;
/** A 32-bit float: `type: number` (needs `--allow-dangerous-types`, as in controller-gen). */
export type float32 = number;
/** A 64-bit float: `type: number` (needs `--allow-dangerous-types`, as in controller-gen). */
export type float64 = number;
/** Bytes, base64 on the wire: `type: string, format: byte`. */
export type bytes = string;
/** metav1.Time: an RFC 3339 timestamp, `type: string, format: date-time`. */
export type Time = string;
/** metav1.MicroTime: an RFC 3339 timestamp with microseconds, `type: string, format: date-time`. */
export type MicroTime = string;
/** metav1.Duration: a Go duration string such as `1h30m`, `type: string`. */
export type Duration = string;
/** resource.Quantity: `1Gi`, `500m`, `2`. */
export type Quantity = string | number;
/** intstr.IntOrString. */
export type IntOrString = string | number;
/** runtime.RawExtension: any embedded object, kept as written. */
export type RawExtension = Record<string, unknown>;
/** apiextensionsv1.JSON: any JSON value, kept as written. */
export type JSONValue = unknown;
/** metav1.Fields / free-form object. */
export type Fields = Record<string, unknown>;

/** metav1.ObjectMeta (the root `metadata` of a kind is emitted as `type: object`). */
export type ObjectMeta = K8sObjectMeta;
/** metav1.ListMeta (the `metadata` of a List type). */
export type ListMeta = K8sListMeta;
/** metav1.Condition, with the full schema controller-gen gives it. */
export type Condition = K8sCondition;
/** metav1.TypeMeta fields of every kind. */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/**
 * The apply configuration of a type (client-go's `…ApplyConfiguration`): every field optional, at every
 * depth, lists of configurations and maps of configurations — what a server-side apply states. `kubeforge
 * generate` writes one per API type (`zz_generated.applyconfigurations.ts`); this generic form serves
 * Kubernetes' own types (`ApplyConfiguration<Deployment>`).
 */
export type ApplyConfiguration<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends readonly (infer Item)[]
    ? ApplyConfiguration<Item>[]
    : T extends object
      ? [keyof T] extends [never]
        ? unknown // a free-form object (`{}`, as kubernetes-types writes FieldsV1)
        : string extends keyof T
          ? { [key: string]: ApplyConfiguration<T[keyof T]> }
          : { -readonly [K in keyof T]?: ApplyConfiguration<T[K]> }
      : T;

/**
 * The key of the type-only property by which an apply configuration names the object type the server
 * answers with (`readonly [appliesTo]?: CronJob`), so `client.apply(config)` returns a `CronJob`.
 * It never exists at run time.
 */
export declare const appliesTo: unique symbol;

/** An apply configuration of a kind: `ApplyConfiguration<T>` that also says it answers with a `T`. */
export type ApplyConfigurationOf<T> = ApplyConfiguration<T> & { readonly [appliesTo]?: T };

/**
 * Go's time.ParseDuration and Duration.String for `Duration` values (the same functions kubeforge/runtime
 * exports), here for code that reads or prints durations without loading the controller runtime (a CLI).
 */
export { parseGoDuration, parseGoDurationNanos, formatGoDuration, formatGoDurationNanos, GoDurationError } from '../apimachinery/go-duration.js';
