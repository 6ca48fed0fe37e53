// A real OpenID provider for the tests (npm oidc-provider v9), run under Node: `node oidc-idp.mjs <port> <clientsJson>`.
// Accounts: any login; the account's email is the login, verified unless it starts with "unverified".
// `POST /test/id-token {mode}` makes the token endpoint send a broken ID token (re-signed with the
// provider's own key): 'wrong-audience', 'expired', or null for honest ones.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import * as jose from 'jose';
import Provider from 'oidc-provider';

const port = Number(process.argv[2]);
const clients = JSON.parse(process.argv[3]);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
let mode = null;

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  conformIdTokenClaims: false,
  cookies: { keys: ['test-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email: id,
          email_verified: !id.startsWith('unverified'),
          given_name: 'Sso',
          family_name: 'User',
        };
      },
    };
  },
  async loadExistingGrant(ctx) {
    // Consent is given once asked: the tests sign in, they do not consent.
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
provider.proxy = true;

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === '/token' && mode && ctx.body?.id_token) {
    const claims = jose.decodeJwt(ctx.body.id_token);
    const now = Math.floor(Date.now() / 1000);
    if (mode === 'wrong-audience') claims.aud = 'someone-else';
    if (mode === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    const key = await jose.importJWK(jwk, 'RS256');
    ctx.body = {
      ...ctx.body,
      id_token: await new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(key),
    };
  }
});

const callback = provider.callback();
createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/test/id-token') {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      mode = JSON.parse(body).mode ?? null;
      res.end('{}');
    });
    return;
  }
  callback(req, res);
}).listen(port, '127.0.0.1', () => console.log(`listening ${issuer}`));
