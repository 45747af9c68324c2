/**
 * kubeforge/runtime — the controller runtime generated projects import: manager, builder, client, cache,
 * queue, sources/handlers/predicates, leader election, events, metrics and helpers (ARCHITECTURE.md §3).
 */
export { realClock, after, type Clock, type Timer } from './clock.js';

export type { KubeObject, Request } from './client/object.js';
export { keyOf, objectKey, parseKey, requestOf, splitApiVersion } from './client/object.js';
export { KindRegistry, defaultKindRegistry, defineKind, BuiltinKinds, apiVersionOf, groupKindOf, type KindInfo, type KindRef } from './client/kinds.js';
export { Client, type ObjectKey, type ListOptions, type PatchType, type WriteOptions, type ApplyOptions, type StatusWriter, type DeleteOptions, type PropagationPolicy, type CacheReader, type ClientRequestOptions } from './client/client.js';
export type { ApplyObject, AppliedObject, ApplyConfiguration, ApplyConfigurationOf } from './client/apply.js';
export { DEFAULT_READ_YOUR_OWN_WRITES_TIMEOUT_MS, type ReadYourOwnWritesOptions } from './client/read-your-own-writes.js';
export { Transport, RequestTimeoutError, RequestAbortedError, DEFAULT_REQUEST_TIMEOUT_MS, type TransportOptions, type RequestOptions } from './client/transport.js';
export { Kubeconfig, type KubeConfigLike, type KubeconfigCluster, type KubeconfigUser, type KubeconfigContext, type ExecCredentialPlugin } from './client/kubeconfig.js';
export { inClusterKubeConfig, SERVICE_ACCOUNT_DIR, SERVICE_ACCOUNT_DIR_ENV, type InClusterOptions } from './client/in-cluster.js';
export { ApiError, ignoreNotFound, isNotFound, isConflict, isAlreadyExists, isGone, isInvalid, isForbidden, isTransient } from './client/api-error.js';
export { retryOnConflict } from './client/retry.js';

export { Cache, type CacheOptions, type KindScope } from './cache/cache.js';
export { Informer, type InformerHandler, type InformerOptions } from './cache/informer.js';
export { InformerHealth, metricsObserver, type InformerObserver, type InformerState, type InformerMetrics } from './cache/informer-observer.js';
export { watch, Watcher, type WatcherState, type WatchOptions } from './cache/watcher.js';
export { reflect } from './cache/reflect.js';
export { withBackoff, backoffDelay, type BackoffPolicy } from './cache/backoff.js';
export { withStallDetection, type StallDetectionOptions } from './cache/stall-detection.js';
export { WatchEndedError, WatchStalledError, WatchClosedEarlyError, type WatchEvent, type WatchEvents, type StoreChange } from './cache/watch-event.js';
export { ObjectStore } from './cache/object-store.js';
export { EventStream, type EventTap, type EventBatches, type BatchSource } from './cache/event-stream.js';
export { cloneJson, deepFreeze } from './cache/copy.js';
export { parseLabelSelector } from './cache/label-selector.js';
export { metadataOnly } from './cache/metadata-only.js';
export { PARTIAL_OBJECT_METADATA, PARTIAL_OBJECT_METADATA_LIST, type PartialObjectMetadata } from './client/partial-metadata.js';
export type { IndexFunc } from './cache/object-store.js';

export { LOW_PRIORITY, WorkQueue, type WorkQueueOptions } from './queue/work-queue.js';
export { ExponentialFailureRateLimiter, FixedDelayRateLimiter, type RateLimiter } from './queue/rate-limiter.js';

export type { CreateEvent, UpdateEvent, DeleteEvent, GenericEvent, RequestQueue } from './handler/events.js';
export { enqueueRequestForObject, enqueueRequestForOwner, enqueueRequestsFromMapFunc, eventHandlerFuncs, type EventHandler, type MapFunc, type OwnerKind, type OwnerOptions } from './handler/handler.js';
export { detachedEventContext, type EventContext, type ObjectReader } from './handler/event-context.js';
export { predicateFuncs, generationChanged, resourceVersionChanged, labelChanged, annotationChanged, newPredicate, and, or, not, type Predicate, type AsyncPredicate } from './predicate/predicate.js';
export { Dispatch, type Source, type SourceContext } from './source/source.js';
export { kindSource } from './source/kind.js';
export { EventChannel, channelSource } from './source/channel.js';
export { tickerSource, everyObjectOf, type TickerOptions } from './source/ticker.js';

export { Controller, DEFAULT_MAX_CONCURRENT_RECONCILES, type ControllerOptions } from './controller/controller.js';
export { TerminalError, isTerminalError, type Result, type Reconciler, type ReconcileFunc, type ReconcileContext } from './controller/reconcile.js';
export { ControllerBuilder, type ControllerHost } from './builder/builder.js';
export { WebhookBuilder, type WebhookHost } from './builder/webhook-builder.js';

export { DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS, Manager, type ManagerOptions, type Runnable } from './manager/manager.js';
export { LeaderElector, microTime, type LeaderElectionOptions, type LeaderCallbacks } from './manager/leader-election.js';
export { ManagerMetrics } from './manager/metrics.js';
export { MetricsServer, type MetricsServerOptions } from './manager/metrics-server.js';
export { parseBindAddress, BindError, type ServerName } from './manager/bind-address.js';
export { parseManagerFlags, managerUsage, addManagerFlags, startFailureMessage, portOf, type ManagerFlags, type ManagerFlagsConfig, type ProjectFlags, type ProjectFlagOption, type ProjectFlagValues, type ParsedProjectFlags } from './manager/manager-flags.js';
export { newLogger, pinoLevel, type LoggerOptions, type LogEncoder, type StacktraceLevel } from './logging/logger.js';
export { MetricsAuthFilter, type AuthVerdict } from './manager/metrics-auth.js';

export { EventRecorder, type EventType, type EventRecorderOptions } from './helpers/recorder.js';
export { addFinalizer, removeFinalizer, containsFinalizer, isBeingDeleted } from './helpers/finalizers.js';
export { setStatusCondition, findStatusCondition, removeStatusCondition, isStatusConditionTrue, isStatusConditionFalse, rfc3339Seconds, type ConditionInput } from './helpers/conditions.js';
export { setControllerReference, setOwnerReference, getControllerOf, AlreadyOwnedError } from './helpers/owner-references.js';

export { WebhookServer, type WebhookServerOptions } from './webhook/server.js';
export { mutatePath, validatePath, type AdmissionRequest, type AdmissionResponse, type Defaulter, type Validator, type CustomDefaulter, type CustomValidator, type Converter } from './webhook/admission.js';
export { KindConversion, ConversionWebhook, CONVERSION_REVIEW_VERSIONS, type Hub, type Convertible, type ConversionRequest, type ConversionResponse } from './webhook/conversion.js';
export { selfSignedWebhookCertificates, type WebhookCertificates } from './webhook/self-signed.js';
export { jsonPatchDiff, type JsonPatchOp } from './webhook/json-patch-diff.js';
// apimachinery's field errors and apierrors.NewInvalid, for webhooks: `throw newInvalid(groupKind, name, [field.invalid(field.newPath('spec', 'schedule'), value, detail)])`.
export * as field from '../apimachinery/field.js';
export { newInvalid, InvalidError, type FieldError, type ErrorList, type GroupKind } from '../apimachinery/field.js';
// resourceVersions ordered as the cache orders them (decimal integers; anything else not comparable).
export { compareResourceVersions, isComparableResourceVersion } from '../apimachinery/resource-version.js';
// Go's time.ParseDuration (Go's grammar and error texts) and Duration.String, for flags and configuration files.
export { parseGoDuration, parseGoDurationNanos, formatGoDuration, formatGoDurationNanos, GoDurationError } from '../apimachinery/go-duration.js';
export { ProbeServer, type Check } from './manager/probes.js';
