/** The issuer's signatures: its own tokens verify (also under the same key reloaded), others' do not. */
import { ServiceAccountTokenIssuer } from './service-account-issuer.js';

const claims = { namespace: 'ns', name: 'sa', uid: 'u-1', audiences: ['https://kubernetes.default.svc.cluster.local'], issuedAt: 1_700_000_000, expirationSeconds: 3600, id: 'jti-1' };

test('a token verifies under its key, reloaded from PEM too, and not under another key', () => {
  const issuer = new ServiceAccountTokenIssuer();
  const token = issuer.sign(claims);
  const verified = issuer.verify(token);
  expect(verified.kind).toBe('bound');
  expect(verified.kind === 'bound' && verified.payload.sub).toBe('system:serviceaccount:ns:sa');
  const reloaded = new ServiceAccountTokenIssuer(issuer.signingKeyPem());
  expect(reloaded.keyId).toBe(issuer.keyId);
  expect(reloaded.verify(token).kind).toBe('bound');
  expect(new ServiceAccountTokenIssuer().verify(token).kind).toBe('bad-signature');
});

test('legacy tokens carry the legacy issuer; tokens of other issuers and non-JWTs are foreign', () => {
  const issuer = new ServiceAccountTokenIssuer();
  expect(issuer.verify(issuer.signLegacy('ns', { name: 'sa', uid: 'u-1' }, 'sa-token')).kind).toBe('legacy');
  const header = Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url');
  const foreign = `${header}.${Buffer.from(JSON.stringify({ iss: 'https://accounts.example.com' })).toString('base64url')}.c2ln`;
  expect(issuer.verify(foreign).kind).toBe('foreign');
  expect(issuer.verify('kf-opaque').kind).toBe('foreign');
});
