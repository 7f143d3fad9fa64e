/** Catches a rendering error anywhere below and shows the 500 page instead of a blank screen. */
import { Component, type ReactNode } from 'react';
import { CrashPage } from '../components/chunk-error';

export class CrashBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('console crashed', error);
  }

  override render() {
    return this.state.failed ? <CrashPage /> : this.props.children;
  }
}
