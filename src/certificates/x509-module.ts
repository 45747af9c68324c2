/**
 * @peculiar/x509, required on first use (with reflect-metadata, tsyringe and the asn1 schemas it costs ~0.1
 * CPU-s per jest test file, which loads it afresh in each file's vm context), for reading and signing
 * CertificateSigningRequests only. Its own module so that no declaration a made project compiles against
 * (kubeforge/testing → the cluster → certificates) names its types: tsc would parse ~100 declaration files.
 * It is a CommonJS package (no `exports`, `main` its CJS build): the require and an `import()` of it give the
 * same module instance.
 */
import { webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';

const requireHere = createRequire(import.meta.url);
let x509Module: typeof X509 | undefined;

/** @peculiar/x509, loaded at the first call (synchronously: request validation cannot wait), with WebCrypto as its crypto provider. */
export function x509Now(): typeof X509 {
  if (x509Module === undefined) {
    requireHere('reflect-metadata');
    const x509 = requireHere('@peculiar/x509') as typeof X509;
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    x509Module = x509;
  }
  return x509Module;
}

/** @peculiar/x509, loaded once, with WebCrypto as its crypto provider (see x509Now). */
export function loadX509(): Promise<typeof X509> {
  return Promise.resolve(x509Now());
}
