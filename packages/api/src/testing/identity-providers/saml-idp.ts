import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { freePort } from '../../cluster/free-port.ts';

/*
 * A small SAML 2.0 identity provider for tests, signing with a test key (openssl makes the key and a
 * self-signed certificate). Plain Node (no Bun API), so Playwright's specs run it too.
 *
 * `samlResponse` builds a signed (or unsigned) Response for a request id; `startSamlIdp` serves it over
 * HTTP as a real IdP does: `GET /sso?SAMLRequest=…&RelayState=…` (HTTP-Redirect binding) answers an
 * HTML sign-in page; posting it answers a page whose form posts the signed SAMLResponse to the ACS the
 * request named, submitted by script as soon as it loads (HTTP-POST binding).
 */

export type SigningKey = { key: string; cert: string };

/** A fresh RSA key and self-signed certificate, good for two days. */
export function makeSigningKey(): SigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=test-idp',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sign(xml: string, element: 'Assertion' | 'Response', signing: SigningKey): string {
  const sig = new SignedXml({
    privateKey: signing.key,
    publicCert: signing.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const path = element === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: path,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

const escapeXml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A SAML Response to `requestId` naming `email`, base64 as posted; response and assertion signed. */
export function samlResponse(o: {
  signing: SigningKey;
  issuer: string;
  requestId: string;
  acs: string;
  audience: string;
  email: string;
  signed?: boolean;
}): string {
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  const id = () => `_${randomUUID().replaceAll('-', '')}`;
  const [issuer, acs, audience, email, requestId] = [o.issuer, o.acs, o.audience, o.email, o.requestId].map(escapeXml);
  let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${acs}" InResponseTo="${requestId}"><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${requestId}" NotOnOrAfter="${at(300_000)}" Recipient="${acs}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion></samlp:Response>`;
  if (o.signed !== false) xml = sign(sign(xml, 'Assertion', o.signing), 'Response', o.signing);
  return Buffer.from(xml).toString('base64');
}

/** What an HTTP-Redirect AuthnRequest asks: its id, the ACS to post to and our entity id (the audience). */
export function readAuthnRequest(samlRequest: string): { id: string; acs: string; spEntityId: string } {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
  const spEntityId = /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
  return { id: attr('ID'), acs: attr('AssertionConsumerServiceURL'), spEntityId };
}

export type SamlIdp = {
  /** The IdP's entity id (its Issuer) and its sign-in URL, for the provider's configuration. */
  entityId: string;
  ssoUrl: string;
  cert: string;
  stop(): Promise<void>;
};

const escapeHtml = escapeXml;

/** Answers a page of `text/html` with the IdP's frame. */
function html(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body>${body}</body></html>`,
  );
}

/** `GET /sso`: the sign-in form for the SP's AuthnRequest (its RelayState kept). */
function signInPage(res: ServerResponse, url: URL) {
  const samlRequest = url.searchParams.get('SAMLRequest') ?? '';
  const relayState = url.searchParams.get('RelayState') ?? '';
  let request: ReturnType<typeof readAuthnRequest>;
  try {
    request = readAuthnRequest(samlRequest);
  } catch {
    return html(res, 400, '<h1>Not a SAML request</h1>');
  }
  if (!request.id || !request.acs) return html(res, 400, '<h1>Not a SAML request</h1>');
  return html(
    res,
    200,
    `<main><h1>Test IdP sign-in</h1><form method="post" action="/sso/login">
<input type="hidden" name="SAMLRequest" value="${escapeHtml(samlRequest)}">
<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">
<label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit">Sign in at the IdP</button></form></main>`,
  );
}

/** `POST /sso/login`: a signed response for the email typed, auto-posted to the SP's ACS. */
async function signedIn(req: IncomingMessage, res: ServerResponse, idp: { signing: SigningKey; entityId: string }) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const request = readAuthnRequest(form.get('SAMLRequest') ?? '');
  const SAMLResponse = samlResponse({
    signing: idp.signing,
    issuer: idp.entityId,
    requestId: request.id,
    acs: request.acs,
    audience: request.spEntityId,
    email: form.get('email') ?? '',
  });
  const relay = form.get('RelayState')
    ? `<input type="hidden" name="RelayState" value="${escapeHtml(form.get('RelayState') ?? '')}">`
    : '';
  return html(
    res,
    200,
    `<form method="post" action="${escapeHtml(request.acs)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(SAMLResponse)}">${relay}
<noscript><button type="submit">Continue</button></noscript></form>
<script>document.forms[0].submit()</script>`,
  );
}

/**
 * Starts the test IdP on a free port on the loopback interface, named `host` in its URLs (`localhost`
 * by default: another site than an app on 127.0.0.1, so its POST to the ACS is cross-site as with a
 * real IdP). Anyone who types an email signs in as that email; the password is not checked.
 */
export async function startSamlIdp(options: { host?: string; signing?: SigningKey } = {}): Promise<SamlIdp> {
  const signing = options.signing ?? makeSigningKey();
  const port = await freePort();
  const origin = `http://${options.host ?? 'localhost'}:${port}`;
  const entityId = `${origin}/idp`;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === '/sso') return signInPage(res, url);
    if (req.method === 'POST' && url.pathname === '/sso/login') return signedIn(req, res, { signing, entityId });
    return html(res, 404, '<h1>Not found</h1>');
  };
  const servers: Server[] = [];
  // Both loopback addresses, as `localhost` may resolve to either.
  for (const address of ['127.0.0.1', '::1']) {
    const server = createServer((req, res) => {
      handle(req, res).catch((error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, address, () => resolve(true));
    });
    if (listening) servers.push(server);
  }
  if (servers.length === 0) throw new Error(`the test SAML IdP could not listen on port ${port}`);
  return {
    entityId,
    ssoUrl: `${origin}/sso`,
    cert: signing.cert,
    stop: () =>
      Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => undefined),
  };
}
