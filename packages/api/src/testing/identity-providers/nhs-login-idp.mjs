// A local OpenID provider set up as NHS login is (npm oidc-provider v9), for the tests, under Node:
// `node nhs-login-idp.mjs <port> <clientJson>`. private_key_jwt client authentication only (RS512), ID
// tokens signed RS512, PKCE, the `vtr` request parameter, and `vot` in the ID token; `nhs_number` and
// `birthdate` (scope `profile`) from userinfo, as NHS login gives them.
// Accounts: any login, written `<nhs number>/<birth date>/<vot>`, e.g. `9434765919/1990-05-17/P9.Cp.Cd`.
// `GET /test/last-vtr` answers the `vtr` of the last authorization request.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import * as jose from 'jose';
import Provider from 'oidc-provider';

const port = Number(process.argv[2]);
const client = JSON.parse(process.argv[3]);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'nhs-test-key', use: 'sig', alg: 'RS512' };
let lastVtr = null;

const parts = (login) => {
  const [nhsNumber = '', birthdate = '', vot = 'P0.Cp'] = String(login).split('/');
  return { nhsNumber, birthdate, vot };
};

const provider = new Provider(issuer, {
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
  async findAccount(_ctx, id) {
    const { nhsNumber, birthdate } = parts(id);
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          nhs_number: nhsNumber || undefined,
          birthdate: birthdate || undefined,
          family_name: 'Patient',
        };
      },
    };
  },
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid profile');
    await grant.save();
    return grant;
  },
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
    const key = await jose.importJWK(jwk, 'RS512');
    const id_token = await new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS512', kid: jwk.kid }).sign(key);
    ctx.body = { ...ctx.body, id_token };
  }
});

const callback = provider.callback();
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/test/last-vtr') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ vtr: lastVtr }));
    return;
  }
  callback(req, res);
}).listen(port, '127.0.0.1', () => console.log(`listening ${issuer}`));
