import { Elysia } from 'elysia';
import * as businesses from '../../areas/businesses/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { logoFiles } from '../../http/logos.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/businesses/*`, and the logos it stores, read-only at `GET /files/logos/<name>`. */
export const businessesRoutes = (deps: AppDeps) =>
  new Elysia({ name: 'area:businesses+logos' }).use(rpcArea(deps, 'businesses', businesses)).use(logoFiles(deps));
