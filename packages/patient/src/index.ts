/**
 * The patient page is a browser app, built by build.ts from index.html and src/main.tsx and served by
 * the api under /p (packages/api/src/http/patient-static.ts). This entry exists for the workspace's
 * package exports: other packages import nothing from it but the route matcher, which documents its URLs.
 */
export { type Route, routeOf } from './router.ts';
