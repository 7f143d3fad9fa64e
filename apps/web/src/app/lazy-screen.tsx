/**
 * Lazy screens (code splitting per route). A chunk that has not arrived after SPEC §9's
 * 120 s counts as failed; a failed chunk shows an error page whose retry loads it again.
 * Errors thrown while rendering a loaded screen are not load failures and go to the router.
 */
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { ChunkErrorPage } from '../components/chunk-error';
import { PageLoading } from '../components/page-loading';
import { LIMITS } from '@umbo/contracts/checks';

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('screen chunk failed to load', { cause });
    this.name = 'ChunkLoadError';
  }
}

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

class ChunkBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    if (error instanceof ChunkLoadError) return <ChunkErrorPage onRetry={this.props.onRetry} />;
    throw error;
  }
}

export function lazyScreen<P extends object>(load: Loader<P>, fallback: ReactNode = <PageLoading />): ComponentType<P> {
  const make = () =>
    lazy(() =>
      withTimeout(load(), LIMITS.chunkLoadTimeoutMs).catch((err: unknown) => {
        throw new ChunkLoadError(err);
      }),
    );
  let Loaded = make();

  function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState(0);
    const retry = () => {
      Loaded = make();
      setAttempt((n) => n + 1);
    };
    return (
      <ChunkBoundary key={attempt} onRetry={retry}>
        <Suspense fallback={fallback}>
          <Loaded {...props} />
        </Suspense>
      </ChunkBoundary>
    );
  }
  return LazyScreen;
}
