import { contract, describeAccess, isPublic, type Method } from '@medlocker/core';
import type { Type } from 'arktype';

type JsonSchema = Record<string, unknown>;

/** arktype → JSON Schema; morphs and predicates have no JSON Schema form, so their input side is described. */
function schemaOf(t: Type): JsonSchema {
  const { $schema: _drop, ...schema } = t.toJsonSchema({
    fallback: (ctx: { base: JsonSchema }) => ctx.base,
  } as never) as JsonSchema;
  return schema;
}

const errorBody: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, id: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The OpenAPI 3.1 document of every RPC method, made from core's contract. */
export function buildOpenApi(productName: string): JsonSchema {
  const paths: Record<string, unknown> = {};
  for (const [areaName, area] of Object.entries(contract)) {
    for (const [methodName, method] of Object.entries(area as Record<string, Method>)) {
      paths[`/api/${areaName}/${methodName}`] = {
        post: {
          tags: [areaName],
          operationId: `${areaName}.${methodName}`,
          summary: method.summary,
          security: isPublic(method.access) ? [] : [{ session: [] }, { bearer: [] }],
          description: describeAccess(method.access),
          requestBody: { required: true, content: { 'application/json': { schema: schemaOf(method.input) } } },
          responses: {
            '200': { description: 'Success', content: { 'application/json': { schema: schemaOf(method.output) } } },
            '400': errorResponse('Bad input: details carry per-field validation ids and messages'),
            ...(isPublic(method.access)
              ? {}
              : { '401': errorResponse('No or expired session'), '403': errorResponse('Missing scope or resource') }),
            '415': errorResponse('Body is not application/json'),
          },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${productName} API`,
      version: '1.0.0',
      description:
        'Every call is POST /api/{area}/{method} with a JSON body. Lists page with an opaque nextToken. Errors are { error: { code, message, details? } }.',
    },
    paths,
    components: {
      schemas: { Error: errorBody },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'medlocker_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
