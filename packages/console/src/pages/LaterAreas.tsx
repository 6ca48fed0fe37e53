import { EmptyState, Page } from '../ui/Page.tsx';

/*
 * Areas whose pages arrive in later issues. Each route renders its real title and says what the
 * page will hold, so the menu, titles and deep links already work.
 */

export function Businesses() {
  return (
    <Page title="Businesses">
      <EmptyState title="No businesses to show yet">
        <p>
          This page will list the pharmacies using the lockers, with Active and Archived tabs, search and an Add button.
          Each business will have its details, machines, settings, users, stats and patient import.
        </p>
      </EmptyState>
    </Page>
  );
}

export function Groups() {
  return (
    <Page title="Groups">
      <EmptyState title="No groups to show yet">
        <p>
          This page will list groups of businesses, with Active and Archived tabs, search and an Add button. Each group
          will have its details, linked businesses and users.
        </p>
      </EmptyState>
    </Page>
  );
}

export function AlarmMessageTemplates({ editing = false }: { editing?: boolean }) {
  return (
    <Page title={editing ? 'Edit Alarm Message Templates' : 'Alarm Message Templates'}>
      <EmptyState title="No alarm message templates to show yet">
        <p>
          This page will show the message sent for each machine alarm (EM_0001, EM_0002, EM_0003, EM_0009, EM_0010,
          EM_0016 and MP_0001), and let you edit their wording.
        </p>
      </EmptyState>
    </Page>
  );
}

export function GlobalSettings({ editing = false }: { editing?: boolean }) {
  return (
    <Page title={editing ? 'Edit Global Settings' : 'Global Settings'}>
      <EmptyState title="No global settings to show yet">
        <p>This page will show settings that apply to every business, starting with the NHS prescription charge.</p>
      </EmptyState>
    </Page>
  );
}
