import { addWhatsAppOptIn, removeWhatsAppOptIn, verifyWhatsAppOptInMessage } from '../../areas/patients/index.ts';
import { getUser, getUsersByRole, updateUser } from '../../areas/users/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

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
