/**
 * The controller builder — composition only: `controllerFor(kind)` watches the primary kind with
 * enqueueRequestForObject; `owns(kind)` watches owned objects and enqueues their controller owner;
 * `watches(source, handler)` adds anything else; `withEventFilter` applies predicates to every watch;
 * `complete(reconciler)` builds the Controller and registers it with the host (the manager).
 */
import { Controller, type ControllerOptions } from '../controller/controller.js';
import type { ReconcileFunc, Reconciler } from '../controller/reconcile.js';
import type { KindInfo, KindRef, KindRegistry } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { enqueueRequestForObject, enqueueRequestForOwner, type EventHandler, type OwnerOptions } from '../handler/handler.js';
import type { Predicate } from '../predicate/predicate.js';
import { kindSource } from '../source/kind.js';
import type { Source } from '../source/source.js';

/** Where built controllers go (the manager implements it). */
export interface ControllerHost {
  readonly kinds: KindRegistry;
  addController(controller: Controller): void;
}

interface PendingWatch {
  source: Source<KubeObject>;
  handler: EventHandler<KubeObject>;
  predicates: Predicate<KubeObject>[];
}

export class ControllerBuilder<T extends KubeObject = KubeObject> {
  private readonly forKind: KindInfo<T>;
  private forPredicates: Predicate<T>[] = [];
  private readonly extra: PendingWatch[] = [];
  private readonly globalPredicates: Predicate<KubeObject>[] = [];
  private options: ControllerOptions = {};
  private name: string | undefined;

  constructor(
    private readonly host: ControllerHost,
    kind: KindRef<T>,
  ) {
    this.forKind = host.kinds.resolve(kind);
  }

  /** Predicates for the primary kind's events only. */
  withPredicates(...predicates: Predicate<T>[]): this {
    this.forPredicates.push(...predicates);
    return this;
  }

  /** Watches `kind` and reconciles the primary object that owns it (controller owner, unless told otherwise). */
  owns<O extends KubeObject>(kind: KindRef<O>, options: OwnerOptions & { predicates?: Predicate<O>[] } = {}): this {
    const info = this.host.kinds.resolve(kind);
    this.extra.push({
      source: kindSource(info) as Source<KubeObject>,
      handler: enqueueRequestForOwner({ group: this.forKind.group, kind: this.forKind.kind, namespaced: this.forKind.namespaced }, options) as EventHandler<KubeObject>,
      predicates: (options.predicates ?? []) as Predicate<KubeObject>[],
    });
    return this;
  }

  /** Watches any source (a kind, a channel, a ticker) with any handler. A KindRef means the kind's source. */
  watches<O extends KubeObject>(source: Source<O> | KindRef<O>, handler: EventHandler<O>, ...predicates: Predicate<O>[]): this {
    const src = isSource(source) ? source : kindSource(this.host.kinds.resolve(source));
    this.extra.push({ source: src as Source<KubeObject>, handler: handler as EventHandler<KubeObject>, predicates: predicates as Predicate<KubeObject>[] });
    return this;
  }

  /** Predicates applied to the events of every watch of this controller. */
  withEventFilter(...predicates: Predicate<KubeObject>[]): this {
    this.globalPredicates.push(...predicates);
    return this;
  }

  withOptions(options: ControllerOptions): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** The controller's name in logs and metrics; default the lower-cased kind. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  complete(reconciler: Reconciler | ReconcileFunc): Controller {
    const controller = new Controller(this.name ?? this.forKind.kind.toLowerCase(), reconciler, this.options);
    const primary = [...this.globalPredicates, ...(this.forPredicates as Predicate<KubeObject>[])];
    controller.watch(kindSource(this.forKind) as Source<KubeObject>, enqueueRequestForObject(), ...primary);
    for (const w of this.extra) controller.watch(w.source, w.handler, ...this.globalPredicates, ...w.predicates);
    this.host.addController(controller);
    return controller;
  }
}

function isSource<O extends KubeObject>(s: Source<O> | KindRef<O>): s is Source<O> {
  return typeof (s as Source<O>).start === 'function';
}
