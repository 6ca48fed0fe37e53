export { tokenSealer } from './credentials.ts';
export { checkAccessToken, type IssuedCredentials, issueCredentials } from './repository.ts';
export { activateDeviceAuth, exchangeToken, startDeviceAuth, TokenRefusal, type TokenRequest } from './service.ts';
