import { IntegrationTokenRequest, IntegrationTokenResponse } from '@medlocker/core';
import type { Type } from 'arktype';
import { integrationRoutesTable } from './routes.ts';

/*
 * The OpenAPI 3.1 document of `/integration/v1`, made from the route table (routes.ts) and core's
 * arktype schemas, served at `GET /integration/v1/openapi.json`.
 */

type JsonSchema = Record<string, unknown>;

/** arktype → JSON Schema of what is sent (a morph's input side: query strings, ISO times). */
function schemaOf(t: Type): JsonSchema {
  const { $schema: _drop, ...schema } = (t.in as Type).toJsonSchema({
    fallback: (ctx: { base: JsonSchema }) => ctx.base,
  } as never) as JsonSchema;
  return schema;
}

const problem: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', description: 'urn:medlocker:problem:<code>' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    code: { type: 'string', description: 'The error code (VALIDATION, NOT_FOUND, CONFLICT, …)' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'id', 'message'],
        properties: { path: { type: 'string' }, id: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'The same key and body answer the first answer again for 24 hours; another body is 422.',
  schema: { type: 'string', maxLength: 255 },
};

/** `:id` → `{id}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

/** The token endpoint's operation. */
const tokenPath = {
  post: {
    tags: ['authentication'],
    operationId: 'token',
    summary: 'OAuth2 client credentials (RFC 6749 §4.4): a bearer token for an hour.',
    security: [{}, { basic: [] }],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: schemaOf(IntegrationTokenRequest) },
        'application/json': { schema: schemaOf(IntegrationTokenRequest) },
      },
    },
    responses: {
      '200': {
        description: 'A token',
        content: { 'application/json': { schema: schemaOf(IntegrationTokenResponse) } },
      },
      '400': problemResponse('Bad request (error: invalid_request or unsupported_grant_type)'),
      '401': problemResponse('Wrong client id or secret (error: invalid_client)'),
      '429': problemResponse('Too many token requests from this address'),
    },
  },
};

/** One resource route's operation: its path and query parameters, body, answer and problems. */
function operationOf(route: (typeof integrationRoutesTable)[number]): Record<string, unknown> {
  const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = route.query ? schemaOf(route.query) : undefined;
  const queryParams = query
    ? Object.entries((query.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
        name,
        in: 'query',
        required: ((query.required ?? []) as string[]).includes(name),
        schema,
      }))
    : [];
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    parameters: [...params, ...queryParams, ...(route.method === 'POST' ? [idempotencyKey] : [])],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } } }
      : {}),
    responses: {
      [String(route.status)]: {
        description: 'Success',
        content: { 'application/json': { schema: schemaOf(route.response) } },
      },
      '400': problemResponse('Bad input: `errors` carries each field’s validation id and message'),
      '401': problemResponse('No, unknown or expired bearer token'),
      '404': problemResponse('No such resource in this business'),
      ...(route.method === 'POST'
        ? {
            '409': problemResponse('Conflict (the order’s state, a duplicate, or the same Idempotency-Key in flight)'),
            '422': problemResponse('The Idempotency-Key was used with another body'),
          }
        : {}),
      '429': problemResponse('Over the client’s hourly rate limit: see Retry-After'),
    },
  };
}

export function buildIntegrationOpenApi(productName: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = { '/oauth/token': tokenPath };
  for (const route of integrationRoutesTable) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${productName} integration API`,
      version: '1.0.0',
      description:
        'For pharmacy patient-record systems: orders, patients, machines and the events feed of one business. See docs/INTEGRATION-API.md.',
    },
    servers: [{ url: '/integration/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: { Problem: problem },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'From POST /oauth/token' },
        basic: { type: 'http', scheme: 'basic', description: 'The client id and secret, on the token endpoint only' },
      },
    },
  };
}
