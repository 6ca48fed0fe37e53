import { usePatientLocale } from './i18n/index.ts';
import { NotFound } from './pages/NotFound.tsx';
import { OrderPage } from './pages/OrderPage.tsx';
import { OrdersPage } from './pages/OrdersPage.tsx';
import { SignUpPage } from './pages/SignUpPage.tsx';
import { routeOf, useLocation } from './router.ts';

/** The page for each route of router.ts: one line per page. */
export function App() {
  const { path } = useLocation();
  // A change of language renders every screen again in the new one.
  usePatientLocale();
  const route = routeOf(path);
  switch (route.name) {
    case 'orders':
      return <OrdersPage />;
    case 'order':
      // Keyed by order: another order's page starts afresh (its own identity check).
      return <OrderPage key={route.orderId} orderId={route.orderId} />;
    case 'signUp':
      return <SignUpPage key={route.businessId} businessId={route.businessId} />;
    default:
      return <NotFound />;
  }
}
