// A local OpenID provider set up as NHS login is (npm oidc-provider v9), for the tests, under Node:
// `node nhs-login-idp.mjs <port> <clientJson>`. private_key_jwt client authentication only (RS512), ID
// tokens signed RS512, PKCE, the `vtr` request parameter, and `vot` in the ID token; `nhs_number` and
// `birthdate` (scope `profile`) from userinfo, as NHS login gives them.
// Accounts: any login, written `<nhs number>/<birth date>/<vot>`, e.g. `9434765919/1990-05-17/P9.Cp.Cd`.
// `GET /test/last-vtr` answers the `vtr` of the last authorization request.
import * as jose from 'jose';
import Provider from 'oidc-provider';
import { anyLogin, granted, serve, signedIdToken, signingKey } from './local-provider.mjs';

const port = Number(process.argv[2]);
const client = JSON.parse(process.argv[3]);
const jwk = signingKey('nhs-test-key', 'RS512');
let lastVtr = null;

const parts = (login) => {
  const [nhsNumber = '', birthdate = '', vot = 'P0.Cp'] = String(login).split('/');
  return { nhsNumber, birthdate, vot };
};

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'RS512',
      id_token_signed_response_alg: 'RS512',
    },
  ],
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  clientAuthMethods: ['private_key_jwt'],
  enabledJWA: { idTokenSigningAlgValues: ['RS512'], clientAuthSigningAlgValues: ['RS512'] },
  extraParams: ['vtr'],
  claims: { openid: ['sub'], profile: ['nhs_number', 'birthdate', 'family_name'] },
  conformIdTokenClaims: true,
  cookies: { keys: ['nhs-test-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  findAccount: anyLogin((id) => {
    const { nhsNumber, birthdate } = parts(id);
    return { sub: id, nhs_number: nhsNumber || undefined, birthdate: birthdate || undefined, family_name: 'Patient' };
  }),
  loadExistingGrant: granted('openid profile'),
});
provider.proxy = true;

provider.use(async (ctx, next) => {
  if (ctx.path === '/auth' && ctx.method === 'GET') lastVtr = ctx.query.vtr ?? null;
  await next();
  // NHS login's ID token carries the vector of trust the user reached (`vot`) and its trustmark (`vtm`).
  if (ctx.path === '/token' && ctx.body?.id_token) {
    const claims = jose.decodeJwt(ctx.body.id_token);
    claims.vot = parts(claims.sub).vot;
    claims.vtm = 'https://auth.sandpit.signin.nhs.uk/trustmark/auth.sandpit.signin.nhs.uk';
    ctx.body = { ...ctx.body, id_token: await signedIdToken(claims, jwk) };
  }
});

serve(provider, port, (req, res) => {
  if (req.method !== 'GET' || req.url !== '/test/last-vtr') return false;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ vtr: lastVtr }));
  return true;
});
