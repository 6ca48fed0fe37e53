import * as qrCodes from '../../areas/qr-codes/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/qrCodes/*`: orders from bags' signed QR codes and the business's QR signing key. */
export const qrCodesRoutes = (deps: AppDeps) => rpcArea(deps, 'qrCodes', qrCodes);
