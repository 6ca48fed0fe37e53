// A real OpenID provider for the tests (npm oidc-provider v9), run under Node: `node oidc-idp.mjs <port> <clientsJson>`.
// Accounts: any login; the account's email is the login, verified unless it starts with "unverified".
// `POST /test/id-token {mode}` makes the token endpoint send a broken ID token (re-signed with the
// provider's own key): 'wrong-audience', 'expired', or null for honest ones.
import * as jose from 'jose';
import Provider from 'oidc-provider';
import { anyLogin, granted, serve, signedIdToken, signingKey } from './local-provider.mjs';

const port = Number(process.argv[2]);
const clients = JSON.parse(process.argv[3]);
const jwk = signingKey('test-key', 'RS256');
let mode = null;

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients,
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  conformIdTokenClaims: false,
  cookies: { keys: ['test-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  findAccount: anyLogin((id) => ({
    sub: id,
    email: id,
    email_verified: !id.startsWith('unverified'),
    given_name: 'Sso',
    family_name: 'User',
  })),
  loadExistingGrant: granted('openid email profile'),
});
provider.proxy = true;

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === '/token' && mode && ctx.body?.id_token) {
    const claims = jose.decodeJwt(ctx.body.id_token);
    const now = Math.floor(Date.now() / 1000);
    if (mode === 'wrong-audience') claims.aud = 'someone-else';
    if (mode === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    ctx.body = { ...ctx.body, id_token: await signedIdToken(claims, jwk) };
  }
});

serve(provider, port, (req, res) => {
  if (req.method !== 'POST' || req.url !== '/test/id-token') return false;
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    mode = JSON.parse(body).mode ?? null;
    res.end('{}');
  });
  return true;
});
