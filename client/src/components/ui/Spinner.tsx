export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner" role={label ? 'status' : undefined} aria-label={label}>
      <span className="spinner__dot" aria-hidden="true" />
      <span className="spinner__dot" aria-hidden="true" />
      <span className="spinner__dot" aria-hidden="true" />
    </span>
  );
}

/** A full-area loading state for route-level waits. */
export function PageLoader({ label }: { label: string }) {
  return (
    <div className="page-loader">
      <Spinner label={label} />
    </div>
  );
}
