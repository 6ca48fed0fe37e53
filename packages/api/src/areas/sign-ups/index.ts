export { convert } from './convert.ts';
export {
  type Db,
  deleteSignUpRow,
  findSignUpByAccessHash,
  insertSignUpRow,
  type SignUpRecord,
  toVerification,
  updateSignUpRow,
} from './repository.ts';
export {
  auditSignUp,
  checkContactCodes,
  checkForm,
  count,
  create,
  get,
  getBusinessId,
  list,
  remove,
  sendCodes,
  startSignUp,
  update,
  verifyContactMethods,
} from './service.ts';
