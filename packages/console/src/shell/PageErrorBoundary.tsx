import { Component, type ReactNode } from 'react';
import { Banner } from '../ui/Banner.tsx';
import { Button } from '../ui/Button.tsx';
import { t } from './i18n/index.ts';

type State = { failed: boolean };

/**
 * Keeps the shell usable when a page fails to render or its code cannot be downloaded (e.g. a
 * new release replaced the hashed files): the page area says so and offers a reload.
 */
type Props = { children: ReactNode /** A new value (the path) clears a failure. */; resetKey: string };

export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override componentDidCatch(error: unknown) {
    console.error('page failed', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Banner tone="error" action={<Button onPress={() => window.location.reload()}>{t('shell.reload')}</Button>}>
        {t('shell.pageFailed')}
      </Banner>
    );
  }
}
