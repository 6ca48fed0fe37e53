export {
  type Account,
  findUserByEmail,
  findUserById,
  insertUser,
  normaliseEmail,
  rolesOfUser,
  toUser,
} from './repository.ts';
export { getUser, getUsersByRole, updateUser } from './service.ts';
