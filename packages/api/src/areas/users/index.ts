import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { getUser, getUsersByRole, updateUser } from './service.ts';
import { addWhatsAppOptIn, removeWhatsAppOptIn, verifyWhatsAppOptInMessage } from './whatsapp.ts';

/**
 * `POST /api/users/*`: support users list, user details, names (SPEC §2 Support users, §7 users); a
 * patient's WhatsApp opt-in (`whatsapp.ts`).
 */
export const usersRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'users', {
    getUsersByRole,
    getUser,
    updateUser,
    addWhatsAppOptIn,
    verifyWhatsAppOptInMessage,
    removeWhatsAppOptIn,
  });
