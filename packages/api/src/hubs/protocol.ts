// The locker protocol, from core.
export * from '@medlocker/core';
