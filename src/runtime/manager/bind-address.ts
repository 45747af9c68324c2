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
