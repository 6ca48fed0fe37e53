export { type Account, findUserByEmail, findUserById, insertUser, normaliseEmail, toUser } from './repository.ts';
export { getUser, getUsersByRole, updateUser } from './service.ts';
