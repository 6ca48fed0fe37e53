import { Navigate, useLocation } from 'react-router';

/** Any other /auth path goes to the login page, keeping its query (the return path, `from`). */
export function ToLogin() {
  const { search } = useLocation();
  return <Navigate to={`/auth/login${search}`} replace />;
}
