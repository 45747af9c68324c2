/**
 * The controller builder — composition only: `controllerFor(kind)` (or `.for(kind)`) watches the primary kind
 * with enqueueRequestForObject; `owns(kind)` watches owned objects and enqueues their controller owner;
 * `watches(source, handler)` adds anything else, its handler and predicates typed by the watched kind;
 * `withEventFilter` applies predicates to every watch; `complete(reconciler)` checks what it was given, as
 * controller-runtime's `Build` does (builder-checks.ts), then builds the Controller and registers it with
 * the host (the manager). A misused builder throws from complete() and registers nothing.
 */
import { Controller, type ControllerOptions } from '../controller/controller.js';
import type { ReconcileFunc, Reconciler } from '../controller/reconcile.js';
import type { KindInfo, KindRef, KindRegistry } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { enqueueRequestForObject, enqueueRequestForOwner, type EventHandler, type OwnerOptions } from '../handler/handler.js';
import type { AsyncPredicate } from '../predicate/predicate.js';
import { kindSource } from '../source/kind.js';
import type { Source } from '../source/source.js';
import { checkBuilder, type WatchedKind } from './builder-checks.js';

/** Where built controllers go (the manager implements it). */
export interface ControllerHost {
  readonly kinds: KindRegistry;
  addController(controller: Controller): void;
  /** Whether a controller of this name is registered already (names are unique per manager). */
  hasController?(name: string): boolean;
}

interface PendingWatch {
  source: Source<KubeObject>;
  /** The handler, or (for owns()) the owner options its enqueueRequestForOwner is made with at complete(). */
  handler: EventHandler<KubeObject> | { owner: OwnerOptions };
  predicates: AsyncPredicate<KubeObject>[];
  /** The kind a kind source watches, with where it was given (for the "kind given twice" check). */
  watched?: WatchedKind;
}

export class ControllerBuilder<T extends KubeObject = KubeObject> {
  private forKind: KindInfo<T> | undefined;
  private forCalls = 0;
  private forPredicates: AsyncPredicate<T>[] = [];
  private readonly extra: PendingWatch[] = [];
  private readonly globalPredicates: AsyncPredicate<KubeObject>[] = [];
  private options: ControllerOptions = {};
  private name: string | undefined;

  constructor(
    private readonly host: ControllerHost,
    kind?: KindRef<T>,
  ) {
    if (kind !== undefined) this.for(kind);
  }

  /** The kind this controller reconciles (controller-runtime's For); once per builder. */
  for<F extends KubeObject>(kind: KindRef<F>): ControllerBuilder<F> {
    this.forCalls++;
    if (this.forCalls === 1) (this as unknown as ControllerBuilder<F>).forKind = this.host.kinds.resolve(kind);
    return this as unknown as ControllerBuilder<F>;
  }

  /** Predicates for the primary kind's events only. */
  withPredicates(...predicates: AsyncPredicate<T>[]): this {
    this.forPredicates.push(...predicates);
    return this;
  }

  /** Watches `kind` and reconciles the primary object that owns it (controller owner, unless told otherwise). */
  owns<O extends KubeObject>(kind: KindRef<O>, options: OwnerOptions & { predicates?: AsyncPredicate<NoInfer<O>>[] } = {}): this {
    const { predicates, ...owner } = options;
    const info = this.host.kinds.resolve(kind) as KindInfo;
    this.extra.push({ source: kindSource(info), handler: { owner }, predicates: (predicates ?? []) as AsyncPredicate<KubeObject>[], watched: { info, by: 'Owns()' } });
    return this;
  }

  /**
   * Watches any source (a kind, a channel, a ticker) with any handler. A KindRef means the kind's source. The
   * handler and predicates take the source's object type: a handler for another kind does not compile.
   */
  watches<O extends KubeObject>(source: Source<O> | KindRef<O>, handler: EventHandler<NoInfer<O>>, ...predicates: AsyncPredicate<NoInfer<O>>[]): this {
    const src = isSource(source) ? source : kindSource(this.host.kinds.resolve(source));
    const kind = (src as { kind?: KindRef }).kind;
    this.extra.push({
      source: src as unknown as Source<KubeObject>,
      handler: handler as unknown as EventHandler<KubeObject>,
      predicates: predicates as unknown as AsyncPredicate<KubeObject>[],
      watched: kind === undefined ? undefined : { info: this.host.kinds.resolve(kind), by: 'Watches()' },
    });
    return this;
  }

  /** Predicates applied to the events of every watch of this controller. */
  withEventFilter(...predicates: AsyncPredicate<KubeObject>[]): this {
    this.globalPredicates.push(...predicates);
    return this;
  }

  withOptions(options: ControllerOptions): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** The controller's name in logs and metrics; default the lower-cased kind. Unique per manager. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** Checks the builder (throws, registering nothing, when misused), builds the controller and registers it. */
  complete(reconciler: Reconciler | ReconcileFunc): Controller {
    const name = checkBuilder({
      reconciler,
      forCalls: this.forCalls,
      forKind: this.forKind,
      name: this.name,
      watched: this.extra.flatMap((w) => (w.watched ? [w.watched] : [])),
      watchCount: this.extra.length,
      nameTaken: (n) => this.host.hasController?.(n) ?? false,
    });
    const controller = new Controller(name, reconciler, this.options);
    const forKind = this.forKind;
    if (forKind) {
      const primary = [...this.globalPredicates, ...(this.forPredicates as AsyncPredicate<KubeObject>[])];
      controller.watch(kindSource(forKind) as Source<KubeObject>, enqueueRequestForObject(), ...primary);
    }
    for (const w of this.extra) {
      // checkBuilder refused owns() without a For kind.
      const handler = 'owner' in w.handler ? enqueueRequestForOwner({ group: forKind!.group, kind: forKind!.kind, namespaced: forKind!.namespaced }, w.handler.owner) : w.handler;
      controller.watch(w.source, handler, ...this.globalPredicates, ...w.predicates);
    }
    this.host.addController(controller);
    return controller;
  }
}

function isSource<O extends KubeObject>(s: Source<O> | KindRef<O>): s is Source<O> {
  return typeof (s as Source<O>).start === 'function';
}
