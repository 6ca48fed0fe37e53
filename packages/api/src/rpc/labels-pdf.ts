import { AppError, contract, fieldErrorsOf } from '@medlocker/core';
import { type } from 'arktype';
import { Elysia } from 'elysia';
import { callerOf, checkCaller, enforceScope } from '../access/enforce.ts';
import { getLabelsPdf } from '../areas/orders/index.ts';
import type { StaffActor } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { requestMeta } from '../http/request-meta.ts';
import { actorOf } from './actor-of.ts';

const method = contract.orders.getLabels;

/**
 * `GET /api/orders/labels.pdf?ids=a,b` (or `ids=a&ids=b`): the bag labels of `orders.getLabels` as
 * one PDF, a page per label, for label printers driven outside the browser and the CLI's `orders
 * labels`. The same session (cookie or bearer), access, input checks and audit as the RPC method.
 */
export const labelsPdfRoute = (deps: AppDeps) =>
  new Elysia({ name: 'orders:labels.pdf' }).get('/api/orders/labels.pdf', async ({ request, server }) => {
    const meta = requestMeta(request, server, deps.config.trustProxy);
    const principal = await deps.auth.principalOf(request, { ip: meta.ip, now: deps.now() });
    const caller = callerOf(principal);
    checkCaller(method.access, caller);
    const ids = new URL(request.url).searchParams
      .getAll('ids')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
    const input = method.input({ ids });
    if (input instanceof type.errors) throw new AppError('VALIDATION', input.summary, fieldErrorsOf(input));
    await enforceScope(deps.db, method.access, caller, input);
    const pdf = await getLabelsPdf(deps, actorOf(principal, request, meta) as StaffActor, input);
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${ids.length === 1 ? 'bag-label' : 'bag-labels'}.pdf"`,
        'cache-control': 'no-store',
      },
    });
  });
