import { create, get, list, remove, test, update } from '../../areas/identity-providers/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/identityProviders/*`: the providers support staff pick from; secrets never leave. */
export const identityProvidersRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'identityProviders', {
    list,
    get: (deps, actor, input, http) => get(deps, actor, input, new URL(http.request.url).origin),
    create,
    update,
    delete: remove,
    test,
  });
