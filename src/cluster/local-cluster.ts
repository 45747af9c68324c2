/**
 * `startLocalCluster()`: assembles the store, registry, HTTP server, clock and built-in controllers
 * into one in-process Kubernetes 1.32 API server on 127.0.0.1, and hands tests the handles they
 * need (kubeconfigs, clock, settle, request log, faults, stop).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapObjects } from './bootstrap.js';
import { bootstrapOnce } from './bootstrap-replay.js';
import { type ClusterClock, RealClusterClock, VirtualClock } from './clock/virtual-clock.js';
import { ApiServer } from './http/api-server.js';
import { TokenAuthenticator } from './http/authentication.js';
import { installTokenRequest } from './http/token-request.js';
import type { ServiceAccountTokenIssuer } from './http/service-account-issuer.js';
import { markLegacyTokenUsed } from './controllers/legacy-token-tracking.js';
import { OpenAPIDocuments } from './http/openapi.js';
import { FaultInjector, type FaultSpec, type RequestLogEntry } from './http/request-log.js';
import { ResourceHandler } from './http/resource-handler.js';
import { type StorageMigrationResult, migrateStorage } from './storage-migration.js';
import { WebhookAdmission } from './admission/webhook-admission.js';
import { WatchHub } from './http/watch.js';
import { kubeconfigText, writeKubeconfigFile } from './kubeconfig.js';
import { batchKinds } from './registry/builtin/batch-kinds.js';
import { replicaKinds } from './registry/builtin/replica-kinds.js';
import { coreKinds } from './registry/builtin/core-kinds.js';
import { coreEvents, newEvents } from './registry/builtin/event-kinds.js';
import { otherKinds } from './registry/builtin/other-kinds.js';
import { admissionKinds } from './registry/builtin/admission-kinds.js';
import { serviceKinds } from './registry/builtin/service-kinds.js';
import { composeBuiltinKinds } from './registry/builtin/compose-builtin-kinds.js';
import { genericKinds } from './registry/builtin/generic-kinds.js';
import { hpaKinds } from './registry/builtin/hpa-kinds.js';
import { csrKinds } from './registry/builtin/csr-kinds.js';
import { installCertificateApis } from './http/certificate-apis.js';
import { installComponentStatuses } from './http/component-statuses.js';
import type { CertificateAuthority } from '../certificates/self-signed.js';
import { workloadKinds } from './registry/builtin/workload-kinds.js';
import { standardStorageClass, storageKinds } from './registry/builtin/storage-kinds.js';
import { ObjectOperations } from './registry/object-operations.js';
import { ResourceCatalog } from './registry/resource-catalog.js';
import { SeededRandom } from './registry/system-metadata.js';
import { ObjectStore } from './store/object-store.js';
import { FreshnessWaiter } from './store/freshness.js';
import { generateServingCertificates } from './tls/certificates.js';
import { issueClientCertificate as issueClientCertificateFrom } from '../certificates/self-signed.js';
import { installCustomResourceSupport } from './crd/install.js';
import { createAuthorizer } from './http/rbac-authorizer.js';
import { installReviewApis, reviewKinds } from './http/review-apis.js';
import { installPodEviction } from './http/pod-eviction.js';
import { type LeastPrivilegeReport, leastPrivilegeReport } from './http/least-privilege.js';
import { controllerIdentities, startBuiltinControllers } from './controllers/install.js';
import { ControllerClient } from './controllers/controller-client.js';
import type { KubeObject } from './store/object-store.js';
import { checkRbacEscalation } from './rbac/escalation.js';
import { ControllerAdmission } from './admission/controller-admission.js';
import { AdmissionChain } from './admission/admission-chain.js';
import { isAllowed } from './http/rbac-authorizer.js';
import type { UserInfo } from './http/authentication.js';
import type { RequestInfo } from './http/request-info.js';
import { limitRanges } from './registry/builtin/limit-range-kind.js';
import { resourceQuotas } from './registry/builtin/resource-quota-kind.js';
import { admissionPolicyKinds } from './registry/builtin/admission-policy-kinds.js';
import { bindings } from './registry/builtin/binding-kinds.js';
import { installPodSubresources } from './http/pod-subresources.js';
import { containerLogsOf } from './controllers/install.js';
import { type CertificateUser, ClusterDataDirectory } from './data-directory.js';
import { LocalImages } from './controllers/local-images.js';
import { claimPodNetwork, type PodNetworkClaim } from './controllers/pod-network.js';

export interface ControllerSwitches {
  garbageCollector?: boolean;
  namespace?: boolean;
  serviceAccount?: boolean;
  /** kube-controller-manager's token controller: fills `kubernetes.io/service-account-token` Secrets (default on). */
  serviceAccountToken?: boolean;
  job?: boolean;
  cronJob?: boolean;
  ttl?: boolean;
  /** Events expire one hour after their last write, as with the API server's etcd lease (default on). */
  eventTtl?: boolean;
  /** ClusterRoles with an `aggregationRule` (admin, edit, view, yours) follow the roles they select (default on). */
  clusterRoleAggregation?: boolean;
  /** Endpoints of Services with a selector, from their pods (default on). */
  endpoints?: boolean;
  /** EndpointSlices of Services with a selector, from their pods (default on). */
  endpointSlice?: boolean;
  /** EndpointSlices mirroring hand-written Endpoints of selector-less Services (default on). */
  endpointSliceMirroring?: boolean;
  /** PodDisruptionBudget status (default on); eviction reads it. */
  disruption?: boolean;
  /** The API server writes the `kubernetes` Service, Endpoints and EndpointSlice again when deleted (default on). */
  kubernetesService?: boolean;
  /** Approved CSRs for the kube-apiserver-client(-kubelet) signers get a certificate from the cluster CA (default on). */
  csrSigning?: boolean;
  /** One APIService per served group version, Available (Local), following CRDs (default on). */
  apiServiceRegistration?: boolean;
  /** StatefulSets: ordered pods, claims from volumeClaimTemplates, rolling updates (default on). */
  statefulSet?: boolean;
  /** DaemonSets: a pod per node, rolling updates (default on). */
  daemonSet?: boolean;
  /** The PersistentVolume controller's binder: claims ↔ volumes, phases, reclaim (default on). */
  persistentVolumeBinder?: boolean;
  /** kind's rancher.io/local-path provisioner behind the `standard` StorageClass (default on). */
  localPathProvisioner?: boolean;
  /** kubernetes.io/pvc-protection: a claim in use by a pod is removed only after the pod (default on). */
  pvcProtection?: boolean;
  /** kubernetes.io/pv-protection: a Bound volume is removed only after it is released (default on). */
  pvProtection?: boolean;
  /** Generic ephemeral volumes: a claim `<pod>-<volume>` owned by the pod (default on). */
  ephemeralVolume?: boolean;
  /** Deployments roll out through ReplicaSets (default on). */
  deployment?: boolean;
  /** ReplicaSets keep their pods (default on). */
  replicaSet?: boolean;
  /** ReplicationControllers keep their pods (default on). */
  replicationController?: boolean;
  /** ResourceQuota status.used recalculated from the namespace's objects (default on). */
  resourceQuota?: boolean;
  /** ValidatingAdmissionPolicy status.observedGeneration / typeChecking (default on). */
  admissionPolicyStatus?: boolean;
  /** Node lifecycle: cordon taints, NotReady nodes when a kubelet stops, taint eviction (default on). */
  nodeLifecycle?: boolean;
  /** The default scheduler (default on; off: pods wait unbound unless they name their node or you bind them). */
  scheduler?: boolean;
}

export interface LocalClusterOptions {
  /** Start time of the virtual clock (default: now, rounded down to a second). */
  now?: Date | string | number;
  /** `virtual` (default; time moves only when the test says so) or `real`. */
  clock?: 'virtual' | 'real';
  /**
   * HTTPS with a generated CA (default true); false serves plain HTTP for debugging, where requests
   * without credentials act as the admin (kubectl never sends a token over http).
   */
  tls?: boolean;
  /** `rbac` (default) or `alwaysAllow`. */
  authz?: 'rbac' | 'alwaysAllow';
  /** Port on 127.0.0.1 (default 0 = any free port). */
  port?: number;
  /** Seed for uids and generated names (default 1). */
  seed?: number;
  /** Kubelet simulator (`simulate`, default) or `inert` (pods stay Pending, as on envtest). */
  pods?: 'simulate' | 'inert';
  /**
   * Simulated nodes, named as kind names them (default 1): kubeforge-control-plane, then
   * kubeforge-worker, kubeforge-worker2, …; with workers, the control plane is tainted NoSchedule.
   */
  nodes?: number;
  /** Built-in controllers, each on by default; `false` switches one off. */
  controllers?: ControllerSwitches;
  /**
   * Built-in admission plugins to switch off by name (kube-apiserver's `--disable-admission-plugins`):
   * LimitRanger, ServiceAccount, PodSecurity, Priority, ValidatingAdmissionPolicy, ResourceQuota (src/cluster/admission/admission-chain.ts).
   */
  disabledAdmissionPlugins?: string[];
  /**
   * Built-in admission plugins that are off by default to switch on, by kube-apiserver's names (its
   * `--enable-admission-plugins`): OwnerReferencesPermissionEnforcement, as OpenShift runs it.
   */
  enabledAdmissionPlugins?: string[];
  /**
   * Request log entries kept, newest first out (default 10 000; 0 keeps none). The least-privilege
   * report does not read them: it stays exact however many entries the ring dropped.
   */
  requestLogSize?: number;
  /**
   * Deadline of a non-long-running request on the cluster's clock (default 60 s, kube-apiserver's
   * `--request-timeout`): then a 504 Timeout. Watches, logs, exec and proxies have none.
   */
  requestTimeoutSeconds?: number;
  /** Wall-clock seconds a CRD conversion webhook has to answer (default 30, the webhook client's timeout). */
  conversionWebhookTimeoutSeconds?: number;
  /** Wall-clock seconds a connection has to send its request headers and finish its TLS handshake (default 32, Go's ReadHeaderTimeout as kube-apiserver sets it). */
  readHeaderTimeoutSeconds?: number;
  /** Watch history length (default 10 000 events). */
  watchHistory?: number;
  /**
   * Users authenticated by client certificates the cluster's CA signs (CN = user, O = groups); each
   * gets a user entry and a context `kubeforge-<user>` in the admin kubeconfig (needs tls).
   */
  certificateUsers?: Array<{ user: string; groups?: string[]; namespace?: string }>;
  /**
   * kube-apiserver's --service-account-max-token-expiration in seconds: longer TokenRequests are shortened
   * to it, with a warning. Unset (as in kind): no cap.
   */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /**
   * Serve with an earlier run's CA and accept its admin token (what a kept data directory gives a restart),
   * so clients configured for that run keep trusting and reaching the new one; everything else starts empty.
   */
  credentialsOf?: Pick<LocalCluster, 'certificateAuthority' | 'adminToken'>;
  /**
   * Keep the cluster in this directory (SQLite, `cluster.db`): every object, the resourceVersion counter,
   * the CA, tokens and signing key, client-certificate users and the port survive a restart; each write
   * is durable before it is answered. The admin kubeconfig is written to `<dataDir>/kubeconfig`.
   * Default: memory only.
   */
  dataDir?: string;
  /** With `dataDir`: start empty, deleting what the directory held. */
  fresh?: boolean;
  /**
   * Images mapped to local builds: image reference → project folder. The kubelet runs a container with
   * such an image as a real Node.js process with in-cluster credentials (src/cluster/controllers/process-pods.ts;
   * the matching rule is in local-images.ts). Needs `pods: 'simulate'` and tls.
   */
  images?: Record<string, string>;
  /**
   * Stand in for cert-manager (src/cluster/cert-manager/): serve the cert-manager.io Issuer, ClusterIssuer
   * and Certificate CRDs, issue Certificates from selfSigned and ca issuers into their Secrets, and inject
   * CAs into webhook configurations and CRDs annotated `cert-manager.io/inject-ca-from` (default false).
   */
  certManager?: boolean;
}

/** Something that must be quiet before settle() returns (built-in controllers register one). */
export interface IdleCheck {
  idle(): boolean;
}

/** Internals for the built-in controllers: they write through the same operations clients use. */
export interface ClusterInternals {
  store: ObjectStore;
  operations: ObjectOperations;
  catalog: ResourceCatalog;
  clock: ClusterClock;
  random: SeededRandom;
  watches: WatchHub;
  options: LocalClusterOptions;
  addIdleCheck(check: IdleCheck): () => void;
  /** Runs `fn` when the cluster stops. */
  onStop(fn: () => void | Promise<void>): void;
  /** Admission webhooks for the built-in controllers' writes (the same step HTTP writes take). */
  admission?: ControllerAdmission;
  /** Appends an entry to the request log (built-in controllers log their writes under their identity). */
  recordRequest?(entry: RequestLogEntry): void;
  /** The cluster CA (absent with tls: false): the CSR signer signs with it. */
  certificateAuthority?: CertificateAuthority;
  /** Signs service-account tokens (the token controller writes legacy ones into Secrets). */
  serviceAccountTokenIssuer?: ServiceAccountTokenIssuer;
  /** `https://127.0.0.1:<port>`: where processes run by the kubelet reach the API server. */
  apiServerUrl?: string;
  /** The images mapped to local builds (`images`), checked at start. */
  localImages?: LocalImages;
  /** With images: this cluster's block of pod addresses, claimed at start and given back at stop. */
  podNetwork?: PodNetworkClaim;
}

export interface LocalCluster {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** Kubeconfig of the admin (`kubeforge-admin`, group `system:masters`). */
  kubeconfigPath: string;
  /** PEM of the cluster CA (empty with tls: false). */
  caCertPem: string;
  /** The cluster CA (absent with tls: false). */
  certificateAuthority?: CertificateAuthority;
  adminToken: string;
  /** Writes a kubeconfig for a user with the given groups (a fresh token); returns the path. */
  writeKubeconfig(path: string, identity: { user: string; groups?: string[]; namespace?: string }): string;
  /** A client certificate signed by the cluster's CA: CN = user, O = each group (Kubernetes' x509 authentication). */
  issueClientCertificate(user: string, groups?: string[]): Promise<{ certPem: string; keyPem: string }>;
  /** Writes a kubeconfig authenticating `user` in `groups` by a fresh client certificate; returns the path. */
  writeCertificateKubeconfig(path: string, identity: { user: string; groups?: string[]; namespace?: string }): Promise<string>;
  clock: ClusterClock;
  /** Resolves once no request is in flight, no timer is due and every controller queue is empty. */
  settle(): Promise<void>;
  /**
   * Bytes read from and written to the open connection whose client end is local `port` (TLS: plaintext),
   * undefined when none is open: with the client's own counts, tells whether data is still in the socket.
   */
  connectionBytes(port: number): { read: number; written: number } | undefined;
  /** The newest requests (up to `requestLogSize`), oldest first. */
  requestLog(): RequestLogEntry[];
  /** For one identity: what it did, which granted RBAC rules it never used, and what it was refused. */
  leastPrivilegeReport(identity: { user: string; groups?: string[] }): LeastPrivilegeReport;
  /** Answers matching requests with an error status; returns a function removing the fault. */
  injectFault(fault: FaultSpec): () => void;
  /** Ends every open watch stream cleanly (clients then resume from their last resourceVersion). */
  closeWatches(): void;
  /** Drops the watch history: older resourceVersions now get 410 Expired. */
  compactHistory(): void;
  /**
   * Rewrites every object of the CRD in its current storage version (through its conversion webhook)
   * and trims `status.storedVersions` to that version, as kube-storage-version-migrator does.
   */
  migrateStorage(crdName: string): Promise<StorageMigrationResult>;
  /** The store and operations, for built-in controllers and white-box tests. */
  internals: ClusterInternals;
  stop(): Promise<void>;
}

export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  // a bad image mapping fails before anything starts
  const localImages = options.images && Object.keys(options.images).length ? new LocalImages(options.images) : undefined;
  if (localImages && options.tls === false) throw new Error('images: processes get in-cluster credentials over TLS; start the cluster with tls on');
  if (localImages && options.pods === 'inert') throw new Error('images: pods are inert, so no kubelet runs them; start the cluster with pods: "simulate"');
  const clock: ClusterClock = options.clock === 'real' ? new RealClusterClock() : new VirtualClock(options.now ?? Math.floor(Date.now() / 1000) * 1000);
  const seed = options.seed ?? 1;
  const dataDirectory = options.dataDir ? new ClusterDataDirectory(options.dataDir, { fresh: options.fresh ?? false }) : undefined;
  const restored = dataDirectory?.restored;
  // a restarted cluster draws other uids and generated names than the run that wrote its objects
  const random = new SeededRandom(restored ? seed + restored.resourceVersion : seed);
  const store = new ObjectStore({ initialResourceVersion: 1000 + (seed % 1000), historyLimit: options.watchHistory ?? 10_000, ...(dataDirectory ? { persistence: dataDirectory.data } : {}) });
  if (restored) store.restore(restored);
  const specificKinds = [...coreKinds, coreEvents, ...batchKinds, newEvents, ...otherKinds, ...admissionKinds, ...reviewKinds, ...hpaKinds, ...csrKinds, ...serviceKinds, ...workloadKinds, ...storageKinds(store), ...replicaKinds, limitRanges, resourceQuotas, ...admissionPolicyKinds, bindings];
  const catalog = new ResourceCatalog(composeBuiltinKinds(specificKinds, genericKinds()));
  const operations = new ObjectOperations(store, clock, random);
  const authorize = (options.authz ?? 'rbac') === 'rbac' ? (user: UserInfo, info: RequestInfo) => isAllowed(store, user, info) : () => true;
  // the API server's request history (made below) learns of the grants admission checks relied on
  let noteAuthorizationUse: ((user: UserInfo, info: RequestInfo) => void) | undefined;
  const admissionRandom = new SeededRandom(seed + 1);
  operations.admission = new AdmissionChain(
    { store, catalog, clock, authorize, random: admissionRandom, noteAuthorizationUse: (user, info) => noteAuthorizationUse?.(user, info) },
    { disabled: options.disabledAdmissionPlugins ?? [], enabled: options.enabledAdmissionPlugins ?? [] },
  );
  const watches = new WatchHub(store, operations, () => clock.now());
  const admission = new WebhookAdmission(store);
  const handler = new ResourceHandler(catalog, store, operations, watches, () => clock.now(), admission);
  const readFreshness = new FreshnessWaiter(store, clock);
  handler.freshness = readFreshness;
  if (options.conversionWebhookTimeoutSeconds !== undefined) handler.converting.timeoutMs = options.conversionWebhookTimeoutSeconds * 1000;
  watches.freshness = new FreshnessWaiter(store, clock);
  const lookup = (bucket: string, namespace: string | undefined, name: string) => store.peek(bucket, namespace, name);
  // a legacy Secret-based token in use: the server labels its Secret with the day (markLegacyTokenUsed)
  let legacyTokenUsed: (secret: Readonly<KubeObject>) => void = () => {};
  const keptCredentials = dataDirectory?.credentials() ?? (options.credentialsOf ? { adminToken: options.credentialsOf.adminToken } : undefined);
  const auth = new TokenAuthenticator({ lookup, now: () => clock.now(), legacyTokenUsed: (secret) => legacyTokenUsed(secret) }, keptCredentials);
  dataDirectory?.keepCredentials(auth);
  const faults = new FaultInjector();
  const idleChecks = new Set<IdleCheck>();
  const stopHooks: Array<() => void | Promise<void>> = [];
  const controllerAdmission = new ControllerAdmission(admission, operations);
  const internals: ClusterInternals = {
    store, operations, catalog, clock, random, watches, options, admission: controllerAdmission,
    addIdleCheck: (c) => {
      idleChecks.add(c);
      return () => idleChecks.delete(c);
    },
    onStop: (fn) => void stopHooks.push(fn),
  };
  installCustomResourceSupport(internals);
  installReviewApis(handler, store, auth);
  installTokenRequest(handler, auth, { lookup, now: () => clock.now(), ...(options.serviceAccountMaxTokenExpirationSeconds ? { maxTokenExpirationSeconds: options.serviceAccountMaxTokenExpirationSeconds } : {}) });
  installPodEviction(handler, catalog, store, operations, () => clock.now());
  installCertificateApis(handler, operations, () => clock.now());
  installComponentStatuses(handler);
  installPodSubresources(handler, { catalog, store, operations, now: () => clock.now(), logs: () => containerLogsOf(internals) });
  if ((options.authz ?? 'rbac') === 'rbac') handler.rbacWriteGuard = (user, rt, object, old) => checkRbacEscalation(store, user, rt, object, old);
  if (!restored) {
    // what the writes depend on besides the store and the random sequences (a real clock's start never repeats)
    const bootstrapInputs = dataDirectory || options.clock === 'real' ? undefined : JSON.stringify([clock.now(), options.authz ?? 'rbac', options.disabledAdmissionPlugins ?? [], options.enabledAdmissionPlugins ?? []]);
    bootstrapOnce(bootstrapInputs, store, [random, admissionRandom], () => {
      bootstrapObjects(catalog, operations);
      // kind's default StorageClass, installed with the cluster as kind's storage manifest does
      operations.create(catalog.find('storage.k8s.io', 'v1', 'storageclasses')!, undefined, standardStorageClass(), { fieldManager: 'kubectl-client-side-apply' });
    });
  }
  const tlsOn = options.tls !== false;
  const certs = tlsOn ? await generateServingCertificates(new Date(), (await dataDirectory?.certificateAuthority()) ?? options.credentialsOf?.certificateAuthority) : undefined;
  if (certs) dataDirectory?.keepCertificateAuthority(certs.authority);
  const server = new ApiServer({
    catalog,
    handler,
    openapi: new OpenAPIDocuments(catalog),
    watches,
    auth,
    faults,
    authorize: createAuthorizer(options.authz ?? 'rbac', store),
    store,
    parkedRequests: () => readFreshness.waiting,
    ...(options.requestLogSize !== undefined ? { requestLogSize: options.requestLogSize } : {}),
    clock,
    ...(options.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: options.requestTimeoutSeconds } : {}),
    ...(options.readHeaderTimeoutSeconds !== undefined ? { readHeaderTimeoutSeconds: options.readHeaderTimeoutSeconds } : {}),
    ...(tlsOn ? {} : { anonymous: { username: 'kubeforge-admin', groups: ['system:masters', 'system:authenticated'] } }),
    ...(certs ? { tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, clientCa: certs.caCertPem } } : {}),
  });
  noteAuthorizationUse = (user, info) => server.history.noteAuthorizationUse(user.username, info);
  internals.recordRequest = (entry) => {
    const warnings = controllerAdmission.takeWarnings();
    if (warnings.length) entry.warnings = [...(entry.warnings ?? []), ...warnings];
    server.history.add(entry);
  };
  const port = await listenOn(server, options.port, dataDirectory?.port());
  dataDirectory?.keepPort(port);
  const url = `${tlsOn ? 'https' : 'http'}://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-cluster-'));
  const kubeconfigPath = dataDirectory?.kubeconfigPath ?? join(dir, 'kubeconfig');
  const issueClientCertificate = async (user: string, groups: string[] = []): Promise<{ certPem: string; keyPem: string }> => {
    if (!certs) throw new Error('issueClientCertificate: the cluster serves plain HTTP (tls: false), so it has no CA to sign client certificates');
    return issueClientCertificateFrom(certs.authority, user, groups, { now: new Date() });
  };
  const certificateUsers = await certificateUsersOf(options.certificateUsers ?? [], dataDirectory?.certificateUsers() ?? [], issueClientCertificate);
  dataDirectory?.keepCertificateUsers(certificateUsers);
  writeKubeconfigFile(kubeconfigPath, kubeconfigText(url, certs?.caCertPem, { user: 'kubeforge-admin', token: auth.adminToken }, certificateUsers));

  if (certs) internals.certificateAuthority = certs.authority;
  internals.serviceAccountTokenIssuer = auth.serviceAccountIssuer;
  internals.apiServerUrl = url;
  if (localImages) {
    internals.localImages = localImages;
    internals.podNetwork = await claimPodNetwork();
  }
  startBuiltinControllers(internals, certs?.caCertPem);
  const apiserverClient = new ControllerClient(internals, controllerIdentities.apiserver);
  legacyTokenUsed = (secret) => markLegacyTokenUsed(apiserverClient, secret, clock.now());
  // controllers, indexes and the CRD controller learn what a restarted cluster holds, as after a list
  if (restored) store.announceExisting();
  const isIdle = (): boolean => !server.busy && !clock.hasDueTimers() && [...idleChecks].every((c) => c.idle());
  const settle = async (): Promise<void> => {
    for (let round = 0; round < 10_000; round++) {
      await new Promise((r) => setImmediate(r));
      const webhooks = controllerAdmission.pending();
      if (webhooks) await webhooks;
      if (clock instanceof VirtualClock) clock.drainDue();
      if (isIdle()) {
        await new Promise((r) => setImmediate(r));
        if (isIdle()) return;
      }
    }
    throw new Error('settle(): the cluster did not become quiet after 10000 rounds (a controller keeps producing work)');
  };
  clock.setSettleHook(settle);
  let stopped = false;

  return {
    url,
    kubeconfigPath,
    caCertPem: certs?.caCertPem ?? '',
    ...(certs ? { certificateAuthority: certs.authority } : {}),
    adminToken: auth.adminToken,
    writeKubeconfig(path, identity) {
      const token = auth.issue({ username: identity.user, groups: identity.groups ?? [] });
      writeKubeconfigFile(path, kubeconfigText(url, certs?.caCertPem, { user: identity.user, token, ...(identity.namespace ? { namespace: identity.namespace } : {}) }));
      return path;
    },
    issueClientCertificate,
    migrateStorage: (crdName) => migrateStorage({ store, operations, catalog, converting: handler.converting }, crdName),
    async writeCertificateKubeconfig(path, identity) {
      const clientCertificate = await issueClientCertificate(identity.user, identity.groups ?? []);
      writeKubeconfigFile(path, kubeconfigText(url, certs?.caCertPem, { user: identity.user, clientCertificate, ...(identity.namespace ? { namespace: identity.namespace } : {}) }));
      return path;
    },
    clock,
    settle,
    connectionBytes: (port) => server.connectionBytes(port),
    requestLog: () => server.history.entries().map((e) => ({ ...e })),
    leastPrivilegeReport: (identity) =>
      leastPrivilegeReport(store, server.history.activitiesOf(identity.user), { username: identity.user, groups: [...(identity.groups ?? []), 'system:authenticated'] }),
    injectFault: (f) => faults.add(f),
    compactHistory: () => store.compactHistory(),
    closeWatches: () => watches.closeAll(),
    internals,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const hook of stopHooks) await hook();
      clock.setSettleHook(undefined);
      clock.dispose();
      await server.close();
      dataDirectory?.close();
      internals.podNetwork?.release();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on the asked port; else on the one a data directory remembers (any free port if it is taken). */
async function listenOn(server: ApiServer, asked: number | undefined, remembered: number | undefined): Promise<number> {
  if (asked || !remembered) return server.listen(asked ?? 0);
  try {
    return await server.listen(remembered);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    return server.listen(0);
  }
}

/**
 * Client-certificate users: those asked for now, reusing a kept certificate for the same user and groups
 * (an old kubeconfig's certificate stays valid anyway: the CA is kept), plus the kept ones not asked for.
 */
async function certificateUsersOf(
  asked: Array<{ user: string; groups?: string[]; namespace?: string }>,
  kept: CertificateUser[],
  issue: (user: string, groups: string[]) => Promise<{ certPem: string; keyPem: string }>,
): Promise<CertificateUser[]> {
  const sameGroups = (a: string[], b: string[]): boolean => a.length === b.length && a.every((g, i) => g === b[i]);
  const users = await Promise.all(
    asked.map(async (u) => {
      const groups = u.groups ?? [];
      const found = kept.find((k) => k.user === u.user && sameGroups(k.groups, groups));
      return { user: u.user, groups, clientCertificate: found?.clientCertificate ?? (await issue(u.user, groups)), ...(u.namespace ? { namespace: u.namespace } : {}) };
    }),
  );
  return [...users, ...kept.filter((k) => !users.some((u) => u.user === k.user))];
}
