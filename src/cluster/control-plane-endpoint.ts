/**
 * Where the simulated control plane lives on kind's node network, in one place: the API server's
 * advertise address (the control-plane node's InternalIP, which the `kubernetes` Service's Endpoints and
 * EndpointSlice point at) and its secure port. kind gives the first node of the `kind` docker network
 * 172.18.0.2, so the address is the control-plane node's own (cluster-nodes.ts).
 */
import { nodeInternalIP } from './controllers/cluster-nodes.js';

/** The API server's advertise address: the control-plane node's InternalIP (the first node's). */
export const apiServerAdvertiseAddress = nodeInternalIP(0);

/** The port kube-apiserver serves on inside the node (the `kubernetes` Service's targetPort). */
export const apiServerSecurePort = 6443;
