/**
 * The support console is a browser app, built by build.ts from index.html and src/main.tsx. This
 * entry exists for the workspace's package exports: other packages import nothing from the console
 * but the route list, which documents its URLs.
 */
export { consolePaths } from './paths.ts';
