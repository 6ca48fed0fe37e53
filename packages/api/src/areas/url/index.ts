export { createShortUrl, createUrl, findLiveTarget, getUrl, shortUrlOf } from './service.ts';
