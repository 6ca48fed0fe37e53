import { useAtomValue } from 'jotai';
import { currentUserAtom, productNameAtom, sessionAtom } from '../state/session.ts';
import { Banner } from '../ui/Banner.tsx';
import { Link } from '../ui/Link.tsx';
import { Page } from '../ui/Page.tsx';

const areas = [
  { href: '/businesses', title: 'Businesses', text: 'Pharmacies: their details, machines, settings, users and stats.' },
  { href: '/groups', title: 'Groups', text: 'Groups of businesses, their linked businesses and administrators.' },
  { href: '/users', title: 'Support Users', text: 'Who can use this console; add people and manage their roles.' },
  {
    href: '/alarmMessageTemplates',
    title: 'Alarm Message Templates',
    text: 'The wording sent to pharmacies when a machine raises an alarm.',
  },
  {
    href: '/globalSettings',
    title: 'Global Settings',
    text: 'Settings for every business, such as the NHS prescription charge.',
  },
] as const;

/** `/`: the way into each area of the console. */
export function Dashboard() {
  const user = useAtomValue(currentUserAtom);
  const product = useAtomValue(productNameAtom);
  const session = useAtomValue(sessionAtom);
  const loginMessage = session.status === 'active' ? session.session.loginMessage : undefined;
  return (
    <Page
      title="Dashboard"
      lead={`Welcome${user?.givenName ? `, ${user.givenName}` : ''}. This is the ${product} support console.`}
    >
      {loginMessage && <Banner tone="info">{loginMessage}</Banner>}
      <ul className="area-cards">
        {areas.map((area) => (
          <li key={area.href} className="area-card">
            <h2 className="area-card__title">
              <Link href={area.href}>{area.title}</Link>
            </h2>
            <p className="area-card__text">{area.text}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
