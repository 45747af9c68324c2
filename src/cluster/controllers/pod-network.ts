/**
 * The network of pods run as real processes. Each such pod gets its own loopback address as its pod
 * IP — `127.244.<node>.<n>`, mirroring kind's pod CIDR 10.244.<node>.0/24 (Linux routes all of
 * 127.0.0.0/8 to `lo` with no setup) — so two replicas listening on the same container port do not
 * clash, and a Service or a probe reaches each at `<pod IP>:<containerPort>` as in a cluster.
 * Several clusters on one machine (parallel test files, two projects) each claim a second octet of their
 * own — 244 first, then 245 … 254, then 200 … 243 — by holding a listening socket on
 * `127.<octet>.255.254:10250` (no node index reaches 255): the OS gives it back when the process ends,
 * even on kill -9, so a crashed cluster never leaves its block taken.
 *
 * A process in a real pod that listens on every interface (`:8081`, `0.0.0.0`, `::`) or on its
 * loopback is reachable only inside its network namespace. Here that is done by a small module
 * every Node.js process of the pod loads first (`NODE_OPTIONS=--import`): it makes such listens
 * bind the pod IP instead. Nothing in the program has to change, and listens on another address
 * are left alone. The same module gives the process the pod's host name (`os.hostname()` is the pod
 * name in a pod's UTS namespace; pino logs it).
 */

import { createServer, type Server } from 'node:net';

/** The second octets a cluster's pod network may take, in the order they are tried. */
const podNetworkOctets = [...Array.from({ length: 11 }, (_, i) => 244 + i), ...Array.from({ length: 44 }, (_, i) => 200 + i)];
const claimPort = 10250;

/** A cluster's pod network block `127.<octet>.0.0/16`, held while `release` is not called. */
export interface PodNetworkClaim {
  octet: number;
  release(): void;
}

/** Claims the first free block: one listening socket per cluster marks it taken on this machine. */
export async function claimPodNetwork(): Promise<PodNetworkClaim> {
  for (const octet of podNetworkOctets) {
    const server: Server = createServer();
    const claimed = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen({ host: `127.${octet}.255.254`, port: claimPort, exclusive: true }, () => resolve(true));
    });
    if (claimed) {
      server.unref();
      return { octet, release: () => server.close() };
    }
  }
  throw new Error(`no free pod network: 127.{${podNetworkOctets[0]}…}.0.0/16 are all held by other local clusters on this machine`);
}

/** Hosts of a node's block handed out in order, as host-local IPAM does from .2. */
export function podLoopbackAddress(octet: number, nodeIndex: number, host: number): string {
  return `127.${octet}.${nodeIndex}.${host}`;
}

/** Whether `ip` is a process pod's address (or any loopback address but 127.0.0.1, which is the host's). */
export function isProcessPodAddress(ip: string | undefined): boolean {
  return ip !== undefined && ip.startsWith('127.') && ip !== '127.0.0.1';
}

/**
 * The module loaded into a pod's Node.js processes; it reads the pod IP from KUBEFORGE_POD_IP, the host name
 * from HOSTNAME, and the kubelet's link from KUBEFORGE_KUBELET_FD.
 */
export const podNetworkModule = `// kubeforge: binds listens on every interface or on loopback to this pod's IP (the pod's network
// namespace), and answers os.hostname() with the pod's host name (its UTS namespace)
import net from 'node:net';
import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
const hostname = process.env.HOSTNAME;
if (hostname) {
  os.hostname = () => hostname;
  syncBuiltinESMExports();
}
// The kubelet's link (fd 3): when the process that runs the cluster is gone, so is this container.
const kubeletFd = Number(process.env.KUBEFORGE_KUBELET_FD);
delete process.env.KUBEFORGE_KUBELET_FD;
if (Number.isInteger(kubeletFd) && kubeletFd > 2) {
  try {
    const link = new net.Socket({ fd: kubeletFd, readable: true, writable: false });
    link.on('error', () => {});
    link.on('close', () => process.kill(process.pid, 'SIGKILL'));
    link.resume();
    link.unref();
  } catch {
    // not a pipe (started by hand with the variable set): nothing to watch
  }
}
const podIP = process.env.KUBEFORGE_POD_IP;
const inPod = new Set([undefined, null, '', '0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);
const listen = net.Server.prototype.listen;
if (podIP) {
  net.Server.prototype.listen = function (...args) {
    const first = args[0];
    if (first !== null && typeof first === 'object' && !Array.isArray(first) && ('port' in first) && !('path' in first) && !('fd' in first) && !('handle' in first) && !('_handle' in first)) {
      if (inPod.has(first.host)) args[0] = { ...first, host: podIP, ipv6Only: false };
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\\d+$/.test(first))) {
      if (typeof args[1] === 'string') {
        if (inPod.has(args[1])) args[1] = podIP;
      } else if (args[1] === undefined || args[1] === null) args[1] = podIP;
      else args.splice(1, 0, podIP);
    } else if (first === undefined || typeof first === 'function') {
      args.unshift(0, podIP);
    }
    return listen.apply(this, args);
  };
}
`;
