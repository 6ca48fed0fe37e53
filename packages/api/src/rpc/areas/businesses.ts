import { Elysia } from 'elysia';
import {
  archiveBusiness,
  createBusiness,
  deleteLogo,
  getBusiness,
  getBusinessInfo,
  linkGroup,
  listAccessibleBusinesses,
  listBusinesses,
  listBusinessesInfo,
  listGroupedBusinesses,
  listUngroupedBusinesses,
  unarchiveBusiness,
  unlinkGroup,
  updateBusiness,
  updateLogo,
  uploadLogo,
} from '../../areas/businesses/index.ts';
import type { AppDeps } from '../../deps.ts';
import { logoFiles } from '../../http/logos.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/businesses/*`, and the logos it stores, read-only at `GET /files/logos/<name>`. */
export const businessesRoutes = (deps: AppDeps) =>
  new Elysia({ name: 'area:businesses+logos' })
    .use(
      rpcArea(deps, 'businesses', {
        listBusinesses,
        listBusinessesInfo,
        listGroupedBusinesses,
        listUngroupedBusinesses,
        listAccessibleBusinesses,
        createBusiness,
        updateBusiness,
        getBusiness,
        getBusinessInfo,
        archiveBusiness,
        unarchiveBusiness,
        linkGroup,
        unlinkGroup,
        uploadLogo,
        updateLogo,
        deleteLogo,
      }),
    )
    .use(logoFiles(deps));
