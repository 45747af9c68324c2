/**
 * Go-style bind addresses as kubebuilder's flags take them (`--metrics-bind-address`,
 * `--health-probe-bind-address`): ":8443" is every interface, "127.0.0.1:8080" one host, ":0" any free
 * port, and "0" means the server is off.
 */

/** Host and port of a Go-style bind address; undefined when the address disables the server ("0"). */
export function parseBindAddress(address: string | number, what = 'metrics bind address'): { host?: string; port: number } | undefined {
  if (typeof address === 'number') return checkedPort(address, String(address), what);
  if (address === '0' || address === '') return undefined;
  const colon = address.lastIndexOf(':');
  if (colon < 0) throw new Error(`${what}: expected an address such as ":8443" or "127.0.0.1:8080", got "${address}"`);
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
  const parsed = checkedPort(Number(address.slice(colon + 1)), address, what);
  return host ? { ...parsed, host } : parsed;
}

function checkedPort(port: number, text: string, what: string): { port: number } {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${what}: "${text}" has no valid port (0–65535)`);
  return { port };
}

/** The manager's servers, as a bind failure names them (the made project maps each to its flag). */
export type ServerName = 'health probe' | 'metrics' | 'webhook';

/**
 * A server could not listen: which server, on which port, and why in words ("port 8081 is already in use");
 * the manager's start() rejects with it so a command can say which flag to change, in one line.
 */
export class BindError extends Error {
  constructor(
    readonly server: ServerName,
    /** The address as configured (":8081", "127.0.0.1:8443", "9443"). */
    readonly address: string,
    readonly port: number,
    readonly code: string,
    readonly reason: string,
  ) {
    super(`${server} server: ${reason}`);
    this.name = 'BindError';
  }
}

/** A listen error as a BindError ("port 80 needs privileges…"), or the error itself when it is not about binding. */
export function bindFailure(server: ServerName, address: string | number, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const port = typeof address === 'number' ? address : (parseBindAddress(address, `${server} address`)?.port ?? 0);
  const fail = (reason: string): BindError => new BindError(server, String(address), port, code!, reason);
  if (code === 'EADDRINUSE') return fail(`port ${port} is already in use`);
  if (code === 'EACCES') return fail(`permission denied to listen on port ${port}${port < 1024 ? ' (ports below 1024 need privileges)' : ''}`);
  if (code === 'EADDRNOTAVAIL') return fail(`the host of "${address}" is not an address of this machine`);
  return err;
}
