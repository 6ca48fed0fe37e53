export {
  type Db,
  deleteSignUpRow,
  findSignUpBusiness,
  findSignUpByAccessHash,
  insertSignUpRow,
  type SignUpRow,
  toVerification,
  updateSignUpRow,
} from './repository.ts';
export {
  checkContactCodes,
  checkForm,
  convert,
  count,
  create,
  get,
  getBusinessId,
  list,
  remove,
  sendCodes,
  update,
  verifyContactMethods,
} from './service.ts';
