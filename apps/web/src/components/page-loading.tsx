/** The spinner shown while a screen or the session loads; plain CSS, so it costs no antd. */
export function PageLoading({ full = false }: { full?: boolean }) {
  return (
    <div className={full ? 'page-loading page-loading--full' : 'page-loading'} role="status" aria-busy="true">
      <span className="page-loading__spinner" />
    </div>
  );
}
