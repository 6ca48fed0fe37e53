export { createShortUrl, shortUrlOf } from './service.ts';
